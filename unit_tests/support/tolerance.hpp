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
