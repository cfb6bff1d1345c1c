// Is a result right? Backward errors computed on the host from the canonical
// data: ||A - F|| / ||A|| for a factorization F reconstructed from whatever
// storage the implementation writes, ||op(M) x - b|| / (||M|| ||x|| + ||b||)
// for a solve. Both are bounded by c n eps for a backward-stable algorithm.
#ifndef BATCHOL_BENCH_CHECK_HPP
#define BATCHOL_BENCH_CHECK_HPP

#include <bench_data.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace bench {

// How an implementation leaves the factor of a potrf in A.
enum class FactorKind {
  CholLower,   // L in the lower triangle (LAPACK, Batchol)
  CholUpper,   // L^T in the upper triangle: L(i,k) at (k, i) (Batchol with Uplo::Upper,
               // cuSOLVER's lower mode on a row-major matrix)
  LU,          // unit-lower L and upper U of an unpivoted LU (KokkosBatched LU)
  LUColMajor,  // the same, computed column-major on a row-major (LayoutRight) matrix:
               // L(i,k) at (k, i), U(k,j) at (j, k) (cuBLAS getrfBatched)
  BandLower    // LAPACK lower band storage, kd = n-1, column-major inside each
               // matrix's n*n block: L(i,k) at array index (k, i-k)
};

template <class T, class Layout>
using HostMat = Kokkos::View<T***, Layout, Kokkos::HostSpace>;

template <class T>
double tolerance(int n) {
  return 64.0 * std::max(n, 1) * std::numeric_limits<T>::epsilon();
}

// Matrices to check: all of them, or an evenly spread sample (first and last
// included) whose check costs about `budget` flops. A check costs about n^3
// (the factor) or n^2 per right-hand side (a solve): n^2 max(n, nrhs).
inline std::vector<std::int64_t> sample_indices(std::int64_t batch, int n, int nrhs,
                                                double budget) {
  const double per = std::max(1.0, double(n) * n * std::max(n, nrhs));
  const double affordable = budget / per;  // may be infinite: check everything
  const std::int64_t want = affordable >= double(batch)
                                ? batch
                                : std::max<std::int64_t>(8, static_cast<std::int64_t>(affordable));
  std::vector<std::int64_t> idx;
  if (want >= batch) {
    for (std::int64_t b = 0; b < batch; ++b) idx.push_back(b);
  } else {
    for (std::int64_t k = 0; k < want; ++k) idx.push_back(k * (batch - 1) / (want - 1));
  }
  return idx;
}

// `want` of the indices 0..count-1, evenly spread, first and last included
// (all of them where want >= count).
inline std::vector<int> spread(int count, int want) {
  std::vector<int> idx;
  if (want >= count || count <= 1) {
    for (int i = 0; i < count; ++i) idx.push_back(i);
  } else {
    want = std::max(want, 2);
    for (int k = 0; k < want; ++k) idx.push_back(int(std::int64_t(k) * (count - 1) / (want - 1)));
  }
  return idx;
}

// Rows of a factor to check: all of them up to n = 1024, above that (a full
// check costs n^3 / 6 per matrix: minutes at n = 8192) 48 evenly spread rows.
// A wrong element L(r, c) still shows: it enters (L L^T)(i, r) for every
// checked row i >= r.
inline std::vector<int> factor_rows(int n) {
  return spread(n, n <= 1024 ? n : 48);
}

// Right-hand sides of a solve to check: as many as about 4e9 multiply-adds
// allow (n^2 each), at least 8.
inline std::vector<int> solve_columns(int n, int nrhs) {
  const double per = std::max(1.0, double(n) * n);
  return spread(nrhs, int(std::min<double>(nrhs, std::max(8.0, 4e9 / per))));
}

