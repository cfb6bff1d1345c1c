// The kernel tables as data: which kernel runs each operation for each order
// n, per precision and layout. potrf and posv read the factorization table,
// potrs and trsv the solve tables (one for a single right-hand side, one for
// several: Batchol_CudaTable.cuh). On sm_90 (H100/H200) they are the tables the
// tuning tool wrote (tools/tuning/tune.cu times the candidates,
// tools/tuning/make_table.py writes Batchol_CudaTable_sm90.inc); on every
// other architecture a robust default. Each row names a kernel instantiation,
// and only rows below BATCHOL_CUDA_MAX_N are instantiated.
#ifndef BATCHOL_CUDA_FACTOR_TABLE_CUH
#define BATCHOL_CUDA_FACTOR_TABLE_CUH

#include "Batchol_CudaGroupKernel.cuh"
#include "Batchol_CudaLaneSolve.cuh"
#include "Batchol_CudaPanelKernel.cuh"
#include "Batchol_CudaStagedSolve.cuh"
#include "Batchol_CudaStridedSolve.cuh"
#include "Batchol_CudaTileKernel.cuh"

#include <array>
#include <cstddef>
#include <iterator>
#include <utility>

namespace batchol::cuda {

enum class Kernel { Group, Tile, Panel, Strided, Staged, StagedBulk, Lane };

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
// is only the largest order, the kernel pads nothing).
struct FactorEntry {
  int n_hi;
  Kernel kernel;
  int np, lanes, warps, minb, mpb, posv_mpb;
  PosvSolve posv = PosvSolve::Shared;
  int nb = 0, by = 0;
  int ahead = 0, nr = 0;
};

#include "Batchol_CudaTable_sm90.inc"

// Other architectures: one shape that serves every order reasonably, as the
// paper's 16x4 block does for its kernel (Kurzak et al. 6.1): a thread per
// matrix up to n = 8 and groups of lanes up to 32 (registers hold the
// triangle), then the tile kernel with 8 x 8 threads padded to a multiple of
// 8, one matrix per block on LayoutRight and 4 on LayoutLeft (fuller 32-byte
// sectors), registers capped at 128 (MINB = 2) up to NP = 64 in double and 80
// in float; in double above 104, 16 x 16 threads, as 8 x 8 would need more
// than 255 registers per thread. On the H100 (perf_tests/results/
// h100-2026-11-22-tablegen/confirm/) its potrf was within 1.25x of the sm_90
// table's from n = 48 on and 1.8x at 40; at 25-32 the group of 16 lanes was
// within 1.6x (posv 1.9x) where the sm_90 table takes 4 x 4 tiles or other
// groups.
// The paper's own default, its panel kernel with a 16 x 4 block, measured
// less robust here: with NB = 16 it was 1.0-2.1x the fastest candidate's
// potrf at n = 28-128 (batch 10^4, both precisions and layouts), these rows
// 1.0-1.8x (perf_tests/results/h100-2026-11-22-panel/).
// posv solves inside the tile kernel from a shared copy of the factor up to
// n = 64 (48 on LayoutRight) and as a second launch above, as the H100 table
// did before the tool chose per row.
template <std::size_t N>
constexpr std::array<FactorEntry, N> default_rows(bool dbl, bool left) {
  std::array<FactorEntry, N> r{};
  std::size_t i = 0;
  for (int n = 1; n <= 8; ++n) r[i++] = {n, Kernel::Group, n, 1, 4, 0, 0, 0};
  r[i++] = {12, Kernel::Group, 12, 4, 4, 0, 0, 0};
  r[i++] = {16, Kernel::Group, 16, 4, 4, 0, 0, 0};
  r[i++] = {24, Kernel::Group, 24, 8, 4, 0, 0, 0};
  r[i++] = {32, Kernel::Group, 32, 16, 4, 0, 0, 0};
  for (int np = 40; np <= 128; np += 8) {
    FactorEntry e{np, Kernel::Tile, np, 8, 0, np <= (dbl ? 64 : 80) ? 2 : 1, 1, 1};
    if (dbl && np > 104) {
      if (np % 16 != 0) continue;
      e.lanes = 16;
      e.minb = 2;
    } else if (left) {
      e.mpb = e.posv_mpb = 4;
    }
    if (np > (left ? 64 : 48)) e.posv = PosvSolve::Split;
    r[i++] = e;
  }
  return r;
}
struct DefaultTable {
  static constexpr auto double_right = default_rows<23>(true, false);
  static constexpr auto double_left = default_rows<23>(true, true);
  static constexpr auto float_right = default_rows<24>(false, false);
  static constexpr auto float_left = default_rows<24>(false, true);
};

// What the dispatcher relies on, checked when the table is compiled: rows in
// increasing order from n = 1 to `top`, each kernel's padded order holding its
// rows' orders, shapes the kernels accept.
template <class Rows>
constexpr bool valid_table(const Rows& t, int top = 128) {
  const std::size_t rows = std::size(t);
  int lo = 0;
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
    lo = e.n_hi;
  }
  return rows > 0 && lo == top;
}
// The same for the four row arrays of a table (double_left, double_right,
// float_left, float_right).
template <class SET>
constexpr bool valid_table_set() {
  return valid_table(SET::double_left) && valid_table(SET::double_right) &&
         valid_table(SET::float_left) && valid_table(SET::float_right);
}
static_assert(valid_table_set<Sm90Table>() && valid_table_set<DefaultTable>());

