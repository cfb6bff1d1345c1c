// The Generic path: one Kokkos team per matrix on any execution space (logdet,
// n logarithms per matrix, one thread per matrix). It is the portable
// reference the specialized paths are tested against, and it runs what the
// Cuda path's tables have no kernel for (Batchol_Dispatch.hpp).
// It always computes exactly; Options::fast_math only makes a subnormal
// pivot fail, as on the paths that flush it.
#ifndef BATCHOL_GENERIC_HPP
#define BATCHOL_GENERIC_HPP

#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_KernelMixed.hpp>
#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace batchol::detail::generic {

// VARIABLE: a variable-size batch (Problem::orders), each matrix factored or
// solved at its own order; only the operations the specialized paths have.
template <class ExecSpace, class T, Op OP, bool VARIABLE = false>
struct Functor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Problem<T> pr;
  std::int64_t offset;  // first matrix of this launch
  int scratch_level;

  KOKKOS_INLINE_FUNCTION int factor(const member_type& m, Strided<T> a, int n) const {
    const work_view work(m.team_scratch(scratch_level), team_potrf_work_count(n));
    const int info = team_potrf(m, a, n, work.data(), pr.fast_math);
    if (info == 0 && pr.mirror) team_mirror(m, a, n);
    return info;
  }

  // Matrix i of a variable-size batch, at its own order once its description
  // passed the check (every thread reads the same values: a team whose matrix
  // is invalid leaves together, its right-hand sides untouched).
  KOKKOS_INLINE_FUNCTION void variable(const member_type& m, std::int64_t i) const {
    static_assert(specialized(OP), "variable-size batches take potrf, posv, potrs and trsv");
    const int n = order_of(pr, i);
    const int bad = var_check(pr, i, n, has_rhs(OP));
    if (bad != 0) {
      if constexpr (factors(OP))
        Kokkos::single(Kokkos::PerTeam(m), [&]() { info_of(pr, i) = bad; });
      return;
    }
    const Strided<T> a = matrix_of(pr, i, n);
    if constexpr (factors(OP)) {
      const int info = factor(m, a, n);
      if constexpr (OP == Op::Posv) {
        if (info == 0) team_potrs(m, as_const(a), n, rhs_of(pr, i, n), pr.nrhs, pr.conj);
      }
      Kokkos::single(Kokkos::PerTeam(m), [&]() { info_of(pr, i) = info; });
    } else if constexpr (OP == Op::Potrs) {
      team_potrs(m, as_const(a), n, rhs_of(pr, i, n), pr.nrhs, pr.conj);
    } else {
      team_trsv(m, op_t<OP>{}, as_const(a), n, rhs_of(pr, i, n), pr.nrhs, pr.conj);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank();
    if constexpr (VARIABLE) {
      variable(m, i);
    } else if constexpr (OP == Op::Potrf || OP == Op::Posv) {
      const int info = factor(m, matrix_of(pr, i), pr.n);
      if constexpr (OP == Op::Posv) {
        if (info == 0)
          team_potrs(m, as_const(matrix_of(pr, i)), pr.n, rhs_of(pr, i), pr.nrhs, pr.conj);
      }
      Kokkos::single(Kokkos::PerTeam(m), [&]() { info_of(pr, i) = info; });
    } else if constexpr (OP == Op::Potrs) {
      team_potrs(m, as_const(matrix_of(pr, i)), pr.n, rhs_of(pr, i), pr.nrhs, pr.conj);
    } else if constexpr (OP == Op::Potri) {
      const work_view work(m.team_scratch(scratch_level), team_potri_work_count(pr.n));
      const int info = team_potri(m, matrix_of(pr, i), pr.n, work.data());
      if (info == 0 && pr.mirror) team_mirror(m, matrix_of(pr, i), pr.n);
      Kokkos::single(Kokkos::PerTeam(m), [&]() { info_of(pr, i) = info; });
    } else if constexpr (OP == Op::PosvMixed) {
      static_assert(std::is_same_v<T, double>, "posv_mixed solves double systems");
      using space = typename ExecSpace::scratch_memory_space;
      using fview = Kokkos::View<float*, space, Kokkos::MemoryUnmanaged>;
      using dview = Kokkos::View<double*, space, Kokkos::MemoryUnmanaged>;
      const int n = pr.n, nrhs = pr.nrhs;
      const std::size_t nn = std::size_t(n) * n, nb = std::size_t(n) * nrhs;
      const std::size_t pw = team_potrf_work_count(n);
      const fview fs(m.team_scratch(scratch_level), mixed_float_count(n, nrhs));
      const dview ds(m.team_scratch(scratch_level), mixed_double_count(n, nrhs));
      const MixedWork w{fs.data(),           fs.data() + nn, ds.data(),
                        fs.data() + nn + pw, ds.data() + pw, ds.data() + pw + nb};
      int iter = 0;
      const int info = team_posv_mixed(m, matrix_of(pr, i), n, rhs_of(pr, i), nrhs, w, iter);
      Kokkos::single(Kokkos::PerTeam(m), [&]() {
        info_of(pr, i) = info;
        pr.iter[i * pr.iter_s] = iter;
      });
    } else if constexpr (OP == Op::TrsvN) {
      team_trsv(m, op_t<Op::TrsvN>{}, as_const(matrix_of(pr, i)), pr.n, rhs_of(pr, i), pr.nrhs,
                pr.conj);
    } else {
      static_assert(OP == Op::TrsvT, "an operation the Generic path does not implement");
      team_trsv(m, op_t<Op::TrsvT>{}, as_const(matrix_of(pr, i)), pr.n, rhs_of(pr, i), pr.nrhs,
                pr.conj);
    }
  }
};

