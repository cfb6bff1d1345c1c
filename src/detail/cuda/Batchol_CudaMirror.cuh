// write_transposed after the large-matrix factorization, whose kernels store
// only the factor's triangle: a pass that copies the factor of each matrix
// that succeeded (info 0) into its strict upper triangle. It reads the
// triangle the factorization has just written; small orders mirror inside
// their kernels instead.
#ifndef BATCHOL_CUDA_MIRROR_CUH
#define BATCHOL_CUDA_MIRROR_CUH

#include "Batchol_CudaCommon.cuh"

#include <algorithm>
#include <cstdint>

namespace batchol::cuda {

// Element (r, c), r > c, of every matrix from blockIdx.z on (a stride of
// gridDim.z), a 32 x 8 block of threads per 32 x 8 piece of the matrix.
template <class T>
__global__ void mirror_kernel(const Problem<T> p) {
  const int c = blockIdx.x * 32 + threadIdx.x;
  const int r = blockIdx.y * 8 + threadIdx.y;
  if (r >= p.n || c >= r) return;
  for (std::int64_t mat = blockIdx.z; mat < p.batch; mat += gridDim.z) {
    if (p.info[mat * p.info_s] != 0) continue;
    T* const a = p.a + mat * p.a_bs;
    a[c * p.a_rs + r * p.a_cs] = a[r * p.a_rs + c * p.a_cs];
  }
}

template <class T>
void launch_mirror(const Problem<T>& p, cudaStream_t stream) {
  if (p.batch == 0 || p.n < 2) return;
  const dim3 grid(unsigned((p.n + 31) / 32), unsigned((p.n + 7) / 8),
                  unsigned(std::min<std::int64_t>(p.batch, 65535)));
  mirror_kernel<<<grid, dim3(32, 8), 0, stream>>>(p);
  check(cudaGetLastError(), "mirror_kernel launch");
}

}  // namespace batchol::cuda

#endif
