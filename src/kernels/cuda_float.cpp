// The Cuda kernel table's entry points for float (see CudaKernels in
// cuda/Batchol_CudaTable.cuh); empty unless this is a CUDA build compiled by
// nvcc. Built as its own object so the two precisions compile in parallel.
#include <Batchol.hpp>

#if BATCHOL_HAS_CUDA_PATH
template struct batchol::cuda::CudaKernels<float>;
#endif
