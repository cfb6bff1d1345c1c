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
  bool mirror = false;  // also write the factor into the strict upper triangle
};

// Same test as the reference kernels: rejects <= 0, NaN and +Inf.
__device__ __forceinline__ bool pivot_ok(float d) {
  return d > 0.0f && d <= FLT_MAX;
}
__device__ __forceinline__ bool pivot_ok(double d) {
  return d > 0.0 && d <= DBL_MAX;
}

// Errors become exceptions: the Kokkos layer must never abort on a launch failure.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("batchol::cuda: ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace batchol::cuda

#endif
