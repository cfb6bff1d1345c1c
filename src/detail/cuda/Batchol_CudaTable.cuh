// Which kernel runs which operation and order n. potrf and posv: the
// factorization table (Batchol_CudaFactorTable.cuh: on sm_90 the rows the
// tuning tool wrote, elsewhere a robust default), whose rows also say how
// posv solves (inside the kernel, or split into potrf and the solve
// tables' potrs). The solve-only modes (potrs, trsv): the solve tables, one for a single
// right-hand side, one for several and one for trsv, each naming per order
// the group kernel (lanes per matrix, Batchol_CudaGroupKernel.cuh) or a solve
// kernel (strided, staged or lane solve) with its shape; on sm_90 the rows
// the tuning tool wrote, each for batches near 10^4 and (...Big) for large
// ones, elsewhere the default below (one right-hand side and trsv share its
// rows).
//
// Each entry is an unrolled kernel, so every entry costs compile time in the
// translation unit that calls the Cuda path: BATCHOL_CUDA_MAX_N (default 128)
// trims the table, and larger n fall back to the Generic path.
#ifndef BATCHOL_CUDA_TABLE_CUH
#define BATCHOL_CUDA_TABLE_CUH

#include "Batchol_CudaFactorTable.cuh"
#include "Batchol_CudaGroupKernel.cuh"
#include "Batchol_CudaStridedSolve.cuh"

#include <array>
#include <cstddef>

namespace batchol::cuda {

// The solve tables of other architectures: the choices the tuning of
// 2026-11-21/22 made on the H100 before the tool wrote solve rows
// (tools/tuning/tune_solve.cu against the group kernels; results in
// perf_tests/results/h100-2026-11-22-table/). The group kernel holds the
// factor in registers: a thread per matrix to n = 8 (on LayoutRight two lanes
// at n = 7, 8, and 6 in double, each with half the triangle), then groups of
// lanes, rows cyclic over the group. The strided warp solve reads L where it
// lies: in double from n = 33 on LayoutRight and 49 on LayoutLeft; in float
// on LayoutRight from 49 (33 with several right-hand sides), on LayoutLeft
// only above 64 and, with several right-hand sides, at 49-56. One right-hand
// side: 4 steps of L read ahead; several: 4 per warp, 2 steps ahead. Since
// the twenty-fourth session, LayoutLeft with one right-hand side runs the lane
// solve above 64 instead (4 lanes per system, blocks of 8 rows, at least 16
// blocks per SM: the shape the sm_90 table takes most often there; it reads
// whole sectors on any architecture).
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
  constexpr void lane(int n_hi, int lanes) {
    FactorEntry e{n_hi, Kernel::Lane, 128, lanes, 1, 16, 0, 0};
    e.nb = 8;
    e.nr = 1;
    r[size++] = e;
  }
};
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
  std::array<FactorEntry, l.size> a{};
  for (std::size_t i = 0; i < l.size; ++i) a[i] = l.r[i];
  return a;
}
template <bool MANY>
struct DefaultSolveTable {
  static constexpr auto double_left = default_solve_rows<true, true, MANY>();
  static constexpr auto double_right = default_solve_rows<true, false, MANY>();
  static constexpr auto float_left = default_solve_rows<false, true, MANY>();
  static constexpr auto float_right = default_solve_rows<false, false, MANY>();
};

static_assert(valid_table_set<DefaultSolveTable<false>>() &&
              valid_table_set<DefaultSolveTable<true>>() && valid_table_set<Sm90SolveOne>() &&
              valid_table_set<Sm90SolveMany>() && valid_table_set<Sm90SolveTrsv>() &&
              valid_table_set<Sm90SolveOneBig>() && valid_table_set<Sm90SolveManyBig>() &&
              valid_table_set<Sm90SolveTrsvBig>());

// Whether the sm_90 solve tables' ...Big rows serve this batch. Those rows
// were chosen at the tuning sweep's large batch (>= 256 MB of A), the others
// at its batch of 10^4; a batch takes the ...Big rows when it is nearer the
// large one in log scale: batch^2 n^2 sizeof(T) >= 10^4 * 256 MB. Where a kernel needs
// many systems to fill the GPU (the lane solve at n = 24-40: 0.15 waves at
// batch 10^4) the two batches prefer different kernels (H100, twenty-fifth
// session, perf_tests/PERFLOG.md).
template <class T>
bool large_solve_batch(const Batch<T>& p) {
  const double b = double(p.batch) * double(p.n);
  return b * b * double(sizeof(T)) >= 1e4 * double(std::size_t(256) << 20);
}

