// Which kernel runs which operation and order n. potrf and posv: the
// factorization table (Batchol_CudaFactorTable.cuh: on sm_90 the rows the
// tuning tool wrote, elsewhere a robust default), with posv above n = 64 (on
// LayoutRight above 48) split into that potrf and the strided solve. The
// solve-only modes (potrs, trsv): the group kernel (lanes per matrix,
// Batchol_CudaGroupKernel.cuh) for small n, and a warp per right-hand side
// (Batchol_CudaStridedSolve.cuh) above n = 64 and, where perf_tests/cuda/
// tune_solve.cu measured it faster, above 32.
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

// Whether the strided warp solve beats the group kernel for a solve-only mode
// at 32 < n <= 64 (perf_tests/cuda/tune_solve.cu, which times both; H100,
// batch 10^4, potrs with 1 and 8 right-hand sides, n = 40..64; results in
// perf_tests/results/h100-2026-11-22-table/). In double it wins above 48 by
// 1.3-2.5x in both layouts and from 40 on LayoutRight by 1.1-1.2x; in float
// on LayoutRight above 48 (1.1-2.2x) and with several right-hand sides from
// 40 (1.0-1.2x); on LayoutLeft in float the group kernel is faster except
// with several right-hand sides at 48 < n <= 56 (1.1-1.2x).
template <class T>
constexpr bool strided_solve_wins(int n, bool left, int nrhs) {
  if constexpr (sizeof(T) == 8) {
    return n > 48 || !left;
  } else {
    if (left) return nrhs > 1 && n > 48 && n <= 56;
    return n > 48 || nrhs > 1;
  }
}

// posv as the factorization table's potrf followed by the strided warp solve, which
// skips the systems whose factorization failed (their info is set by then):
// above n = 64, and on LayoutRight above 48, the fused kernel (one warp of the
// block solving while the others wait, every register still held) measured
// slower than the two launches (H100, batch 10^4, double, one right-hand side:
// n = 64 LayoutRight 65 against 25.6 + 13.8 ns, n = 100 225 against 105 + 32
// ns; float n = 100 LayoutRight 146 against 69 + 26; LayoutLeft at n = 64
// the fused kernel was ahead). False where the table does not split.
// (perf_tests/cuda/make_table.py's `posv_splits` mirrors the condition.)
template <class T>
bool launch_posv_split(const Batch<T>& p, cudaStream_t stream) {
  if (!(p.n > 64 || (p.n > 48 && p.a_bs != 1))) return false;
  if (!launch_factor_table<Mode::Potrf>(p, stream)) return false;
  launch_strided_tuned<Mode::Potrs>(p, stream, true);
  return true;
}

// The group kernels of the solve-only modes (n <= 64, where the strided solve
// does not win), as rows: the shapes the factorization tuning of 2026-11-21
// preferred for potrf (tune.cu times the solves with the fastest potrf
// candidate only), per precision and whether rows are contiguous (`rows`,
// LayoutRight: the kernels stage loads through shared memory, which favours
// wider groups at some sizes). A thread per matrix while the triangle fits in
// registers, except that with rows contiguous n = 7, 8 (and 6 in double) take
// two lanes per matrix, each with half the triangle (tuning, large batch,
// potrf: H100 47 against 33-35 % of the roofline at n = 8, 56 against 40 % at
// n = 6 in double; H200 46 against 35 % at n = 8; cuda_tune_h{100,200}.json
// of 2026-11-21); then groups of lanes, rows cyclic over the group. In double
// a group of 16 at n = 64 would need more than 255 registers.
template <std::size_t N>
constexpr std::array<FactorEntry, N> solve_rows(bool dbl, bool rows) {
  std::array<FactorEntry, N> r{};
  std::size_t i = 0;
  const int single = !rows ? 8 : dbl ? 5 : 6;
  for (int n = 1; n <= single; ++n) r[i++] = {n, Kernel::Group, n, 1, 4, 0, 0, 0};
  if (rows) r[i++] = {8, Kernel::Group, 8, 2, 4, 0, 0, 0};
  r[i++] = {12, Kernel::Group, 12, 4, 4, 0, 0, 0};
  r[i++] = {16, Kernel::Group, 16, 4, 4, 0, 0, 0};
  r[i++] = {24, Kernel::Group, 24, 8, 4, 0, 0, 0};
  r[i++] = {32, Kernel::Group, 32, rows ? 16 : 8, 4, 0, 0, 0};
  r[i++] = {48, Kernel::Group, 48, 16, 4, 0, 0, 0};
  r[i++] = !dbl && !rows ? FactorEntry{64, Kernel::Group, 64, 16, 4, 0, 0, 0}
                         : FactorEntry{64, Kernel::Group, 64, 32, 2, 0, 0, 0};
  return r;
}
struct SolveTable {
  static constexpr auto double_rows = solve_rows<12>(true, true);
  static constexpr auto double_other = solve_rows<14>(true, false);
  static constexpr auto float_rows = solve_rows<13>(false, true);
  static constexpr auto float_other = solve_rows<14>(false, false);
};
static_assert(valid_table(SolveTable::double_rows, 64) &&
              valid_table(SolveTable::double_other, 64) &&
              valid_table(SolveTable::float_rows, 64) && valid_table(SolveTable::float_other, 64));

// The solve-only modes (potrs, trsv): the strided warp solve above n = 64 and
// wherever the tuning measured it faster from 33 (strided_solve_wins), else
// the group kernel that holds the factor in registers (SolveTable).
template <Mode MODE, class T>
bool launch_solve(const Batch<T>& p, cudaStream_t stream) {
  const int n = p.n;
  if (n > 64 || (n > 32 && strided_solve_wins<T>(n, p.a_bs == 1, p.nrhs))) {
    launch_strided_tuned<MODE>(p, stream);
    return true;
  }
  const bool rows = p.a_cs == 1;
  if constexpr (sizeof(T) == 8)
    return rows ? launch_rows<MODE, T, SolveTable::double_rows>(p, stream)
                : launch_rows<MODE, T, SolveTable::double_other>(p, stream);
  else
    return rows ? launch_rows<MODE, T, SolveTable::float_rows>(p, stream)
                : launch_rows<MODE, T, SolveTable::float_other>(p, stream);
}

// Launches operation MODE on `stream` and returns true, or returns false when
// the table has no kernel for p.n (the caller then takes another path).
template <Mode MODE, class T>
bool launch_tuned(const Batch<T>& p, cudaStream_t stream) {
  const int n = p.n;
  if (n < 1 || n > BATCHOL_CUDA_MAX_N) return false;
  if constexpr (MODE == Mode::Potrf || MODE == Mode::Posv) {
    if constexpr (MODE == Mode::Posv) {
      if (launch_posv_split(p, stream)) return true;
    }
    return launch_factor_table<MODE>(p, stream);
  } else {
    return launch_solve<MODE>(p, stream);
  }
}

// The table's entry points for one scalar type, one per mode. Batchol::batchol
// (CMake) defines BATCHOL_PRECOMPILED: they are then compiled once into the
// batchol_kernels library (src/kernels/) and every other translation unit only
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
