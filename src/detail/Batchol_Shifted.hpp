// The retry step of potrf_shifted: one team per matrix reads potrf's info;
// a failed matrix is refactored from its original as A + delta I, delta
// growing by the policy, on the Generic path's team kernel. Matrices that
// succeeded are not touched, so they keep the bits of the path that factored
// them.
#ifndef BATCHOL_SHIFTED_HPP
#define BATCHOL_SHIFTED_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Generic.hpp>
#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_Strided.hpp>

#include <cstdint>

namespace batchol::detail::shifted {

template <class ExecSpace, class T>
struct Retry {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Problem<T> original;  // a: the input matrices (read only)
  Problem<T> factor;    // a: the factors potrf wrote; info; out: the shift used
  Shift policy;
  int scratch_level;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = m.league_rank();
    const int n = factor.n;
    // Every thread reads info: the matrices that succeeded leave together.
    if (info_of(factor, i) == 0) {
      Kokkos::single(Kokkos::PerTeam(m), [&]() { out_of(factor, i) = T(0); });
      return;
    }
    const Strided<const T> a = as_const(matrix_of(original, i));
    const Strided<T> l = matrix_of(factor, i);
    T scale = T(0);
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, n),
        [&](const int j, T& mx) {
          const T d = a(j, j) < T(0) ? -a(j, j) : a(j, j);
          mx = (d > mx || d != d) ? d : mx;  // a NaN propagates: no shift rescues it
        },
        Kokkos::Max<T>(scale));
    if (!(scale > T(0))) scale = scale == scale ? T(1) : scale;
    const work_view work(m.team_scratch(scratch_level), team_potrf_work_count(n));
    T delta = T(policy.start) * scale;
    int info = info_of(factor, i);
    for (int t = 0; t < policy.tries && info != 0; ++t, delta *= T(policy.growth)) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int r) {
        for (int c = 0; c < r; ++c) l(r, c) = a(r, c);
        l(r, r) = a(r, r) + delta;
      });
      m.team_barrier();
      info = team_potrf(m, l, n, work.data());
      if (info == 0 && factor.mirror) team_mirror(m, l, n);
      if (info == 0) break;
    }
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      info_of(factor, i) = info;
      out_of(factor, i) = info == 0 ? delta : T(-1);
    });
  }
};

template <class ExecSpace, class T>
void retry(const ExecSpace& exec, const Problem<T>& original, const Problem<T>& factor,
           const Shift& policy) {
  using F = Retry<ExecSpace, T>;
  const std::size_t bytes = F::work_view::shmem_size(team_potrf_work_count(factor.n));
  generic::launch_teams(exec, "batchol::potrf_shifted", factor.batch, factor.n, bytes,
                        [&](std::int64_t offset, int level) {
                          Problem<T> o = original, f = factor;
                          o.a += offset * o.a_bs;
                          f.a += offset * f.a_bs;
                          f.info += offset * f.info_s;
                          f.out += offset * f.out_s;
                          return F{o, f, policy, level};
                        });
}

}  // namespace batchol::detail::shifted

#endif