// The solve-only modes through the default solve rows (other architectures
// than sm_90): trsv shares the one-right-hand-side rows.
template <Mode MODE, class T>
bool launch_default_solve(const Batch<T>& p, cudaStream_t stream) {
  if constexpr (MODE == Mode::TrsvN || MODE == Mode::TrsvT)
    return launch_table<MODE, T, DefaultSolveTable<false>>(p, stream);
  else
    return p.nrhs > 1 ? launch_table<MODE, T, DefaultSolveTable<true>>(p, stream)
                      : launch_table<MODE, T, DefaultSolveTable<false>>(p, stream);
}

// The solve-only modes through the solve tables of the current device's
// architecture: potrs through the table for one or for several right-hand
// sides, trsv through its own on sm_90 (timed for trsv, which reads L once
// where potrs reads it twice, so the two can prefer different kernels) and
// through the one-right-hand-side rows elsewhere; on sm_90 each in its
// ...Big form for large batches (large_solve_batch).
template <Mode MODE, class T>
bool launch_solve(const Batch<T>& p, cudaStream_t stream) {
  if (!device_is_sm90()) return launch_default_solve<MODE>(p, stream);
  const bool big = large_solve_batch(p);
  if constexpr (MODE == Mode::TrsvN || MODE == Mode::TrsvT) {
    return big ? launch_table<MODE, T, Sm90SolveTrsvBig>(p, stream)
               : launch_table<MODE, T, Sm90SolveTrsv>(p, stream);
  } else if (p.nrhs > 1) {
    return big ? launch_table<MODE, T, Sm90SolveManyBig>(p, stream)
               : launch_table<MODE, T, Sm90SolveMany>(p, stream);
  } else {
    return big ? launch_table<MODE, T, Sm90SolveOneBig>(p, stream)
               : launch_table<MODE, T, Sm90SolveOne>(p, stream);
  }
}

// Launches operation MODE on `stream` and returns true, or returns false when
// the table has no kernel for p.n (the caller then takes another path).
template <Mode MODE, class T>
bool launch_tuned(const Batch<T>& p, cudaStream_t stream) {
  const int n = p.n;
  if (n < 1 || n > BATCHOL_CUDA_MAX_N) return false;
  if constexpr (MODE == Mode::Potrf || MODE == Mode::Posv) {
    return launch_factor_table<MODE>(p, stream);
  } else {
    return launch_solve<MODE>(p, stream);
  }
}

// The table's entry points for one scalar type, one per mode. Batchol::batchol
// (CMake) defines BATCHOL_PRECOMPILED: they are then compiled once into the
// batchol_kernels library (src/kernels/cuda_entry.cpp.in, a translation unit
// per precision and entry point) and every other translation unit only
// declares them, which saves minutes of nvcc time per translation unit.
template <class T>
struct CudaKernels {
  static bool potrf(const Batch<T>& p, cudaStream_t stream);
  static bool posv(const Batch<T>& p, cudaStream_t stream);
  static bool potrs(const Batch<T>& p, cudaStream_t stream);
  static bool trsv_n(const Batch<T>& p, cudaStream_t stream);
  static bool trsv_t(const Batch<T>& p, cudaStream_t stream);
};

template <class T>
bool CudaKernels<T>::potrf(const Batch<T>& p, cudaStream_t stream) {
  return launch_tuned<Mode::Potrf>(p, stream);
}
template <class T>
bool CudaKernels<T>::posv(const Batch<T>& p, cudaStream_t stream) {
  return launch_tuned<Mode::Posv>(p, stream);
}
template <class T>
bool CudaKernels<T>::potrs(const Batch<T>& p, cudaStream_t stream) {
  return launch_tuned<Mode::Potrs>(p, stream);
}
template <class T>
bool CudaKernels<T>::trsv_n(const Batch<T>& p, cudaStream_t stream) {
  return launch_tuned<Mode::TrsvN>(p, stream);
}
template <class T>
bool CudaKernels<T>::trsv_t(const Batch<T>& p, cudaStream_t stream) {
  return launch_tuned<Mode::TrsvT>(p, stream);
}

#if defined(BATCHOL_PRECOMPILED)
extern template struct CudaKernels<float>;
extern template struct CudaKernels<double>;
#endif

// Operation MODE through the entry points (false: no kernel for p.n).
template <Mode MODE, class T>
bool launch_entry(const Batch<T>& p, cudaStream_t stream) {
  using K = CudaKernels<T>;
  if constexpr (MODE == Mode::Potrf) return K::potrf(p, stream);
  if constexpr (MODE == Mode::Posv) return K::posv(p, stream);
  if constexpr (MODE == Mode::Potrs) return K::potrs(p, stream);
  if constexpr (MODE == Mode::TrsvN) return K::trsv_n(p, stream);
  if constexpr (MODE == Mode::TrsvT) return K::trsv_t(p, stream);
}

}  // namespace batchol::cuda

#endif
