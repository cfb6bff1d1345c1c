// The Blocked path's triangular solves (trsv, potrs, and posv's solve): one
// team per matrix and chunk of QC right-hand sides, by blocks of NB rows. For
// each block the team first subtracts what the solved rows contribute (a
// matrix-vector product over the whole row or column of L, each sum split
// over S threads and reduced in team scratch), then solves the NB x NB
// diagonal block, staged in scratch, with team_trsv. Against the Generic
// path's column-by-column sweep this reads L along its rows in both sweeps
// and waits at a few barriers per block instead of one per column.
#ifndef BATCHOL_BLOCKED_SOLVE_HPP
#define BATCHOL_BLOCKED_SOLVE_HPP

#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Strided.hpp>

#include <cstdint>

namespace batchol::detail::blocked {

inline constexpr int SB = 32;  // rows per block
inline constexpr int QC = 8;   // right-hand sides per team
inline constexpr int S = 8;    // threads per sum
inline constexpr int SLD = SB + 1;

template <class ExecSpace, class T>
struct Solve {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  // The diagonal block, the block of right-hand sides, the partial sums.
  static constexpr std::size_t scratch_count =
      std::size_t(SB) * SLD + std::size_t(SB) * QC + std::size_t(SB) * QC * S;

  Problem<T> pr;
  bool forward, backward;
  int chunks;  // teams per matrix
  std::int64_t offset;
  int level;  // of the team scratch

  // One sweep over the blocks: L y = b (forward) or L^T x = y.
  template <bool Forward>
  KOKKOS_INLINE_FUNCTION void sweep(const member_type& m, Strided<const T> l, Strided<T> b, int qc,
                                    T* ls, T* bs, T* red) const {
    const int n = pr.n, blocks = (n + SB - 1) / SB;
    for (int step = 0; step < blocks; ++step) {
      const int k0 = (Forward ? step : blocks - 1 - step) * SB, w = min_int(SB, n - k0);
      // Partial sums over the solved rows: forward, row k0 + r of L against
      // rows [0, k0) of b; backward, column k0 + r of L (a row of L^T)
      // against rows [k0 + w, n), read along the rows of L.
      const int items = w * qc * S;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, items), [&](const int t) {
        T v = T(0);
        if (Forward) {
          const int s = t % S, p = t / S, r = p / qc, q = p % qc;
          for (int k = s; k < k0; k += S) v += l(k0 + r, k) * b(k, q);
        } else {
          const int r = t % w, p = t / w, q = p % qc, s = p / qc;
          for (int k = k0 + w + s; k < n; k += S) v += l(k, k0 + r) * b(k, q);
        }
        red[t] = v;
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * w), [&](const int t) {
        const int r = t / w, c = t % w;
        if (c <= r) ls[r * SLD + c] = l(k0 + r, k0 + c);
      });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * qc), [&](const int p) {
        const int r = p / qc, q = p % qc;
        T v = b(k0 + r, q);
        for (int s = 0; s < S; ++s)
          v -= Forward ? red[(r * qc + q) * S + s] : red[(s * qc + q) * w + r];
        bs[r * QC + q] = v;
      });
      m.team_barrier();
      const Strided<const T> d{ls, SLD, 1};
      const Strided<T> x{bs, QC, 1};
      if (Forward)
        team_trsv(m, op_t<Op::TrsvN>{}, d, w, x, qc);
      else
        team_trsv(m, op_t<Op::TrsvT>{}, d, w, x, qc);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * qc), [&](const int p) {
        b(k0 + p / qc, p % qc) = bs[(p / qc) * QC + p % qc];
      });
      m.team_barrier();
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank() / chunks;
    if (pr.skip_failed && info_of(pr, i) != 0) return;
    const int q0 = (m.league_rank() % chunks) * QC, qc = min_int(QC, pr.nrhs - q0);
    const work_view scratch(m.team_scratch(level), std::size_t(scratch_count));
    T* const ls = scratch.data();
    T* const bs = ls + SB * SLD;
    T* const red = bs + SB * QC;
    const Strided<const T> l = as_const(matrix_of(pr, i));
    Strided<T> b = rhs_of(pr, i);
    b.p += q0 * b.cs;
    if (forward) sweep<true>(m, l, b, qc, ls, bs, red);
    if (backward) sweep<false>(m, l, b, qc, ls, bs, red);
  }
};

}  // namespace batchol::detail::blocked

#endif