// logdet, one thread per matrix: a team would spend more on its launch and
// its reduction than on the n logarithms. The sum runs in serial_logdet's
// order, j ascending.
template <class T>
struct Logdet {
  Problem<T> pr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out_of(pr, i) = info_of(pr, i) != 0 ? quiet_nan<real_t<T>>()
                                        : serial_logdet(as_const(matrix_of(pr, i)), pr.n);
  }
};

template <class ExecSpace>
inline constexpr bool is_host_exec_v =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// Host backends run a team on one thread anyway; on a GPU the rows of the
// matrix are spread over one or more warps.
template <class ExecSpace>
int team_size(int n, int team_size_max) {
  if constexpr (is_host_exec_v<ExecSpace>) {
    return 1;
  } else {
    const int rounded = ((std::max(n, 1) + 31) / 32) * 32;
    return std::min({rounded, 256, team_size_max});
  }
}

// teams_per_matrix teams for each of `batch` matrices, each team with
// work_bytes of scratch (level 0 when it fits, else level 1) and
// team_of(team_size_max) threads: make(offset, count, level) builds the
// functor for the count matrices from offset on. A league holds at most 2^30
// teams; larger batches take several launches.
template <class ExecSpace, class TeamOf, class Make>
void launch_league(const ExecSpace& exec, const char* name, std::int64_t batch,
                   int teams_per_matrix, std::size_t work_bytes, const TeamOf& team_of,
                   const Make& make) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const int level = work_bytes > std::size_t(Policy::scratch_size_max(0)) ? 1 : 0;
  const std::int64_t per_launch = (std::int64_t(1) << 30) / teams_per_matrix;
  for (std::int64_t offset = 0; offset < batch; offset += per_launch) {
    const std::int64_t count = std::min(batch - offset, per_launch);
    const int league = static_cast<int>(count * teams_per_matrix);
    const auto functor = make(offset, count, level);
    Policy probe(exec, league, 1);
    probe.set_scratch_size(level, Kokkos::PerTeam(work_bytes));
    auto policy = light_weight(
        Policy(exec, league, team_of(probe.team_size_max(functor, Kokkos::ParallelForTag()))));
    policy.set_scratch_size(level, Kokkos::PerTeam(work_bytes));
    Kokkos::parallel_for(name, policy, functor);
  }
}

// One team per matrix of order n (team_size threads): make(offset, level)
// builds the functor for the matrices from offset on.
template <class ExecSpace, class Make>
void launch_teams(const ExecSpace& exec, const char* name, std::int64_t batch, int n,
                  std::size_t work_bytes, const Make& make) {
  launch_league(
      exec, name, batch, 1, work_bytes, [&](int max) { return team_size<ExecSpace>(n, max); },
      [&](std::int64_t offset, std::int64_t, int level) { return make(offset, level); });
}

// Operation OP on one team per matrix of pr (VARIABLE: pr is a variable-size
// batch, pr.n its largest order).
template <Op OP, bool VARIABLE, class ExecSpace, class T>
void run_teams(const ExecSpace& exec, const Problem<T>& pr) {
  using F = Functor<ExecSpace, T, OP, VARIABLE>;
  // Solves need no scratch.
  std::size_t work_bytes = 0;
  if constexpr (factors(OP) || OP == Op::Potri) {
    work_bytes = F::work_view::shmem_size(factors(OP) ? team_potrf_work_count(pr.n)
                                                      : team_potri_work_count(pr.n));
  } else if constexpr (OP == Op::PosvMixed) {
    using space = typename ExecSpace::scratch_memory_space;
    work_bytes = Kokkos::View<float*, space>::shmem_size(mixed_float_count(pr.n, pr.nrhs)) +
                 Kokkos::View<double*, space>::shmem_size(mixed_double_count(pr.n, pr.nrhs));
  }
  launch_teams(exec, "batchol::generic", pr.batch, pr.n, work_bytes,
               [&](std::int64_t offset, int level) {
                 return F{pr, offset, level};
               });
}

// The Generic path's entry: operation OP on every matrix of pr, on exec
// (VARIABLE: pr is a variable-size batch, pr.n its largest order).
template <Op OP, bool VARIABLE = false, class ExecSpace, class T>
void run(const ExecSpace& exec, const Problem<T>& pr) {
  if constexpr (OP == Op::Logdet) {
    static_assert(!VARIABLE, "variable-size batches take potrf, posv, potrs and trsv");
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
    Kokkos::parallel_for("batchol::generic", light_weight(Policy(exec, 0, pr.batch)),
                         Logdet<T>{pr});
  } else {
    run_teams<OP, VARIABLE>(exec, pr);
  }
}

}  // namespace batchol::detail::generic

#endif