template <class T, class Layout>
double factor_error(const HostMat<T, Layout>& A0, const HostMat<T, Layout>& F, FactorKind kind,
                    std::int64_t b, int n) {
  const bool lu = kind == FactorKind::LU || kind == FactorKind::LUColMajor;
  const auto at = [&](int r, int c) -> double {
    return kind == FactorKind::LUColMajor ? F(b, c, r) : F(b, r, c);
  };
  const auto L = [&](int i, int k) -> double {  // i >= k
    if (kind == FactorKind::BandLower) return F(b, k, i - k);
    if (kind == FactorKind::CholUpper) return F(b, k, i);
    if (lu) return i == k ? 1.0 : at(i, k);
    return F(b, i, k);
  };
  double err = 0, norm = 0;
  const std::vector<int> rows = factor_rows(n);
  for (const int i : rows)
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      if (lu) {
        for (int k = 0; k <= j; ++k) s += L(i, k) * at(k, j);  // (L U)(i, j)
      } else {
        for (int k = 0; k <= j; ++k) s += L(i, k) * L(j, k);  // (L L^T)(i, j)
      }
      err = std::max(err, std::abs(s - double(A0(b, i, j))));
      norm = std::max(norm, std::abs(double(A0(b, i, j))));
    }
  if (lu)  // the upper triangle of L U must match too
    for (const int i : rows)
      for (int j = i + 1; j < n; ++j) {
        double s = 0;
        for (int k = 0; k <= i; ++k) s += L(i, k) * at(k, j);
        err = std::max(err, std::abs(s - double(A0(b, i, j))));
      }
  return std::isfinite(err) ? err / std::max(norm, 1e-300) : HUGE_VAL;
}

// M is A0 (potrs, posv: the full matrix) or F0 (trsv: triangle c.uplo, op c.trans).
template <class T, class Layout>
double solve_error(const Case& c, const HostMat<T, Layout>& M, const HostMat<T, Layout>& X,
                   const HostMat<T, Layout>& B0, std::int64_t b) {
  const int n = c.n;
  const bool tri = c.routine == Routine::Trsv;
  const bool lower = c.uplo == batchol::Uplo::Lower;
  const bool trans = c.trans == batchol::Trans::Transpose;
  const auto op = [&](int i, int j) -> double {  // op(M)(i, j)
    if (!tri) return M(b, i, j);
    const int r = trans ? j : i, k = trans ? i : j;  // element (r, k) of the triangle
    const bool inside = lower ? k <= r : k >= r;
    return inside ? double(M(b, r, k)) : 0.0;
  };
  double worst = 0;
  for (const int q : solve_columns(n, c.nrhs)) {
    double rmax = 0, mnorm = 0, xmax = 0, bmax = 0;
    for (int i = 0; i < n; ++i) {
      double s = 0, row = 0;
      for (int j = 0; j < n; ++j) {
        const double m = op(i, j);
        s += m * double(X(b, j, q));
        row += std::abs(m);
      }
      rmax = std::max(rmax, std::abs(s - double(B0(b, i, q))));
      mnorm = std::max(mnorm, row);
      xmax = std::max(xmax, std::abs(double(X(b, i, q))));
      bmax = std::max(bmax, std::abs(double(B0(b, i, q))));
    }
    const double e = rmax / std::max(mnorm * xmax + bmax, 1e-300);
    worst = std::max(worst, std::isfinite(e) ? e : HUGE_VAL);
  }
  return worst;
}

// potri: the inverse X reconstructed from the triangle of F that `kind`
// names (CholLower: the lower one, CholUpper: the upper one), and the
// residual max |A X - I| / (max|A| max|X| n) over the rows factor_rows(n):
// bounded by c n eps for a backward-stable inverse of a well-conditioned A.
template <class T, class Layout>
double inverse_error(const HostMat<T, Layout>& A0, const HostMat<T, Layout>& F, FactorKind kind,
                     std::int64_t b, int n) {
  const bool upper = kind == FactorKind::CholUpper;
  std::vector<double> X(std::size_t(n) * n);
  double amax = 0, xmax = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int hi = std::max(i, j), lo = std::min(i, j);
      const double x = upper ? F(b, lo, hi) : F(b, hi, lo);
      X[std::size_t(i) * n + j] = x;
      xmax = std::max(xmax, std::abs(x));
      amax = std::max(amax, std::abs(double(A0(b, i, j))));
    }
  double rmax = 0;
  for (const int i : factor_rows(n))
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += double(A0(b, i, k)) * X[std::size_t(k) * n + j];
      rmax = std::max(rmax, std::abs(s - (i == j ? 1.0 : 0.0)));
    }
  const double e = rmax / std::max(amax * xmax * n, 1e-300);
  return std::isfinite(e) ? e : HUGE_VAL;
}

