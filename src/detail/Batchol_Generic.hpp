// The Generic path: one Kokkos team per matrix on any execution space. It is
// the portable reference the specialized paths are tested against.
#ifndef BATCHOL_GENERIC_HPP
#define BATCHOL_GENERIC_HPP

#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_Problem.hpp>

#include <algorithm>
#include <cstdint>

namespace batchol::detail {

template <class ExecSpace, class T, class Op>
struct GenericFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Problem<T> pr;
  std::int64_t offset;  // first matrix of this launch
  int scratch_level;

  KOKKOS_INLINE_FUNCTION int factor(const member_type& m, std::int64_t i) const {
    const work_view work(m.team_scratch(scratch_level), team_potrf_work_count(pr.n));
    const int info = team_potrf(m, pr.matrix(i), pr.n, work.data());
    if (info == 0 && pr.mirror) team_mirror(m, pr.matrix(i), pr.n);
    return info;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank();
    if constexpr (std::is_same_v<Op, PotrfOp> || std::is_same_v<Op, PosvOp>) {
      const int info = factor(m, i);
      if constexpr (std::is_same_v<Op, PosvOp>) {
        if (info == 0) team_potrs(m, as_const(pr.matrix(i)), pr.n, pr.rhs(i), pr.nrhs);
      }
      Kokkos::single(Kokkos::PerTeam(m), [&]() { pr.info_at(i) = info; });
    } else if constexpr (std::is_same_v<Op, PotrsOp>) {
      team_potrs(m, as_const(pr.matrix(i)), pr.n, pr.rhs(i), pr.nrhs);
    } else if constexpr (std::is_same_v<Op, TrsvOp<NoTransposeTag>>) {
      team_trsv(m, NoTransposeTag{}, as_const(pr.matrix(i)), pr.n, pr.rhs(i), pr.nrhs);
    } else {
      static_assert(std::is_same_v<Op, TrsvOp<TransposeTag>>, "unknown operation tag");
      team_trsv(m, TransposeTag{}, as_const(pr.matrix(i)), pr.n, pr.rhs(i), pr.nrhs);
    }
  }
};

template <class ExecSpace>
inline constexpr bool is_host_exec_v =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// Host backends run a team on one thread anyway; on a GPU the rows of the
// matrix are spread over one or more warps.
template <class ExecSpace>
int generic_team_size(int n, int team_size_max) {
  if constexpr (is_host_exec_v<ExecSpace>) {
    return 1;
  } else {
    const int rounded = ((std::max(n, 1) + 31) / 32) * 32;
    return std::min({rounded, 256, team_size_max});
  }
}

template <class Op, class ExecSpace, class T>
void generic_launch(const ExecSpace& exec, const Problem<T>& pr) {
  using Functor = GenericFunctor<ExecSpace, T, Op>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  constexpr bool factors = std::is_same_v<Op, PotrfOp> || std::is_same_v<Op, PosvOp>;
  // Solves need no scratch (and a constant-zero comparison would warn).
  std::size_t work_bytes = 0;
  int level = 0;
  if constexpr (factors) {
    work_bytes = Functor::work_view::shmem_size(team_potrf_work_count(pr.n));
    level = work_bytes > std::size_t(Policy::scratch_size_max(0)) ? 1 : 0;
  }

  // A league holds at most INT_MAX teams; larger batches take several launches.
  constexpr std::int64_t max_league = std::int64_t(1) << 30;
  for (std::int64_t offset = 0; offset < pr.batch; offset += max_league) {
    const int league = static_cast<int>(std::min(pr.batch - offset, max_league));
    const Functor functor{pr, offset, level};
    Policy probe(exec, league, 1);
    probe.set_scratch_size(level, Kokkos::PerTeam(work_bytes));
    const int team =
        generic_team_size<ExecSpace>(pr.n, probe.team_size_max(functor, Kokkos::ParallelForTag()));
    Policy policy(exec, league, team);
    policy.set_scratch_size(level, Kokkos::PerTeam(work_bytes));
    Kokkos::parallel_for("batchol::generic", policy, functor);
  }
}

}  // namespace batchol::detail

#endif
