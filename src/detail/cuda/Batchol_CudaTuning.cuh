// The Cuda path's choices, in one place: which kernel serves each operation,
// order, precision and layout (the kernel tables), and which table serves a
// call (the device's architecture, the number of right-hand sides, the size
// of the batch). On sm_90 (H100/H200) the tables are the ones the tuning tool
// wrote (Batchol_CudaTable_sm90.inc, from the candidates' timings;
// docs/tuning.md says how they are regenerated); every other architecture
// gets the robust defaults below. Each row names a kernel instantiation:
// another kernel shape for some orders is another row, another size class
// another table and its test in launch_solve or launch_tuned. How a table is
// read is Batchol_CudaRows.cuh's business.
//
// Each row is an unrolled kernel, so every row costs compile time in the
// translation unit that compiles the Cuda path: BATCHOL_CUDA_MAX_N (default
// 512) trims the tables, and larger n take the Blocked path
// (Batchol_Dispatch.hpp).
//
// The tuned tables end at n = 128. Above, up to 512, potrf runs the rows of
// LargeTable (in double from n = 289 the large-matrix factorization of
// Batchol_CudaLarge.cuh), potrs and trsv those of LargeSolveTable (below),
// and posv is that potrf followed by that potrs (cuda::run). Above 512 the
// large-matrix factorization takes every batch in double and one float
// matrix, the large-matrix solves one matrix.
#ifndef BATCHOL_CUDA_TUNING_CUH
#define BATCHOL_CUDA_TUNING_CUH

#include "Batchol_CudaLarge.cuh"
#include "Batchol_CudaLargeFloat.cuh"
#include "Batchol_CudaLogdet.cuh"
#include "Batchol_CudaMirror.cuh"
#include "Batchol_CudaMixed.cuh"
#include "Batchol_CudaPotri.cuh"
#include "Batchol_CudaRows.cuh"

#include <array>
#include <cstddef>

