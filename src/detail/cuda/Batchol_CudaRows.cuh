// How a kernel table is read: a table is an array of rows, each naming the
// kernel, and its shape, that serves a range of orders n; launching an
// operation through a table finds the row of p.n at compile-time unrolled
// comparisons and calls that kernel's launcher. This file holds the row type,
// the checks every table must pass, and the lookup; which tables exist and
// which one serves a call is Batchol_CudaTuning.cuh's business. Only rows
// below BATCHOL_CUDA_MAX_N are instantiated.
#ifndef BATCHOL_CUDA_ROWS_CUH
#define BATCHOL_CUDA_ROWS_CUH

#include "Batchol_CudaColumnSolve.cuh"
#include "Batchol_CudaGroupKernel.cuh"
#include "Batchol_CudaLaneSolve.cuh"
#include "Batchol_CudaPanelKernel.cuh"
#include "Batchol_CudaStagedSolve.cuh"
#include "Batchol_CudaStridedSolve.cuh"
#include "Batchol_CudaTileKernel.cuh"

#include <array>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace batchol::cuda {

enum class Kernel { Group, Tile, Panel, Strided, Staged, StagedBulk, Lane, Columns };

// How posv solves after the tile or panel kernel (a row's choice): inside
// the tile kernel, on a packed copy of the factor in shared memory (Shared),
// or as a second launch, potrs through the solve tables, which reads the
// stored factor back from memory (Split), or inside the tile kernel from the
// factor in its register tiles, tile by tile (Registers:
// tile_detail::RegSolve).
enum class PosvSolve { Shared, Split, Registers };

// Orders (previous row's n_hi, n_hi] run `kernel` padded to `np`: the group
// kernel with `lanes` lanes per matrix and `warps` warps per block, or the
// tile kernel with a lanes x lanes thread block per matrix, __launch_bounds__
// minimum `minb` blocks per SM, and `mpb` (potrf) or `posv_mpb` (posv)
// matrices per block, or the panel kernel with a lanes x `by` thread block
// per matrix and panels of `nb` columns (np a multiple of nb; minb, mpb and
// posv_mpb as for the tile kernel). How many matrices share a block changes
// no arithmetic, so posv may take its own count and still factor as potrf
// does; `posv` says how posv solves after the tile or panel kernel (the
// panel kernel keeps no shared copy, so it always splits; group kernels
// always solve inside).
// Solve tables also name the strided warp solve (potrs and trsv only):
// np = 32 x the rows each lane owns, `ahead` steps of L read ahead, `nr`
// right-hand sides per warp (Batchol_CudaStridedSolve.cuh), and the staged
// solve: np = 32 x the rows each lane owns, `mpb` systems per block
// (Batchol_CudaStagedSolve.cuh); StagedBulk copies the rows by bulk copies
// where they are aligned for it, and runs as Staged where not; and the lane
// solve: `lanes` lanes per system, `nr` right-hand sides per lane, blocks of
// `nb` rows, `minb` blocks per SM at least (Batchol_CudaLaneSolve.cuh; np
// is only the largest order, the kernel pads nothing); and the column solve
// (potrs with several right-hand sides): a thread per right-hand side,
// `lanes` lanes per system, the factor padded to np in shared memory
// (Batchol_CudaColumnSolve.cuh).
struct FactorEntry {
  int n_hi;
  Kernel kernel;
  int np, lanes, warps, minb, mpb, posv_mpb;
  PosvSolve posv = PosvSolve::Shared;
  int nb = 0, by = 0;
  int ahead = 0, nr = 0;
};

