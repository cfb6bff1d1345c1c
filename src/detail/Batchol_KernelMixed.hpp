// Mixed-precision posv of one double system on one team, after LAPACK's
// dsposv: factor a float copy of A, solve in float, refine the solution with
// residuals computed in double, and fall back to a double factorization when
// the float route fails or does not converge. A is only read unless the
// fallback runs (it then holds the double factor, as after potrf).
#ifndef BATCHOL_KERNEL_MIXED_HPP
#define BATCHOL_KERNEL_MIXED_HPP

#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_MixedRule.hpp>

#include <cfloat>
#include <cstddef>

namespace batchol::detail {

// Team scratch of team_posv_mixed, in scalars of each type.
struct MixedWork {
  float* af;      // n x n: the float copy of A's triangle, then its factor
  float* fwork;   // team_potrf_work_count(n): the float factorization's panel
  double* dwork;  // team_potrf_work_count(n): the fallback's panel
  float* rf;      // n x nrhs: float right-hand sides and corrections
  double* b0;     // n x nrhs: the original B
  double* r;      // n x nrhs: the residual
};
KOKKOS_INLINE_FUNCTION constexpr std::size_t mixed_float_count(int n, int nrhs) {
  return std::size_t(n) * n + team_potrf_work_count(n) + std::size_t(n) * nrhs;
}
KOKKOS_INLINE_FUNCTION constexpr std::size_t mixed_double_count(int n, int nrhs) {
  return team_potrf_work_count(n) + 2 * std::size_t(n) * nrhs;
}

KOKKOS_INLINE_FUNCTION double abs_of(double x) {
  return x < 0 ? -x : x;
}

// A's row-sum norm from its lower triangle (dlansy('I')): the convergence
// test's scale.
template <class Member>
KOKKOS_INLINE_FUNCTION double team_sym_inf_norm(const Member& m, Strided<const double> a, int n) {
  double norm = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(m, n),
      [&](const int i, double& mx) {
        double s = 0;
        for (int c = 0; c <= i; ++c) s += abs_of(a(i, c));
        for (int r = i + 1; r < n; ++r) s += abs_of(a(r, i));
        // NaN propagates: a comparison with NaN is false.
        mx = (s > mx || s != s) ? s : mx;
      },
      Kokkos::Max<double>(norm));
  return norm;
}

// r = b0 - A x with A symmetric from its lower triangle; returns whether
// every column satisfies dsposv's test |r|_inf <= |x|_inf anrm eps sqrt(n).
template <class Member>
KOKKOS_INLINE_FUNCTION bool team_mixed_residual(const Member& m, Strided<const double> a, int n,
                                                Strided<const double> x, int nrhs, const double* b0,
                                                double* r, double cte) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int i) {
    for (int q = 0; q < nrhs; ++q) {
      double s = b0[i + std::ptrdiff_t(q) * n];
      for (int c = 0; c <= i; ++c) s -= a(i, c) * x(c, q);
      for (int c = i + 1; c < n; ++c) s -= a(c, i) * x(c, q);
      r[i + std::ptrdiff_t(q) * n] = s;
    }
  });
  m.team_barrier();
  int bad = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(m, nrhs),
      [&](const int q, int& count) {
        double xn = 0, rn = 0;
        for (int i = 0; i < n; ++i) {
          const double xi = abs_of(x(i, q));
          xn = xi > xn ? xi : xn;
          const double ri = abs_of(r[i + std::ptrdiff_t(q) * n]);
          rn = (ri > rn || ri != ri) ? ri : rn;
        }
        count += (rn <= xn * cte) ? 0 : 1;  // false for NaN
      },
      bad);
  return bad == 0;
}

// The system A X = B of one team: B (n x nrhs) is overwritten by X. Returns
// the double factorization's info on the fallback (0 when the float route
// converges) and writes the refinement steps taken, or a negative fallback
// code, to iter. A failed fallback leaves B unchanged, as posv does.
template <class Member>
KOKKOS_INLINE_FUNCTION int team_posv_mixed(const Member& m, Strided<double> a, int n,
                                           Strided<double> b, int nrhs, const MixedWork& w,
                                           int& iter) {
  iter = 0;
  if (n == 0) return 0;
  const Strided<float> af{w.af, 1, n};
  const Strided<float> rf{w.rf, 1, n};
  const Strided<const double> ac = as_const(a);
  // The float copies of A and B, and B saved for the residuals.
  int overflow = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(m, n),
      [&](const int i, int& count) {
        for (int c = 0; c <= i; ++c) {
          const double v = a(i, c);
          count += fits_float(v) ? 0 : 1;
          af(i, c) = float(v);
        }
        for (int q = 0; q < nrhs; ++q) {
          const double v = b(i, q);
          count += fits_float(v) ? 0 : 1;
          w.b0[i + std::ptrdiff_t(q) * n] = v;
          rf(i, q) = float(v);
        }
      },
      overflow);
  const double cte = team_sym_inf_norm(m, ac, n) * DBL_EPSILON / 2 * detail::sqrt(double(n));
  iter = mixed_fallback_overflow;
  if (overflow == 0) {
    iter = mixed_fallback_factor;
    if (team_potrf(m, af, n, w.fwork) == 0) {
      // x = float solve of b; then refine with double residuals.
      team_potrs(m, as_const(af), n, rf, nrhs);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int i) {
        for (int q = 0; q < nrhs; ++q) b(i, q) = double(rf(i, q));
      });
      m.team_barrier();
      iter = mixed_fallback_diverged;
      for (int it = 0; it <= mixed_max_iterations; ++it) {
        if (team_mixed_residual(m, ac, n, as_const(b), nrhs, w.b0, w.r, cte)) {
          iter = it;
          break;
        }
        if (it == mixed_max_iterations) break;
        int big = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(m, n),
            [&](const int i, int& count) {
              for (int q = 0; q < nrhs; ++q) {
                const double v = w.r[i + std::ptrdiff_t(q) * n];
                count += fits_float(v) ? 0 : 1;
                rf(i, q) = float(v);
              }
            },
            big);
        if (big != 0) {
          iter = mixed_fallback_overflow;
          break;
        }
        team_potrs(m, as_const(af), n, rf, nrhs);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int i) {
          for (int q = 0; q < nrhs; ++q) b(i, q) += double(rf(i, q));
        });
        m.team_barrier();
      }
    }
  }
  if (iter >= 0) return 0;
  // The fallback: posv in double on the original B.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int i) {
    for (int q = 0; q < nrhs; ++q) b(i, q) = w.b0[i + std::ptrdiff_t(q) * n];
  });
  m.team_barrier();
  const int info = team_potrf(m, a, n, w.dwork);
  if (info == 0) team_potrs(m, ac, n, b, nrhs);
  return info;
}

}  // namespace batchol::detail

#endif