// logdet: |out - ref| / (n max(1, |ref|)), ref from a Cholesky factorization
// of A0 in double on the host, so that the bound reads |out - ref| <=
// tolerance * n * max(1, |ref|).
template <class T, class Layout>
double logdet_error(const HostMat<T, Layout>& A0, double out, std::int64_t b, int n) {
  std::vector<double> L(std::size_t(n) * n);
  double ref = 0;
  for (int j = 0; j < n; ++j) {
    double d = A0(b, j, j);
    for (int k = 0; k < j; ++k) d -= L[std::size_t(j) * n + k] * L[std::size_t(j) * n + k];
    const double s = std::sqrt(d);  // NaN when A0 is not SPD: the check fails
    L[std::size_t(j) * n + j] = s;
    ref += 2 * std::log(s);
    for (int i = j + 1; i < n; ++i) {
      double v = A0(b, i, j);
      for (int k = 0; k < j; ++k) v -= L[std::size_t(i) * n + k] * L[std::size_t(j) * n + k];
      L[std::size_t(i) * n + j] = v / s;
    }
  }
  const double e = std::abs(out - ref) / (std::max(n, 1) * std::max(1.0, std::abs(ref)));
  return std::isfinite(e) ? e : HUGE_VAL;
}

struct CheckResult {
  double error = 0;             // worst backward error over the matrices checked
  std::int64_t over_bound = 0;  // matrices checked whose error exceeds the bound
  std::int64_t bad_info = 0;    // matrices reporting a failed factorization
  // posv_mixed: matrices that fell back to a double factorization (iter < 0);
  // potrf_shifted: matrices factored with a shift. Neither happens on the
  // benchmark's well-conditioned data.
  std::int64_t bad_output = 0;
  std::int64_t checked = 0;
  double bound = 0;
  bool ok() const { return bad_info == 0 && over_bound == 0 && bad_output == 0; }

  void add(double e) {
    error = std::max(error, e);
    over_bound += !(e <= bound);  // NaN counts as over
  }
};

// Check one result slot: factor (potrf, potrf_shifted: in L), inverse
// (potri), log-determinant (logdet) or solution (others), and info; for
// posv_mixed and potrf_shifted also iter and shift on every matrix.
template <class T, class Layout>
CheckResult check_result(const DataSet<T, Layout>& d, const Slot<T, Layout>& s, FactorKind kind,
                         double budget_flops) {
  const Case& c = d.c;
  CheckResult r;
  r.bound = tolerance<T>(c.n);
  const auto info = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.info);
  for (std::int64_t b = 0; b < c.batch; ++b) r.bad_info += info(b) != 0;
  if (c.routine == Routine::PosvMixed) {
    const auto iter = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.iter);
    // The fallback data: every float factorization fails (-3). The
    // well-conditioned data: none may (nor leave float's range, -2); but at
    // small n dsposv's stopping rule (a residual within sqrt(n) eps |A| |x|)
    // can be missed by rounding alone (LAPACK's dsposv does so for about 1
    // in 1000 systems at n = 2), so up to 1 % of the batch may end
    // unconverged (-31) and fall back.
    std::int64_t unconverged = 0;
    for (std::int64_t b = 0; b < c.batch; ++b) {
      if (c.float_fails)
        r.bad_output += iter(b) != -3;
      else if (iter(b) == -31)
        ++unconverged;
      else
        r.bad_output += iter(b) < 0;
    }
    if (unconverged > c.batch / 100) r.bad_output += unconverged;
  }
  const auto idx = sample_indices(c.batch, c.n, c.has_rhs() ? c.nrhs : 1, budget_flops);
  r.checked = static_cast<std::int64_t>(idx.size());
  if (c.routine == Routine::Potrf || c.routine == Routine::PotrfShifted) {
    const bool shifted = c.routine == Routine::PotrfShifted;
    const HostMat<T, Layout> F =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shifted ? s.L : s.A);
    for (const auto b : idx) r.add(factor_error(d.hA0, F, kind, b, c.n));
    if (shifted) {
      const auto shift = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.out);
      for (std::int64_t b = 0; b < c.batch; ++b) r.bad_output += !(shift(b) == T(0));
    }
  } else if (c.routine == Routine::Potri) {
    const HostMat<T, Layout> F = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.A);
    for (const auto b : idx) r.add(inverse_error(d.hA0, F, kind, b, c.n));
  } else if (c.routine == Routine::Logdet) {
    const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.out);
    for (const auto b : idx) r.add(logdet_error(d.hA0, double(out(b)), b, c.n));
  } else {
    const HostMat<T, Layout> X = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.B);
    const auto& M = c.routine == Routine::Trsv ? d.hF0 : d.hA0;
    for (const auto b : idx) r.add(solve_error(c, M, X, d.hB0, b));
  }
  return r;
}

}  // namespace bench

#endif