namespace batchol::cuda {

// The order every tuned table ends at (valid_table checks it), and the one
// LargeTable ends at.
inline constexpr int table_max_n = 128;
inline constexpr int large_max_n = 512;

// The largest order of this build's tuned rows and of all its rows.
inline constexpr int tuned_max_n =
    BATCHOL_CUDA_MAX_N < table_max_n ? BATCHOL_CUDA_MAX_N : table_max_n;
inline constexpr int max_n = BATCHOL_CUDA_MAX_N < large_max_n ? BATCHOL_CUDA_MAX_N : large_max_n;
// The order from which batches of double matrices take the large-matrix
// factorization instead of LargeTable (large_batch_pays).
inline constexpr int large_batch_min_n = 289;

// Whether the tables have a kernel for order n (none for n = 0: an empty
// matrix needs no kernel, only its info, which the Generic path writes).
inline bool has_kernel(int n) {
  return n >= 1 && n <= max_n;
}

// Whether the large-matrix factorization beats LargeTable's rows on p: in
// double from n = 289, at every batch size, where the rows' register tiles
// give way to the panel kernel (H200, ns per matrix in a 256 MB batch /
// microseconds for one matrix, large-matrix against LargeTable, row-major:
// n = 320 1738 / 209 against 2932 / 281, n = 512 5539 / 313 against
// 8739 / 809). At n = 288 the two are even on large batches (1765 against
// 1858 row-major, 1849 against 1758 column-major) and the rows ahead for
// one matrix (253 against 218).
template <class T>
bool large_batch_pays(const Problem<T>& p) {
  return std::is_same_v<T, double> && p.n >= large_batch_min_n && large_serves(p);
}

// Whether the Cuda path takes operation OP on p: the tables' orders, potrf,
// potrs and posv of one large matrix, and potrf of a batch of large double
// matrices (Batchol_CudaLarge.cuh, Batchol_CudaLargeSolve.cuh,
// Batchol_CudaLargeFloat.cuh); potri up to potri_max_n
// (Batchol_CudaPotri.cuh), posv_mixed up to mixed_max_n
// (Batchol_CudaMixed.cuh).
template <Op OP, class T>
bool serves(const Problem<T>& p) {
  if constexpr (OP == Op::Potri) return p.n >= 1 && p.n <= potri_max_n;
  if constexpr (OP == Op::PosvMixed) {
    if constexpr (std::is_same_v<T, double>) return mixed_serves(p);
    return false;
  }
  constexpr bool large_op = OP == Op::Potrf || OP == Op::Posv || OP == Op::Potrs;
  // The large-matrix solves take one matrix: batches above max_n solve on
  // the Blocked path.
  const bool large =
      large_op && p.n > max_n && large_serves(p) && (OP == Op::Potrf || p.batch == 1);
  return has_kernel(p.n) || large;
}

// Whether potrf on p runs the large-matrix factorization (launch_tuned)
// rather than a kernel of the tables.
template <class T>
bool runs_large_potrf(const Problem<T>& p) {
  return p.n > max_n || large_batch_pays(p);
}

// Whether potrf on p runs a kernel of the tables (group, tile, panel), which
// read an out-of-place input (Problem::src) themselves; the large-matrix
// factorization factors in place.
template <class T>
bool takes_source(const Problem<T>& p) {
  return has_kernel(p.n) && !runs_large_potrf(p);
}

// ---- the factorization tables: potrf and posv ----------------------------------

#include "Batchol_CudaTable_sm90.inc"

// Other architectures: one shape that serves every order reasonably, as the
// paper's 16x4 block does for its kernel (Kurzak et al. 6.1): a thread per
// matrix up to n = 8 and groups of lanes up to 32 (registers hold the
// triangle), then the tile kernel with 8 x 8 threads padded to a multiple of
// 8, one matrix per block on LayoutRight and 4 on LayoutLeft (fuller 32-byte
// sectors), registers capped at 128 (MINB = 2) up to NP = 64 in double and 80
// in float; in double above 104, 16 x 16 threads, as 8 x 8 would need more
// than 255 registers per thread. On the H100 its potrf was within 1.25x of
// the sm_90 table's from n = 48 on and 1.8x at 40; at 25-32 the group of 16
// lanes was within 1.6x (posv 1.9x) where the sm_90 table takes 4 x 4 tiles
// or other groups.
// The paper's own default, its panel kernel with a 16 x 4 block, measured
// less robust here: with NB = 16 it was 1.0-2.1x the fastest candidate's
// potrf at n = 28-128 (batch 10^4, both precisions and layouts), these rows
// 1.0-1.8x.
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

// ---- rows written in code: the default solve rows and the rows above 128 -------

// A list of rows built one call per row (each sets a kernel's fields), and
// its first N rows as an array, the form the lookup takes.
struct RowList {
  std::array<FactorEntry, 32> r{};
  std::size_t size = 0;
  constexpr void group(int n_hi, int lanes, int warps = 4) {
    r[size++] = {n_hi, Kernel::Group, n_hi, lanes, warps, 0, 0, 0};
  }
  constexpr void strided(int n_hi, bool many) {
    FactorEntry e{n_hi, Kernel::Strided, (n_hi + 31) / 32 * 32, 32, 4, 0, 0, 0};
    e.ahead = many ? 2 : 4;
    e.nr = many ? 4 : 1;
    r[size++] = e;
  }
  constexpr void columns(int n_hi, int lanes) {
    r[size++] = {n_hi, Kernel::Columns, n_hi, lanes, 0, 0, 0, 0};
  }
  constexpr void lane(int n_hi, int lanes) {
    FactorEntry e{n_hi, Kernel::Lane, 128, lanes, 1, 16, 0, 0};
    e.nb = 8;
    e.nr = 1;
    r[size++] = e;
  }
  // Factorization rows for potrf only (posv above 128 never reads them).
  constexpr void tile(int n_hi, int minb) {
    r[size++] = {n_hi, Kernel::Tile, n_hi, 16, 0, minb, 1, 1, PosvSolve::Split};
  }
  constexpr void panel(int n_hi, int bx, int by, int nb, int minb) {
    r[size++] = {n_hi, Kernel::Panel, n_hi, bx, 0, minb, 1, 1, PosvSolve::Split, nb, by};
  }
};
template <std::size_t N>
constexpr std::array<FactorEntry, N> rows_of(const RowList& l) {
  std::array<FactorEntry, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = l.r[i];
  return a;
}

// ---- potrf above the tuned tables: n = 129 to 512 ---------------------------------

// Picked from one sweep of the tile and panel kernels' shapes (H200, batches
// of 256 MB, both layouts): the tile kernel with 16 x 16 threads while its
// registers hold the matrix (to n = 160 in double, 192 in float), then the
// panel kernel with NB = 32 columns per panel and 32 x 8 threads, 64 x 8
// (fewer registers per thread) from n = 352 in double and 480 in float, 64 x 4
// (two blocks per SM) where it measured faster. Each row is 1.2-4.4x faster
// than the Blocked path (double LayoutRight n = 256: 1208 ns against 2962).
// Every architecture takes these rows (they were not tuned per
// architecture). From n = 416 in double the panel kernel's shared memory
// (140 KB at 512) allows one block per SM, so a batch of a few hundred
// matrices runs in one or two partial waves.
constexpr RowList large_list(bool dbl, bool left) {
  RowList l;
  l.tile(144, 1);
  l.tile(160, 1);
  if (!dbl) l.tile(192, 1);
  if (dbl) l.panel(192, 32, 8, 32, 3);
  l.panel(224, 32, 8, 32, dbl && left ? 2 : 3);
  if (dbl)
    l.panel(256, 32, 8, 32, 2);
  else if (left)
    l.panel(256, 32, 8, 64, 1);
  else
    l.panel(256, 32, 16, 32, 2);
  l.panel(288, 32, 8, 32, 2);
  l.panel(320, 32, 8, 32, 2);
  for (int n = 352; n <= 480; n += 32) {
    if (dbl && n == 384 && !left)
      l.panel(n, 64, 4, 32, 2);
    else if (dbl || n == 480)
      l.panel(n, 64, 8, 32, 1);
    else
      l.panel(n, 32, 8, 32, 1);
  }
  if (dbl)
    l.panel(512, 64, 8, 32, 1);
  else
    l.panel(512, 64, 4, 32, 2);
  return l;
}
template <bool DBL, bool LEFT>
constexpr auto large_rows() {
  constexpr RowList l = large_list(DBL, LEFT);
  return rows_of<l.size>(l);
}
struct LargeTable {
  static constexpr auto double_left = large_rows<true, true>();
  static constexpr auto double_right = large_rows<true, false>();
  static constexpr auto float_left = large_rows<false, true>();
  static constexpr auto float_right = large_rows<false, false>();
};

// ---- the solve tables: potrs and trsv -------------------------------------------

// The solve tables of other architectures: the choices the tuning sweep made
// on the H100 before the tool wrote solve rows (tools/tuning/tune_solve.cu
// against the group kernels). The group kernel holds the factor in
// registers: a thread per matrix to n = 8 (on LayoutRight two lanes at n = 7,
// 8, and 6 in double, each with half the triangle), then groups of lanes,
// rows cyclic over the group. The strided warp solve reads L where it lies:
// in double from n = 33 on LayoutRight and 49 on LayoutLeft; in float on
// LayoutRight from 49 (33 with several right-hand sides), on LayoutLeft only
// above 64 and, with several right-hand sides, at 49-56. One right-hand
// side: 4 steps of L read ahead; several: 4 per warp, 2 steps ahead.
// LayoutLeft with one right-hand side runs the lane solve above 64 instead
// (4 lanes per system, blocks of 8 rows, at least 16 blocks per SM: the
// shape the sm_90 table takes most often there; it reads whole sectors on
// any architecture).
constexpr RowList default_solve_list(bool dbl, bool left, bool many) {
  RowList l;
  const int single = left ? 8 : dbl ? 5 : 6;
  for (int n = 1; n <= single; ++n) l.group(n, 1);
  if (!left) l.group(8, 2);
  l.group(12, 4);
  l.group(16, 4);
  l.group(24, 8);
  l.group(32, left ? 8 : 16);
  // Group rows above 32 up to `to`, then the strided solve.
  const int to = dbl ? (left ? 48 : 32) : left ? (many ? 48 : 64) : (many ? 32 : 48);
  if (to >= 48) l.group(48, 16);
  if (to == 64) l.group(64, 16);
  if (to < 64) {
    if (to < 48) l.strided(48, many);
    if (!dbl && left && many) {  // groups again at 57-64
      l.strided(56, many);
      l.group(64, 16);
    } else {
      l.strided(64, many);
    }
  }
  if (left && !many) {
    l.lane(128, 4);
  } else {
    l.strided(96, many);
    l.strided(128, many);
  }
  return l;
}
template <bool DBL, bool LEFT, bool MANY>
constexpr auto default_solve_rows() {
  constexpr RowList l = default_solve_list(DBL, LEFT, MANY);
  return rows_of<l.size>(l);
}
template <bool MANY>
struct DefaultSolveTable {
  static constexpr auto double_left = default_solve_rows<true, true, MANY>();
  static constexpr auto double_right = default_solve_rows<true, false, MANY>();
  static constexpr auto float_left = default_solve_rows<false, true, MANY>();
  static constexpr auto float_right = default_solve_rows<false, false, MANY>();
};

// ---- potrs with several right-hand sides at small orders ------------------------

// The column solve (a thread per right-hand side, eight lanes per system,
// four systems per warp) up to n = 32 on factors that are not interleaved
// (LayoutLeft-like batches keep the solve tables, whose group kernels read
// interleaved matrices at 80-95 % of the roofline), on every architecture.
// Each row pads to its own order. H200, batches of 256 MB, LayoutRight,
// eight right-hand sides: 0.39-0.65x the solve tables' time at n = 4-32
// (double 84-95 % of the roofline to n = 16). With two right-hand sides
// six of a system's eight lanes idle: in float still 0.65-0.97x, in double
// 0.85-0.96x to n = 8 but 1.17-1.18x at n = 12 and 32, so double systems
// with fewer than four right-hand sides above n = 8 keep the tables.
inline constexpr int column_max_n = 32;
constexpr RowList column_list() {
  RowList l;
  for (int n : {2, 4, 6, 8, 12, 16, 20, 24, 28, 32}) l.columns(n, 8);
  return l;
}
constexpr auto column_rows() {
  constexpr RowList l = column_list();
  return rows_of<l.size>(l);
}
struct ColumnSolveTable {
  static constexpr auto double_left = column_rows();
  static constexpr auto double_right = column_rows();
  static constexpr auto float_left = column_rows();
  static constexpr auto float_right = column_rows();
};

// Whether potrs on p runs the column solve.
template <class T>
bool column_solve_serves(const Problem<T>& p) {
  const bool enough_rhs = p.nrhs >= 4 || (p.nrhs >= 2 && (sizeof(T) == 4 || p.n <= 8));
  return enough_rhs && p.n <= column_max_n && p.a_bs != 1;
}

// ---- potrs and trsv above the tuned tables: the strided warp solve -----------

// One right-hand side (and trsv): 4 steps of L read ahead; several: 4 per
// warp, 2 ahead. Against the Blocked path's solve (H200, n = 256, batches of
// 256 MB, LayoutRight): 2.7x (double) and 5.0x (float) faster with one
// right-hand side, 3.7x and 5.7x with eight.
constexpr RowList large_solve_list(bool many) {
  RowList l;
  for (int n : {160, 192, 224, 256, 320, 384, 448, 512}) l.strided(n, many);
  return l;
}
template <bool MANY>
constexpr auto large_solve_rows() {
  constexpr RowList l = large_solve_list(MANY);
  return rows_of<l.size>(l);
}
template <bool MANY>
struct LargeSolveTable {
  static constexpr auto double_left = large_solve_rows<MANY>();
  static constexpr auto double_right = large_solve_rows<MANY>();
  static constexpr auto float_left = large_solve_rows<MANY>();
  static constexpr auto float_right = large_solve_rows<MANY>();
};

static_assert(valid_table_set<Sm90Table>(table_max_n) &&
              valid_table_set<DefaultTable>(table_max_n) &&
              valid_table_set<LargeTable>(large_max_n, table_max_n));
static_assert(valid_table_set<DefaultSolveTable<false>>(table_max_n) &&
              valid_table_set<DefaultSolveTable<true>>(table_max_n) &&
              valid_table_set<Sm90SolveOne>(table_max_n) &&
              valid_table_set<Sm90SolveMany>(table_max_n) &&
              valid_table_set<Sm90SolveTrsv>(table_max_n) &&
              valid_table_set<Sm90SolveOneBig>(table_max_n) &&
              valid_table_set<Sm90SolveManyBig>(table_max_n) &&
              valid_table_set<Sm90SolveTrsvBig>(table_max_n) &&
              valid_table_set<LargeSolveTable<false>>(large_max_n, table_max_n) &&
              valid_table_set<LargeSolveTable<true>>(large_max_n, table_max_n) &&
              valid_table_set<ColumnSolveTable>(column_max_n));

// ---- which table serves a call --------------------------------------------------

// Whether the current device runs the sm_90 tables (compute capability 9.x).
inline bool device_is_sm90() {
  return current_device().major == 9;
}

// Whether the sm_90 solve tables' ...Big rows serve this batch. Those rows
// were chosen at the tuning sweep's large batch (>= 256 MB of A), the others
// at its batch of 10^4; a batch takes the ...Big rows when it is nearer the
// large one in log scale: batch^2 n^2 sizeof(T) >= 10^4 * 256 MB. Where a
// kernel needs many systems to fill the GPU (the lane solve at n = 24-40:
// 0.15 waves at batch 10^4) the two batches prefer different kernels (H100).
template <class T>
bool large_solve_batch(const Problem<T>& p) {
  const double b = double(p.batch) * double(p.n);
  return b * b * double(sizeof(T)) >= 1e4 * double(std::size_t(256) << 20);
}

// The solves through the default solve rows (other architectures than
// sm_90): trsv shares the one-right-hand-side rows.
template <Op OP, class T>
Launch launch_default_solve(const Problem<T>& p, cudaStream_t stream) {
  if constexpr (OP == Op::TrsvN || OP == Op::TrsvT)
    return launch_table<OP, T, DefaultSolveTable<false>>(p, stream);
  else
    return p.nrhs > 1 ? launch_table<OP, T, DefaultSolveTable<true>>(p, stream)
                      : launch_table<OP, T, DefaultSolveTable<false>>(p, stream);
}

// The solves through the solve tables of the current device's architecture:
// potrs through the table for one or for several right-hand sides, trsv
// through its own on sm_90 (timed for trsv, which reads L once where potrs
// reads it twice, so the two can prefer different kernels) and through the
// one-right-hand-side rows elsewhere; on sm_90 each in its ...Big form for
// large batches (large_solve_batch); above n = 128 through LargeSolveTable.
template <Op OP, class T>
Launch launch_solve(const Problem<T>& p, cudaStream_t stream) {
  if (p.n > table_max_n) {
    constexpr bool trsv = OP == Op::TrsvN || OP == Op::TrsvT;
    return !trsv && p.nrhs > 1
               ? launch_table<OP, T, LargeSolveTable<true>, table_max_n>(p, stream)
               : launch_table<OP, T, LargeSolveTable<false>, table_max_n>(p, stream);
  }
  if constexpr (OP == Op::Potrs) {
    if (column_solve_serves(p)) return launch_table<OP, T, ColumnSolveTable>(p, stream);
  }
  if (!device_is_sm90()) return launch_default_solve<OP>(p, stream);
  const bool big = large_solve_batch(p);
  if constexpr (OP == Op::TrsvN || OP == Op::TrsvT) {
    return big ? launch_table<OP, T, Sm90SolveTrsvBig>(p, stream)
               : launch_table<OP, T, Sm90SolveTrsv>(p, stream);
  } else if (p.nrhs > 1) {
    return big ? launch_table<OP, T, Sm90SolveManyBig>(p, stream)
               : launch_table<OP, T, Sm90SolveMany>(p, stream);
  } else {
    return big ? launch_table<OP, T, Sm90SolveOneBig>(p, stream)
               : launch_table<OP, T, Sm90SolveOne>(p, stream);
  }
}

// Whether potrf on p runs a kernel that also retries potrf_shifted's
// failures itself (Problem::shift; rows_detail::retrying_row).
template <class T>
bool retries_in_kernel(const Problem<T>& p) {
  if (!takes_source(p) || p.n > table_max_n) return false;
  return device_is_sm90() ? retrying_row<T, Sm90Table>(p) : retrying_row<T, DefaultTable>(p);
}

// Operation OP on `stream` with the kernel the tables name for p: the
// factorizations through the factorization table of the device's
// architecture (potrf above it through LargeTable), the solves through
// launch_solve; potrf and potrs of one large matrix above the tables. A posv whose row splits it
// launches the factorization only (Launch::SolveNext: cuda::run then solves); posv above the tuned
// tables never comes here (cuda::run splits it itself). One compiled entry per operation and
// precision (Batchol_CudaRun.cuh).
template <Op OP, class T>
Launch launch_tuned(const Problem<T>& p, cudaStream_t stream) {
  if constexpr (OP == Op::Potrf) {
    if (runs_large_potrf(p)) {
      if (!large_serves(p) || p.src != nullptr || p.shift != nullptr) return Launch::NoKernel;
      large_potrf(p, stream);
      if (p.mirror) launch_mirror(p, stream);
      if (p.out != nullptr) launch_logdet(p, stream);
      return Launch::Done;
    }
    if (p.n > table_max_n) return launch_table<OP, T, LargeTable, table_max_n>(p, stream);
  }
  if constexpr (OP == Op::Potrs) {
    if (p.n > max_n) {
      if (!large_serves(p)) return Launch::NoKernel;
      large_potrs(p, stream);
      return Launch::Done;
    }
  }
  if constexpr (factors(OP)) {
    return device_is_sm90() ? launch_table<OP, T, Sm90Table>(p, stream)
                            : launch_table<OP, T, DefaultTable>(p, stream);
  } else {
    return launch_solve<OP>(p, stream);
  }
}

}  // namespace batchol::cuda

#endif
