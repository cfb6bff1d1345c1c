// The Cuda path, as the dispatcher sees it: whether it exists for an
// execution space, and whether its tables have a kernel for an order. The
// kernels, their tables and the entry cuda::run<OP> are plain CUDA C++ in
// cuda/ (Batchol_CudaRun.cuh), launched on the execution space instance's
// stream.
//
// Available when Kokkos has CUDA and this translation unit is compiled by nvcc
// (nvcc_wrapper); elsewhere the dispatcher sees it as absent.
#ifndef BATCHOL_CUDA_PATH_HPP
#define BATCHOL_CUDA_PATH_HPP

#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>

#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#define BATCHOL_HAS_CUDA_PATH 1
#include "cuda/Batchol_CudaRun.cuh"
#else
#define BATCHOL_HAS_CUDA_PATH 0
#endif

namespace batchol::detail {

#if BATCHOL_HAS_CUDA_PATH
template <class ExecSpace, Op OP>
inline constexpr bool cuda_path_available_v = std::is_same_v<ExecSpace, Kokkos::Cuda> &&
                                              (specialized(OP) || OP == Op::Potri ||
                                               OP == Op::PosvMixed);

// Whether the Cuda path takes operation OP on pr: orders 1 to
// BATCHOL_CUDA_MAX_N (at most 512) from the tables, potrf, potrs or posv of
// one large matrix, and potrf of a batch of large double matrices
// (cuda/Batchol_CudaLarge.cuh, cuda/Batchol_CudaLargeSolve.cuh); potri up
// to cuda::potri_max_n (cuda/Batchol_CudaPotri.cuh) and posv_mixed up to
// cuda::mixed_max_n (cuda/Batchol_CudaMixed.cuh).
template <Op OP, class T>
bool cuda_serves(const Problem<T>& pr) {
  return cuda::serves<OP>(pr);
}

// Whether the kernel the Cuda path runs for OP on pr reads an out-of-place
// potrf's input (Problem::src) itself.
template <Op OP, class T>
bool cuda_takes_source(const Problem<T>& pr) {
  return OP == Op::Potrf && cuda::takes_source(pr);
}

// Whether the Cuda path's potrf on pr runs a kernel that retries
// potrf_shifted's failures itself (Problem::shift).
template <class T>
bool cuda_retries_shifts(const Problem<T>& pr) {
  return cuda::retries_in_kernel(pr);
}

// The Cuda path's cuBLAS handles (cuda/Batchol_CudaBlas.cuh) are destroyed
// when Kokkos finalizes, before the devices go; registered once per process.
inline void release_blas_at_finalize() {
  static const bool registered = [] {
    Kokkos::push_finalize_hook(cuda::release_blas);
    return true;
  }();
  (void)registered;
}
#else
template <class ExecSpace, Op OP>
inline constexpr bool cuda_path_available_v = false;

template <Op OP, class T>
bool cuda_serves(const Problem<T>&) {
  return false;
}

template <Op OP, class T>
bool cuda_takes_source(const Problem<T>&) {
  return false;
}

template <class T>
bool cuda_retries_shifts(const Problem<T>&) {
  return false;
}
#endif

}  // namespace batchol::detail

#endif