// The table's entry points (Batchol_CudaTable.cuh, which includes this file
// and defines them): the split posv solves through potrs's, so that a
// library build compiles the solve rows once, in potrs's own translation
// unit (src/kernels/cuda_entry.cpp.in).
template <class T>
struct CudaKernels;

namespace table_detail {

// Row I of TABLE: launches MODE and returns true when p.n lies in its range.
template <Mode MODE, class T, const auto& TABLE, std::size_t I>
bool try_row(const Batch<T>& p, cudaStream_t s) {
  constexpr FactorEntry e = TABLE[I];
  constexpr int lo = I == 0 ? 0 : TABLE[I == 0 ? 0 : I - 1].n_hi;
  if constexpr (lo >= BATCHOL_CUDA_MAX_N) {
    return false;
  } else {
    if (p.n <= lo || p.n > e.n_hi) return false;
    if constexpr (e.kernel == Kernel::Group) {
      launch_group<T, e.np, e.lanes, e.warps, MODE>(p, s);
    } else if constexpr (e.kernel == Kernel::Strided) {
      static_assert(MODE != Mode::Potrf && MODE != Mode::Posv, "strided rows: solves only");
      launch_strided_solve<T, e.np / 32, MODE, e.ahead, e.nr>(p, s);
    } else if constexpr (e.kernel == Kernel::Staged || e.kernel == Kernel::StagedBulk) {
      static_assert(MODE != Mode::Potrf && MODE != Mode::Posv, "staged rows: solves only");
      launch_staged_solve<T, e.np / 32, MODE>(p, s, e.mpb, e.kernel == Kernel::StagedBulk);
    } else if constexpr (e.kernel == Kernel::Lane) {
      static_assert(MODE != Mode::Potrf && MODE != Mode::Posv, "lane rows: solves only");
      launch_lane_solve<T, e.nr, e.nb, e.lanes, e.minb, MODE>(p, s);
    } else {
      static_assert(MODE == Mode::Potrf || MODE == Mode::Posv, "tile and panel rows: factor");
      // A split posv: this row's potrf, then potrs as the solve tables
      // name it, on the systems it factored (their info is set by then).
      // Why the tables: with the fixed strided solve it used before, posv
      // took 1.05-1.10 times as long as potrf then potrs (H100, batch 10^4:
      // double n = 100 LayoutRight 115 ns against 80 + 25; now 110).
      // perf_tests/PERFLOG.md, 2026-11-24, twentieth session.
      constexpr bool split = MODE == Mode::Posv && e.posv == PosvSolve::Split;
      constexpr bool reg = MODE == Mode::Posv && e.posv == PosvSolve::Registers;
      const int mpb = MODE == Mode::Posv ? e.posv_mpb : e.mpb;
      if constexpr (e.kernel == Kernel::Panel)
        launch_panel<T, e.lanes, e.by, e.nb, e.np / e.nb, e.minb>(p, s, mpb);
      else
        launch_tile<T, e.lanes, e.np / e.lanes, e.minb, split ? Mode::Potrf : MODE, reg>(p, s, mpb);
      if constexpr (split) {
        Batch<T> q = p;
        q.skip_failed = true;
        CudaKernels<T>::potrs(q, s);
      }
    }
    return true;
  }
}

template <Mode MODE, class T, const auto& TABLE, std::size_t... I>
bool run(const Batch<T>& p, cudaStream_t s, std::index_sequence<I...>) {
  return (try_row<MODE, T, TABLE, I>(p, s) || ...);
}

}  // namespace table_detail

// Runs MODE with the kernel TABLE names for p.n; false when p.n is outside
// the table (or above BATCHOL_CUDA_MAX_N).
template <Mode MODE, class T, const auto& TABLE>
bool launch_rows(const Batch<T>& p, cudaStream_t s) {
  constexpr std::size_t rows = std::size(TABLE);
  return table_detail::run<MODE, T, TABLE>(p, s, std::make_index_sequence<rows>{});
}

// Whether the current device runs the sm_90 tables (compute capability 9.x).
inline bool device_is_sm90() {
  return current_device().major == 9;
}

// MODE through the rows of SET (a struct of row arrays double_left,
// double_right, float_left, float_right) for p's precision, with the _left
// rows for LayoutLeft-like batches (batch index fastest).
template <Mode MODE, class T, class SET>
bool launch_table(const Batch<T>& p, cudaStream_t s) {
  const bool left = p.a_bs == 1;
  if constexpr (sizeof(T) == 8)
    return left ? launch_rows<MODE, T, SET::double_left>(p, s)
                : launch_rows<MODE, T, SET::double_right>(p, s);
  else
    return left ? launch_rows<MODE, T, SET::float_left>(p, s)
                : launch_rows<MODE, T, SET::float_right>(p, s);
}

// potrf or posv through the factorization table of the current device's
// architecture.
template <Mode MODE, class T>
bool launch_factor_table(const Batch<T>& p, cudaStream_t s) {
  return device_is_sm90() ? launch_table<MODE, T, Sm90Table>(p, s)
                          : launch_table<MODE, T, DefaultTable>(p, s);
}

}  // namespace batchol::cuda

#endif
