// The retry step of potrf_shifted: each team reads potrf's info for a chunk
// of matrices, writes shift 0 for those that succeeded and leaves when none
// failed, which is almost free after a batch that factored. A failed matrix
// is refactored from its original as A + delta I, delta growing by the
// policy, by its chunk's team on the Generic path's team kernel. Matrices
// that succeeded are not touched, so they keep the bits of the path that
// factored them. (Where the Cuda path's group and tile kernels factor, they
// retry the failures themselves and no such launch runs:
// cuda/Batchol_CudaShift.cuh.)
#ifndef BATCHOL_SHIFTED_HPP
#define BATCHOL_SHIFTED_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Generic.hpp>
#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_ShiftRule.hpp>
#include <detail/Batchol_Strided.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace batchol::detail::shifted {

// The most matrices one team scans: bounds the retries one team runs one
// after the other when many fail.
inline constexpr std::int64_t max_chunk = 256;

// Matrices per team for a batch of `batch` matrices of order n on exec: the
// batch spread over as many teams as exec runs at once (its concurrency over
// the team size), so that a batch in which every matrix fails keeps every
// team slot busy, and no more, so that a batch without failures costs about
// one wave of short teams.
template <class ExecSpace>
std::int64_t chunk_of(const ExecSpace& exec, std::int64_t batch, int n) {
  const std::int64_t slots =
      std::max<std::int64_t>(1, exec.concurrency() / generic::team_size<ExecSpace>(n, INT_MAX));
  return std::clamp<std::int64_t>(batch / slots, 1, max_chunk);
}

template <class ExecSpace, class T>
struct Retry {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  // From the first matrix of this launch: original.a the input matrices (read
  // only); factor.a the factors potrf wrote, its info, out the shifts, batch
  // the matrices of this launch.
  Problem<T> original;
  Problem<T> factor;
  Shift policy;
  std::int64_t chunk;  // matrices per team
  int scratch_level;

  // Matrix i failed in potrf with `info`: refactor it from A with growing
  // shifts.
  KOKKOS_INLINE_FUNCTION void rescue(const member_type& m, std::int64_t i, int info) const {
    // Every thread has read info_of(factor, i) before the team overwrites it.
    m.team_barrier();
    const int n = factor.n;
    const Strided<const T> a = as_const(matrix_of(original, i));
    const Strided<T> l = matrix_of(factor, i);
    // The diagonal's scale and the shifts are real (the diagonal's real part
    // for complex matrices, whose imaginary part potrf does not read).
    using R = real_t<T>;
    R scale = R(0);
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, n),
        [&](const int j, R& mx) { mx = scale_with(mx, real_part(a(j, j))); },
        Kokkos::Max<R>(scale));
    scale = shift_scale_of(scale);
    const work_view work(m.team_scratch(scratch_level), team_potrf_work_count(n));
    // L's columns from `first` on as those of A + shift I (A's own bits
    // where the shift is 0).
    auto copy_from_a = [&](const int first, const R shift) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, first, n), [&](const int r) {
        for (int c = first; c < r; ++c) l(r, c) = a(r, c);
        l(r, r) = shift == R(0) ? a(r, r) : a(r, r) + T(shift);
      });
      m.team_barrier();
    };
    // L from A + shift I, factored.
    auto attempt = [&](const R shift) {
      copy_from_a(0, shift);
      const int result = team_potrf(m, l, n, work.data(), factor.fast_math);
      if (result == 0 && factor.mirror) team_mirror(m, l, n);
      return result;
    };
    // With no tries L keeps potrf's result: the factor's columns before the
    // failing one, and A's from there on (a factorization out of place
    // stored only the former).
    if (policy.tries == 0) copy_from_a(info - 1, R(0));
    R delta = first_shift(policy.start, scale);
    for (int t = 0; t < policy.tries && info != 0; ++t, delta = next_shift(delta, policy.growth)) {
      info = attempt(delta);
      if (info == 0) break;
    }
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      info_of(factor, i) = info;
      out_of(factor, i) = info == 0 ? delta : R(-1);
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t first = m.league_rank() * chunk;
    const std::int64_t left = factor.batch - first;
    const int count = static_cast<int>(left < chunk ? left : chunk);
    // The threads share the scan; the sum reaches all of them, so the team
    // leaves together when nothing failed.
    int failed = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, count),
        [&](const int k, int& f) {
          if (info_of(factor, first + k) == 0)
            out_of(factor, first + k) = 0;
          else
            ++f;
        },
        failed);
    // The failures in order, every thread reading the same info.
    for (int k = 0; k < count && failed > 0; ++k) {
      const int info = info_of(factor, first + k);
      if (info == 0) continue;
      rescue(m, first + k, info);
      --failed;
    }
  }
};

template <class ExecSpace, class T>
void retry(const ExecSpace& exec, const Problem<T>& original, const Problem<T>& factor,
           const Shift& policy) {
  using F = Retry<ExecSpace, T>;
  const std::size_t bytes = F::work_view::shmem_size(team_potrf_work_count(factor.n));
  const std::int64_t chunk = chunk_of(exec, factor.batch, factor.n);
  // One "matrix" of launch_league is a chunk: its leagues stay within int.
  const std::int64_t chunks = (factor.batch + chunk - 1) / chunk;
  generic::launch_league(
      exec, "batchol::potrf_shifted", chunks, 1, bytes,
      [&](int max) { return generic::team_size<ExecSpace>(factor.n, max); },
      [&](std::int64_t offset, std::int64_t count, int level) {
        const std::int64_t first = offset * chunk;
        Problem<T> o = original, f = factor;
        o.a += first * o.a_bs;
        f.a += first * f.a_bs;
        f.info += first * f.info_s;
        f.out += first * f.out_s;
        f.batch = std::min(count * chunk, factor.batch - first);
        return F{o, f, policy, chunk, level};
      });
}

}  // namespace batchol::detail::shifted

#endif
