// CI compile check of the Cuda kernels with plain nvcc (no GPU, no Kokkos):
//   nvcc -arch=sm_90 -std=c++17 -Isrc -c unit_tests/cuda/compile_check.cu -o /dev/null
// By default it instantiates every kernel shape at a small order: the group
// kernel with a thread per matrix and each group width, for every operation;
// the tile kernel with 4x4 and 8x8 threads per matrix and the panel kernel,
// potrf and posv; the strided warp solve, the staged solve (element and bulk
// copies), the lane solve and the column solve; the table lookup on a
// factorization table's five kinds of row (posv inside the tile kernel from
// shared memory and from registers, and split) and a solve table's five; potrs through every row of
// the solve tables, both precisions; the large-matrix factorization;
// potri's kernel; and posv_mixed's two kernels (a thread per system at each
// order up to 8, a thread per row). That compiles in a minute or two. The
// large-matrix factorization's update and solves through cuBLAS
// (BATCHOL_CUBLAS, its headers only: nothing is linked) are compiled too.
// -DBATCHOL_CHECK_FULL_TABLE instantiates the whole sm_90 table instead,
// through the Cuda path's entry cuda::run (what a Kokkos build of the Cuda
// path compiles; minutes). -DBATCHOL_CHECK_DOUBLE=0 or -DBATCHOL_CHECK_FLOAT=0
// leaves one precision out, so that two compilers can share the work.
#ifndef BATCHOL_CUBLAS
#define BATCHOL_CUBLAS 1
#endif
#ifndef BATCHOL_CHECK_DOUBLE
#define BATCHOL_CHECK_DOUBLE 1
#endif
#ifndef BATCHOL_CHECK_FLOAT
#define BATCHOL_CHECK_FLOAT 1
#endif
#include "detail/cuda/Batchol_CudaRun.cuh"

#include <type_traits>

namespace {

using batchol::cuda::FactorEntry;
using batchol::cuda::Kernel;
using batchol::cuda::PosvSolve;
using batchol::detail::Op;
using batchol::detail::Problem;

#ifndef BATCHOL_CHECK_FULL_TABLE
// The table lookup (Batchol_CudaRows.cuh) on five rows, with posv
// inside the tile kernel (both ways) and split; the real
// tables' rows are checked by static_asserts when the header is included.
constexpr FactorEntry check_rows[] = {
    {3, Kernel::Group, 3, 1, 4, 0, 0, 0},
    {24, Kernel::Tile, 24, 8, 0, 2, 1, 4, PosvSolve::Shared},
    {32, Kernel::Panel, 32, 16, 0, 2, 1, 1, PosvSolve::Split, 16, 4},
    {40, Kernel::Tile, 40, 8, 0, 2, 1, 1, PosvSolve::Split},
    {48, Kernel::Tile, 48, 8, 0, 2, 1, 2, PosvSolve::Registers}};
// A solve table's five kinds of row.
constexpr FactorEntry check_solve_rows[] = {
    {3, Kernel::Group, 3, 1, 4, 0, 0, 0},
    {40, Kernel::Lane, 128, 4, 1, 16, 0, 0, PosvSolve::Shared, 8, 0, 0, 2},
    {64, Kernel::Strided, 64, 32, 4, 0, 0, 0, PosvSolve::Shared, 0, 0, 4, 1},
    {96, Kernel::Staged, 96, 32, 0, 0, 4, 0},
    {128, Kernel::StagedBulk, 128, 32, 0, 0, 1, 0}};
#endif

template <class T, Op OP>
void shapes(const Problem<T>& p, cudaStream_t s) {
#ifdef BATCHOL_CHECK_FULL_TABLE
  batchol::cuda::run<OP>(p, s);
#else
  batchol::cuda::launch_group<T, 3, 1, 4, OP>(p, s);
  batchol::cuda::launch_group<T, 8, 2, 4, OP>(p, s);
  batchol::cuda::launch_group<T, 8, 4, 4, OP>(p, s);
  batchol::cuda::launch_group<T, 16, 8, 4, OP>(p, s);
  batchol::cuda::launch_group<T, 16, 16, 2, OP>(p, s);
  batchol::cuda::launch_group<T, 32, 32, 4, OP>(p, s);
  if constexpr (batchol::detail::factors(OP)) {
    batchol::cuda::launch_rows<OP, T, check_rows>(p, s);
    batchol::cuda::launch_tile<T, 4, 5, 1, OP>(p, s, 2);
    batchol::cuda::launch_tile<T, 8, 3, 2, OP>(p, s, 1);
  } else {
    batchol::cuda::launch_rows<OP, T, check_solve_rows>(p, s);
    batchol::cuda::launch_strided_solve<T, 3, OP, 4, 1>(p, s);
    batchol::cuda::launch_strided_solve<T, 3, OP, 2, 4>(p, s);
    batchol::cuda::launch_staged_solve<T, 2, OP>(p, s, 2);
    batchol::cuda::launch_staged_solve<T, 1, OP>(p, s, 4, true);
    batchol::cuda::launch_lane_solve<T, 1, 8, 1, 16, OP>(p, s);
    batchol::cuda::launch_lane_solve<T, 2, 8, 8, 1, OP>(p, s);
    batchol::cuda::launch_column_solve<T, 5, 4, OP>(p, s);
    // Every row of the solve tables for potrs, through the Cuda path's entry
    // (what a split posv runs after its factorization).
    if constexpr (OP == Op::Potrs) batchol::cuda::run<OP>(p, s);
  }
#endif
}

template <class T>
void all_modes(const Problem<T>& p, cudaStream_t s) {
  shapes<T, Op::Potrf>(p, s);
  shapes<T, Op::Posv>(p, s);
  shapes<T, Op::Potrs>(p, s);
  shapes<T, Op::TrsvN>(p, s);
  shapes<T, Op::TrsvT>(p, s);
  batchol::cuda::large_potrf(p, s);
  batchol::cuda::large_potrs(p, s);
  batchol::cuda::run<Op::Potri>(p, s);
  // posv_mixed takes double systems (and factors them in float).
  if constexpr (std::is_same_v<T, double>) batchol::cuda::run<Op::PosvMixed>(p, s);
}

}  // namespace

// Never called: referencing the instantiations is the point.
void batchol_cuda_compile_check([[maybe_unused]] const Problem<double>& d,
                                [[maybe_unused]] const Problem<float>& f,
                                [[maybe_unused]] cudaStream_t s) {
#if BATCHOL_CHECK_DOUBLE
  all_modes(d, s);
#endif
#if BATCHOL_CHECK_FLOAT
  all_modes(f, s);
#endif
}