// What the lookup relies on, checked when a table is compiled: rows in
// increasing order from n = from + 1 to `top`, each kernel's padded order
// holding its rows' orders, shapes the kernels accept.
template <class Rows>
constexpr bool valid_table(const Rows& t, int top, int from = 0) {
  const std::size_t rows = std::size(t);
  int lo = from;
  for (std::size_t i = 0; i < rows; ++i) {
    const FactorEntry& e = t[i];
    if (e.n_hi <= lo || e.np < e.n_hi || e.lanes < 1) return false;
    if (e.kernel == Kernel::Group && (e.warps < 1 || 32 % e.lanes != 0)) return false;
    // Group kernels solve inside; the panel kernel keeps no copy, so it splits.
    if (e.kernel == Kernel::Panel && e.posv != PosvSolve::Split) return false;
    if (e.kernel != Kernel::Panel && e.kernel != Kernel::Tile && e.posv != PosvSolve::Shared)
      return false;
    if (e.kernel != Kernel::Tile && e.posv == PosvSolve::Registers) return false;
    const int nt = e.lanes * e.lanes;
    if (e.kernel == Kernel::Tile && (e.np % e.lanes != 0 || e.minb < 1 || e.mpb < 1 ||
                                     e.posv_mpb < 1 || (nt % 32 != 0 && 32 % nt != 0)))
      return false;
    if (e.kernel == Kernel::Panel &&
        (e.nb < 1 || e.by < 1 || e.np % e.nb != 0 || e.nb % e.by != 0 || e.minb < 1 || e.mpb < 1 ||
         e.posv_mpb < 1 || (e.lanes * e.by) % 32 != 0))
      return false;
    if (e.kernel == Kernel::Strided && (e.np % 32 != 0 || e.ahead < 1 || e.nr < 1)) return false;
    if ((e.kernel == Kernel::Staged || e.kernel == Kernel::StagedBulk) &&
        (e.np % 32 != 0 || e.mpb < 1 || e.mpb > 4))
      return false;
    if (e.kernel == Kernel::Lane &&
        (e.nr < 1 || e.nb % e.lanes != 0 || 32 % e.lanes != 0 || e.minb < 1))
      return false;
    if (e.kernel == Kernel::Columns && 32 % e.lanes != 0) return false;
    lo = e.n_hi;
  }
  return rows > 0 && lo == top;
}
// The same for the four row arrays of a table (double_left, double_right,
// float_left, float_right).
template <class SET>
constexpr bool valid_table_set(int top, int from = 0) {
  return valid_table(SET::double_left, top, from) && valid_table(SET::double_right, top, from) &&
         valid_table(SET::float_left, top, from) && valid_table(SET::float_right, top, from);
}

// What a launch through a table did: nothing (p.n is in none of its rows),
// the whole operation, or, for a posv whose row splits it (PosvSolve::Split),
// the factorization only: the caller then runs potrf's solve on the systems
// it factored (cuda::run, Batchol_CudaRun.cuh).
enum class Launch { NoKernel, Done, SolveNext };

