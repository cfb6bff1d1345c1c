#include "cuda/Batchol_CudaTileKernel.cuh"
using namespace batchol::cuda;
template void batchol::cuda::launch_tile<double, 8, 13, 1, Mode::Potrf, false>(const Batch<double>&,
                                                                               cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 8, 13, 1, Mode::Posv, false>(const Batch<double>&,
                                                                              cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 8, 13, 1, Mode::Posv, true>(const Batch<double>&,
                                                                             cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 8, 8, 2, Mode::Potrf, false>(const Batch<double>&,
                                                                              cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 8, 8, 2, Mode::Posv, false>(const Batch<double>&,
                                                                             cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 8, 8, 2, Mode::Posv, true>(const Batch<double>&,
                                                                            cudaStream_t, int);
template void batchol::cuda::launch_tile<float, 8, 10, 2, Mode::Potrf, false>(const Batch<float>&,
                                                                              cudaStream_t, int);
template void batchol::cuda::launch_tile<float, 8, 10, 2, Mode::Posv, true>(const Batch<float>&,
                                                                            cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 4, 7, 1, Mode::Posv, true>(const Batch<double>&,
                                                                            cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 16, 8, 2, Mode::Potrf, false>(const Batch<double>&,
                                                                               cudaStream_t, int);
template void batchol::cuda::launch_tile<double, 16, 8, 2, Mode::Posv, true>(const Batch<double>&,
                                                                             cudaStream_t, int);
