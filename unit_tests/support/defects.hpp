// Matrices built to fail the factorization at a known column, with the info
// the contract gives for each.
#ifndef BATCHOL_TEST_DEFECTS_HPP
#define BATCHOL_TEST_DEFECTS_HPP

#include "matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace batchol_test {

struct BadMatrix {
  std::string what;
  Matrix a;        // symmetric; its lower triangle is what batchol sees
  int info = 0;    // the exact info expected (1-based column)
  int intact = 0;  // leading columns computed from unmodified data: they must hold the factor
};

// Pivot j (1-based) of `a` in exact arithmetic: a(j-1, j-1) minus the squared
// norm of row j-1 of the factor of the leading j-1 columns.
inline double pivot_of(const Matrix& a, int j) {
  Matrix l(j, j);
  for (int c = 0; c < j; ++c) {
    double d = a(c, c);
    for (int k = 0; k < c; ++k) d -= l(c, k) * l(c, k);
    if (c == j - 1) return d;
    l(c, c) = std::sqrt(d);
    for (int r = c + 1; r < j; ++r) {
      double v = a(r, c);
      for (int k = 0; k < c; ++k) v -= l(r, k) * l(c, k);
      l(r, c) = v / l(c, c);
    }
  }
  return 0;
}

// Every defect of an SPD matrix `spd` (n >= 1) the tests use, failing at the
// first, middle and last column (1-based j) where the defect allows.
inline std::vector<BadMatrix> defects_of(const Matrix& spd) {
  const int n = spd.rows;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<int> columns{1};
  if ((n + 1) / 2 != 1) columns.push_back((n + 1) / 2);
  if (n != columns.back()) columns.push_back(n);

  std::vector<BadMatrix> out;
  auto add = [&](std::string what, Matrix a, int info, int intact) {
    out.push_back({what, std::move(a), info, intact});
  };
  auto set_sym = [](Matrix& a, int i, int k, double v) { a(i, k) = a(k, i) = v; };
  for (int j : columns) {
    const std::string at = " at column " + std::to_string(j);
    // The leading j-1 minor stays SPD; the Schur complement at j becomes -1
    // (an exact 0 pivot would be at the mercy of rounding).
    Matrix neg = spd;
    neg(j - 1, j - 1) -= pivot_of(spd, j) + 1.0;
    add("negative pivot" + at, neg, j, j - 1);
    for (const auto& [name, value] :
         {std::pair<const char*, double>{"NaN", nan}, {"+Inf", inf}, {"-Inf", -inf}}) {
      Matrix d = spd;
      d(j - 1, j - 1) = value;
      add(std::string(name) + " on the diagonal" + at, d, j, j - 1);
    }
  }
  // A non-finite value at (i, k), i > k, spoils L(i, k) and reaches pivot i + 1.
  if (n >= 2) {
    std::vector<std::pair<int, int>> spots;
    for (std::pair<int, int> s :
         {std::pair<int, int>{n - 1, 0}, {n / 2, n / 2 - 1}, {n - 1, n - 2}})
      if (std::find(spots.begin(), spots.end(), s) == spots.end()) spots.push_back(s);
    for (const auto& [i, k] : spots) {
      const std::string at = " at (" + std::to_string(i) + ", " + std::to_string(k) + ")";
      Matrix a = spd;
      set_sym(a, i, k, nan);
      add("NaN off the diagonal" + at, a, i + 1, k);
      Matrix b = spd;
      set_sym(b, i, k, inf);
      add("+Inf off the diagonal" + at, b, i + 1, k);
    }
  }
  add("zero matrix", Matrix(n, n), 1, 0);
  Matrix negdef = spd;
  for (double& x : negdef.v) x = -x;
  add("negative definite", negdef, 1, 0);
  return out;
}

// Subnormal pivots that are no defect without fast_math: half the smallest
// normal number (2^-127 in float, 2^-1023 in double: its reciprocal is
// finite) and the smallest subnormal (whose reciprocal overflows).
struct TinyPivot {
  double value;
  const char* name;
};
template <class T>
std::vector<TinyPivot> tiny_pivots() {
  return {{double(std::numeric_limits<T>::min()) / 2, "tiny = min/2"},
          {double(std::numeric_limits<T>::denorm_min()), "tiny = denorm_min"}};
}

// 1 on the diagonal, 0.1 elsewhere, except row and column k, which hold only
// `pivot` at (k, k): its factor is that of the matrix with 1 there, with
// sqrt(pivot) at (k, k).
inline Matrix with_lone_pivot(int n, int k, double pivot) {
  Matrix a(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a(i, j) = i == j ? 1.0 : (i == k || j == k) ? 0.0 : 0.1;
  a(k, k) = pivot;
  return a;
}

}  // namespace batchol_test

#endif
