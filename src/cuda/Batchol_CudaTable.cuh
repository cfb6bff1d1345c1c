// Which kernel runs which order n on sm_90 (H100/H200), chosen with
// perf_tests/cuda/tune.cu on an H200 (results in perf_tests/results/): per
// padded order, with a different group width where the layout asks for it.
//
// Each entry is a fully unrolled kernel, so every entry costs compile time in
// the translation unit that calls the Cuda path: BATCHOL_CUDA_MAX_N (default
// 64) trims the table, and larger n fall back to the Generic path.
#ifndef BATCHOL_CUDA_TABLE_CUH
#define BATCHOL_CUDA_TABLE_CUH

#include "Batchol_CudaGroupKernel.cuh"

#ifndef BATCHOL_CUDA_MAX_N
#define BATCHOL_CUDA_MAX_N 64
#endif

namespace batchol::cuda {

// Launches operation MODE on `stream` and returns true, or returns false when
// the table has no kernel for p.n (the caller then takes another path).
template <Mode MODE, class T>
bool launch_tuned(const Batch<T>& p, cudaStream_t stream) {
  const int n = p.n;
  if (n < 1 || n > BATCHOL_CUDA_MAX_N) return false;
  // Rows contiguous (LayoutRight): the kernels stage loads through shared
  // memory, which favours wider groups at some sizes.
  const bool rows = p.a_cs == 1;
  // Thread per matrix while the triangle fits in registers.
  switch (n) {
    case 1:
      launch_group<T, 1, 1, 4, MODE>(p, stream);
      return true;
    case 2:
      launch_group<T, 2, 1, 4, MODE>(p, stream);
      return true;
    case 3:
      launch_group<T, 3, 1, 4, MODE>(p, stream);
      return true;
    case 4:
      launch_group<T, 4, 1, 4, MODE>(p, stream);
      return true;
    case 5:
      launch_group<T, 5, 1, 4, MODE>(p, stream);
      return true;
    case 6:
      launch_group<T, 6, 1, 4, MODE>(p, stream);
      return true;
    case 7:
      launch_group<T, 7, 1, 4, MODE>(p, stream);
      return true;
    case 8:
      launch_group<T, 8, 1, 4, MODE>(p, stream);
      return true;
    default:
      break;
  }
  // Groups of lanes per matrix, rows cyclic over the group. `if constexpr`
  // keeps entries above BATCHOL_CUDA_MAX_N from being instantiated at all.
  if (n <= 12) {
    launch_group<T, 12, 4, 4, MODE>(p, stream);
    return true;
  }
  if (n <= 16) {
    launch_group<T, 16, 4, 4, MODE>(p, stream);
    return true;
  }
  if constexpr (BATCHOL_CUDA_MAX_N > 16) {
    if (n <= 24) {
      launch_group<T, 24, 8, 4, MODE>(p, stream);
      return true;
    }
  }
  if constexpr (BATCHOL_CUDA_MAX_N > 24) {
    if (n <= 32) {
      if (rows)
        launch_group<T, 32, 16, 4, MODE>(p, stream);
      else
        launch_group<T, 32, 8, 4, MODE>(p, stream);
      return true;
    }
  }
  if constexpr (BATCHOL_CUDA_MAX_N > 32) {
    if (n <= 48) {
      launch_group<T, 48, 16, 4, MODE>(p, stream);
      return true;
    }
  }
  if constexpr (BATCHOL_CUDA_MAX_N > 48) {
    // In double a group of 16 would need more than 255 registers.
    if constexpr (sizeof(T) == 4) {
      if (!rows) {
        launch_group<T, 64, 16, 4, MODE>(p, stream);
        return true;
      }
    }
    launch_group<T, 64, 32, 2, MODE>(p, stream);
    return true;
  }
  return false;
}

}  // namespace batchol::cuda

#endif