namespace rows_detail {

// Row I of TABLE (whose first row starts above FROM): when p.n lies in its
// range, launches OP (for a split posv, its factorization) and says so;
// NoKernel otherwise.
template <Op OP, class T, const auto& TABLE, int FROM, std::size_t I>
Launch try_row(const Problem<T>& p, cudaStream_t s) {
  constexpr FactorEntry e = TABLE[I];
  constexpr int lo = I == 0 ? FROM : TABLE[I == 0 ? 0 : I - 1].n_hi;
  if constexpr (lo >= BATCHOL_CUDA_MAX_N) {
    return Launch::NoKernel;
  } else {
    if (p.n <= lo || p.n > e.n_hi) return Launch::NoKernel;
    // Only the group and tile kernels retry potrf_shifted's failures
    // (retrying_row).
    if constexpr (e.kernel != Kernel::Group && e.kernel != Kernel::Tile) {
      if (p.shift != nullptr)
        throw std::logic_error("batchol::cuda: a shifted potrf reached a kernel without retries");
    }
    if constexpr (e.kernel == Kernel::Group) {
      launch_group<T, e.np, e.lanes, e.warps, OP>(p, s);
    } else if constexpr (e.kernel == Kernel::Strided) {
      static_assert(!factors(OP), "strided rows: solves only");
      launch_strided_solve<T, e.np / 32, OP, e.ahead, e.nr>(p, s);
    } else if constexpr (e.kernel == Kernel::Staged || e.kernel == Kernel::StagedBulk) {
      static_assert(!factors(OP), "staged rows: solves only");
      launch_staged_solve<T, e.np / 32, OP>(p, s, e.mpb, e.kernel == Kernel::StagedBulk);
    } else if constexpr (e.kernel == Kernel::Lane) {
      static_assert(!factors(OP), "lane rows: solves only");
      launch_lane_solve<T, e.nr, e.nb, e.lanes, e.minb, OP>(p, s);
    } else if constexpr (e.kernel == Kernel::Columns) {
      static_assert(!factors(OP), "column rows: solves only");
      launch_column_solve<T, e.np, e.lanes, OP>(p, s);
    } else {
      static_assert(factors(OP), "tile and panel rows: factor");
      // A split posv: this row's potrf; the caller then solves.
      constexpr bool split = OP == Op::Posv && e.posv == PosvSolve::Split;
      constexpr bool reg = OP == Op::Posv && e.posv == PosvSolve::Registers;
      const int mpb = OP == Op::Posv ? e.posv_mpb : e.mpb;
      if constexpr (e.kernel == Kernel::Panel)
        launch_panel<T, e.lanes, e.by, e.nb, e.np / e.nb, e.minb>(p, s, mpb);
      else
        launch_tile<T, e.lanes, e.np / e.lanes, e.minb, split ? Op::Potrf : OP, reg>(p, s, mpb);
      if constexpr (split) return Launch::SolveNext;
    }
    return Launch::Done;
  }
}

// The rows in order, until one has launched.
template <Op OP, class T, const auto& TABLE, int FROM, std::size_t... I>
Launch run(const Problem<T>& p, cudaStream_t s, std::index_sequence<I...>) {
  Launch done = Launch::NoKernel;
  (void)(((done = try_row<OP, T, TABLE, FROM, I>(p, s)) != Launch::NoKernel) || ...);
  return done;
}

}  // namespace rows_detail

// Runs OP with the kernel TABLE (rows from FROM + 1 on) names for p.n
// (NoKernel: p.n is outside the table, or above BATCHOL_CUDA_MAX_N).
template <Op OP, class T, const auto& TABLE, int FROM = 0>
Launch launch_rows(const Problem<T>& p, cudaStream_t s) {
  constexpr std::size_t rows = std::size(TABLE);
  return rows_detail::run<OP, T, TABLE, FROM>(p, s, std::make_index_sequence<rows>{});
}

// OP through the rows of SET (a struct of row arrays double_left,
// double_right, float_left, float_right, from FROM + 1 on) for p's
// precision, with the _left rows for LayoutLeft-like batches (batch index
// fastest).
template <Op OP, class T, class SET, int FROM = 0>
Launch launch_table(const Problem<T>& p, cudaStream_t s) {
  const bool left = p.a_bs == 1;
  if constexpr (sizeof(T) == 8)
    return left ? launch_rows<OP, T, SET::double_left, FROM>(p, s)
                : launch_rows<OP, T, SET::double_right, FROM>(p, s);
  else
    return left ? launch_rows<OP, T, SET::float_left, FROM>(p, s)
                : launch_rows<OP, T, SET::float_right, FROM>(p, s);
}

// Whether the row of SET (as launch_table reads it for p) that serves p.n
// runs a kernel that retries potrf_shifted's failures itself: the group and
// tile kernels, where they read the input from elsewhere than L (a retry
// starts again from it).
template <class T, class SET>
bool retrying_row(const Problem<T>& p) {
  auto in = [&](const auto& rows) {
    for (const FactorEntry& e : rows)
      if (p.n <= e.n_hi) return e.kernel == Kernel::Group || e.kernel == Kernel::Tile;
    return false;
  };
  if (p.src == nullptr || p.src == p.a) return false;
  const bool left = p.a_bs == 1;
  if constexpr (sizeof(T) == 8)
    return left ? in(SET::double_left) : in(SET::double_right);
  else
    return left ? in(SET::float_left) : in(SET::float_right);
}

}  // namespace batchol::cuda

#endif
