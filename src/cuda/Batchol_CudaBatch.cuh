// Plain-CUDA view of one batched call: pointers and 64-bit strides, no Kokkos.
// The kernels in src/cuda/ read only this, so CI can compile them with nvcc
// alone and the tuning tool can drive them without Kokkos.
#ifndef BATCHOL_CUDA_BATCH_CUH
#define BATCHOL_CUDA_BATCH_CUH

#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>
#include <stdexcept>
#include <string>

// Largest order the Cuda path's tables instantiate kernels for (every row
// is an unrolled kernel); larger n take the Generic path.
#ifndef BATCHOL_CUDA_MAX_N
#define BATCHOL_CUDA_MAX_N 128
#endif

namespace batchol::cuda {

// What one kernel launch computes. Potrs/TrsvN/TrsvT read the factor only.
enum class Mode { Potrf, Posv, Potrs, TrsvN, TrsvT };

template <class T>
struct Batch {
  std::int64_t batch = 0;
  int n = 0;
  T* a = nullptr;  // lower triangle: matrix i at a + i*a_bs, (r,c) at r*a_rs + c*a_cs
  std::int64_t a_bs = 0, a_rs = 0, a_cs = 0;
  T* b = nullptr;  // n x nrhs right-hand sides: matrix i at b + i*b_bs
  std::int64_t b_bs = 0, b_rs = 0, b_cs = 0;
  int nrhs = 0;
  int* info = nullptr;
  std::int64_t info_s = 0;
  bool mirror = false;     // also write the factor into the strict upper triangle
  bool fast_math = false;  // Options::fast_math: pivot roots from rsqrt (pivot_roots)
};

// Same test as the reference kernels: rejects <= 0, NaN and +Inf.
__device__ __forceinline__ bool pivot_ok(float d) {
  return d > 0.0f && d <= FLT_MAX;
}
__device__ __forceinline__ bool pivot_ok(double d) {
  return d > 0.0 && d <= DBL_MAX;
}

__device__ __forceinline__ double recip(double x) {
  return __drcp_rn(x);
}
__device__ __forceinline__ float recip(float x) {
  return __frcp_rn(x);
}

// The pivot's square root s and its reciprocal rs, which scales the column.
// Exact: s = sqrt(d) and rs = 1/s, each correctly rounded. Options::fast_math
// (Kurzak et al. 7.2, without their flush to zero, which would be a
// compile-time choice for the whole kernel): rs = rsqrt(d), one hardware
// estimate refined by CUDA's math library to within 1 ulp (double) or 2 ulp
// (float) of 1/sqrt(d), and s = d rs; one fewer dependent long-latency
// operation per column, and each s, rs within a few ulp of the exact ones.
// `fast` is the same for the whole launch, so the branch never diverges. On a
// failing pivot both forms give non-finite or meaningless values, which the
// kernels never store (info reports the column instead).
template <class T>
__device__ __forceinline__ void pivot_roots(T d, bool fast, T& s, T& rs) {
  if (fast) {
    rs = rsqrt(d);
    s = d * rs;
  } else {
    s = sqrt(d);
    rs = recip(s);
  }
}

// A copy of x the compiler cannot see through. Kernels that hold a matrix in
// registers recompute their store addresses from it instead of keeping the
// loads' addresses alive through the whole factorization (which costs two
// registers per element).
__device__ __forceinline__ std::int64_t opaque(std::int64_t x) {
  asm volatile("" : "+l"(x));
  return x;
}

// Errors become exceptions: the Kokkos layer must never abort on a launch failure.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("batchol::cuda: ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace batchol::cuda

#endif
