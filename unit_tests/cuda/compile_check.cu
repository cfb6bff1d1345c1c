// CI compile check of the Cuda kernels with plain nvcc (no GPU, no Kokkos):
//   nvcc -arch=sm_90 -std=c++17 -Isrc -c unit_tests/cuda/compile_check.cu -o /dev/null
// By default it instantiates every kernel shape (thread per matrix and each
// group width, every mode, both precisions; the tile kernel with 4x4 and 8x8
// threads per matrix, potrf and posv, both precisions, the panel kernel, and
// the factorization table's dispatch on four rows (posv inside the tile
// kernel and split), a solve table's on three;
// the strided warp solve, the staged solve and the lane solve)
// at a small order,
// which compiles in about a minute. -DBATCHOL_CHECK_FULL_TABLE instantiates the whole
// sm_90 table instead (what a Kokkos build of the Cuda path compiles; minutes).
#include "detail/cuda/Batchol_CudaTable.cuh"

namespace {

using batchol::cuda::Batch;
using batchol::cuda::FactorEntry;
using batchol::cuda::Kernel;
using batchol::cuda::Mode;
using batchol::cuda::PosvSolve;

#ifndef BATCHOL_CHECK_FULL_TABLE
// The table dispatch (Batchol_CudaFactorTable.cuh) on five rows, with posv
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

template <class T, Mode MODE>
void shapes(const Batch<T>& p, cudaStream_t s) {
#ifdef BATCHOL_CHECK_FULL_TABLE
  batchol::cuda::launch_tuned<MODE>(p, s);
#else
  batchol::cuda::launch_group<T, 3, 1, 4, MODE>(p, s);
  batchol::cuda::launch_group<T, 8, 2, 4, MODE>(p, s);
  batchol::cuda::launch_group<T, 8, 4, 4, MODE>(p, s);
  batchol::cuda::launch_group<T, 16, 8, 4, MODE>(p, s);
  batchol::cuda::launch_group<T, 16, 16, 2, MODE>(p, s);
  batchol::cuda::launch_group<T, 32, 32, 4, MODE>(p, s);
  if constexpr (MODE == Mode::Potrf || MODE == Mode::Posv) {
    batchol::cuda::launch_rows<MODE, T, check_rows>(p, s);
    batchol::cuda::launch_tile<T, 4, 5, 1, MODE>(p, s, 2);
    batchol::cuda::launch_tile<T, 8, 3, 2, MODE>(p, s, 1);
  } else {
    batchol::cuda::launch_rows<MODE, T, check_solve_rows>(p, s);
    batchol::cuda::launch_strided_solve<T, 3, MODE, 4, 1>(p, s);
    batchol::cuda::launch_strided_solve<T, 3, MODE, 2, 4>(p, s);
    batchol::cuda::launch_staged_solve<T, 2, MODE>(p, s, 2);
    batchol::cuda::launch_staged_solve<T, 1, MODE>(p, s, 4, true);
    batchol::cuda::launch_lane_solve<T, 1, 8, 1, 16, MODE>(p, s);
    batchol::cuda::launch_lane_solve<T, 2, 8, 8, 1, MODE>(p, s);
  }
#endif
}

template <class T>
void all_modes(const Batch<T>& p, cudaStream_t s) {
  shapes<T, Mode::Potrf>(p, s);
  shapes<T, Mode::Posv>(p, s);
  shapes<T, Mode::Potrs>(p, s);
  shapes<T, Mode::TrsvN>(p, s);
  shapes<T, Mode::TrsvT>(p, s);
}

}  // namespace

// Never called: referencing the instantiations is the point.
void batchol_cuda_compile_check(const Batch<double>& d, const Batch<float>& f, cudaStream_t s) {
  all_modes(d, s);
  all_modes(f, s);
}
