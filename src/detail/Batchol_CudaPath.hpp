// The Cuda path: the tuned kernels of src/detail/cuda/ (plain CUDA C++), launched on
// the execution space instance's stream so they order like any Kokkos kernel
// on it. What the kernel table does not cover (n = 0, n > BATCHOL_CUDA_MAX_N)
// runs on the Generic path instead, on the same instance.
//
// Available when Kokkos has CUDA and this translation unit is compiled by nvcc
// (nvcc_wrapper); elsewhere the dispatcher sees it as absent.
#ifndef BATCHOL_CUDA_PATH_HPP
#define BATCHOL_CUDA_PATH_HPP

#include <detail/Batchol_Generic.hpp>
#include <Batchol_Options.hpp>
#include <detail/Batchol_Problem.hpp>

#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#define BATCHOL_HAS_CUDA_PATH 1
#include "cuda/Batchol_CudaTable.cuh"
#else
#define BATCHOL_HAS_CUDA_PATH 0
#endif

namespace batchol::detail {

#if BATCHOL_HAS_CUDA_PATH
template <class ExecSpace, class Op>
inline constexpr bool cuda_path_available_v = std::is_same_v<ExecSpace, Kokkos::Cuda>;

template <class Op>
constexpr cuda::Mode cuda_mode() {
  if constexpr (std::is_same_v<Op, PotrfOp>) return cuda::Mode::Potrf;
  if constexpr (std::is_same_v<Op, PosvOp>) return cuda::Mode::Posv;
  if constexpr (std::is_same_v<Op, PotrsOp>) return cuda::Mode::Potrs;
  if constexpr (std::is_same_v<Op, TrsvOp<NoTransposeTag>>) return cuda::Mode::TrsvN;
  if constexpr (std::is_same_v<Op, TrsvOp<TransposeTag>>) return cuda::Mode::TrsvT;
}

template <class T>
cuda::Batch<T> cuda_batch(const Problem<T>& pr, const Options& opts) {
  cuda::Batch<T> b;
  b.batch = pr.batch;
  b.n = pr.n;
  b.a = pr.a;
  b.a_bs = pr.a_bs;
  b.a_rs = pr.a_rs;
  b.a_cs = pr.a_cs;
  b.b = pr.b;
  b.b_bs = pr.b_bs;
  b.b_rs = pr.b_rs;
  b.b_cs = pr.b_cs;
  b.nrhs = pr.nrhs;
  b.info = pr.info;
  b.info_s = pr.info_s;
  b.mirror = pr.mirror;
  b.fast_math = opts.fast_math;
  return b;
}
#else
template <class ExecSpace, class Op>
inline constexpr bool cuda_path_available_v = false;
#endif

// Options::fast_math reaches the factorizations' pivot step
// (cuda::pivot_roots); the solves and the Generic fallback compute exactly.
template <class Op, class ExecSpace, class T>
void cuda_launch(const ExecSpace& exec, const Problem<T>& pr,
                 [[maybe_unused]] const Options& opts) {
#if BATCHOL_HAS_CUDA_PATH
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    if (pr.batch == 0) return;
    if (cuda::launch_entry<cuda_mode<Op>()>(cuda_batch(pr, opts), exec.cuda_stream())) return;
  }
#endif
  generic_launch<Op>(exec, pr);
}

}  // namespace batchol::detail

#endif
