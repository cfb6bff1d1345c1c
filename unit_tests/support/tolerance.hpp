// The one place the accuracy bounds are stated, and the error measures they
// bound.
//
// Cholesky and the triangular solves are backward stable: the factor
// satisfies ||L L^T - A||_F <= c n eps ||A||_F, a solve
// ||A x - b|| <= c n eps ||A|| ||x||. The forward error (difference from
// LAPACK's factor or solution) is that times the condition number. With
// kSafety = 20 the worst measured backward errors and residuals are ~3% of
// their bounds (main() prints the worst ratio of every check), the
// cond-scaled comparisons with LAPACK far less, while a real defect (a wrong
// element, a missed update, a wrong triangle, a skipped division) gives
// errors of order one.
#ifndef BATCHOL_TEST_TOLERANCE_HPP
#define BATCHOL_TEST_TOLERANCE_HPP

#include "matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace batchol_test {

inline constexpr double kSafety = 20.0;

template <class T>
double backward_tol(int n) {
  return kSafety * std::max(n, 1) * double(std::numeric_limits<T>::epsilon());
}

template <class T>
double forward_tol(int n, double cond) {
  return backward_tol<T>(n) * cond;
}

// The bounds on well-conditioned matrices (random_dominant_spd, condition
// number below 3), where results are compared entry by entry: a factor or
// solution within tight_tol of the reference relative to the reference's
// largest entry (max_relative_diff), a solve within 4 tight_tol, and with
// fast_math twice that; the factor's backward error
// max |L L^T - A| / max |A| below fast_backward_tol with fast_math too.
template <class T>
double tight_tol(int n) {
  return 16.0 * std::max(n, 1) * double(std::numeric_limits<T>::epsilon());
}
template <class T>
double fast_backward_tol(int n) {
  return 8.0 * std::max(n, 1) * double(std::numeric_limits<T>::epsilon());
}

// max |x - y| / max |y| (max |x - y| when y is zero); infinite where one of
// the two has a NaN the other has not.
inline double max_relative_diff(const Matrix& x, const Matrix& y) {
  double d = 0, m = 0;
  for (std::size_t k = 0; k < x.v.size(); ++k) {
    if (std::isnan(x.v[k]) != std::isnan(y.v[k])) return std::numeric_limits<double>::infinity();
    if (std::isnan(x.v[k])) continue;
    d = std::max(d, std::abs(x.v[k] - y.v[k]));
    m = std::max(m, std::abs(y.v[k]));
  }
  return m > 0 ? d / m : d;
}

// max |L L^T - A| / max |A| over the lower triangle.
inline double factor_backward_error_max(const Matrix& a, const Matrix& lower) {
  const int n = a.rows;
  double r = 0, m = 0;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double s = 0;
      for (int k = 0; k <= j; ++k) s += lower(i, k) * lower(j, k);
      r = std::max(r, std::abs(s - a(i, j)));
      m = std::max(m, std::abs(a(i, j)));
    }
  return m > 0 ? r / m : r;
}

// ||L L^T - A||_F / ||A||_F.
inline double factor_backward_error(const Matrix& a, const Matrix& lower) {
  const int n = a.rows;
  Matrix r(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double s = 0;
      for (int k = 0; k <= j; ++k) s += lower(i, k) * lower(j, k);
      r(i, j) = r(j, i) = s - a(i, j);
    }
  const double na = frobenius(a);
  return na > 0 ? frobenius(r) / na : frobenius(r);
}

// ||op(A) X - B||_F / (||A||_F ||X||_F) for any square A (op = A or A^T).
inline double solve_residual(const Matrix& a, const Matrix& x, const Matrix& b,
                             bool transpose = false) {
  const Matrix ax = multiply(transpose ? batchol_test::transpose(a) : a, x);
  const double scale = frobenius(a) * frobenius(x);
  const double r = frobenius_diff(ax, b);
  return scale > 0 ? r / scale : r;
}

}  // namespace batchol_test

#endif
