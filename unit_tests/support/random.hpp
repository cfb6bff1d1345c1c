// Random test data: SPD matrices with a chosen condition number, right-hand
// sides, and the rounding to the scalar type under test.
#ifndef BATCHOL_TEST_RANDOM_HPP
#define BATCHOL_TEST_RANDOM_HPP

#include "matrix.hpp"

#include <cmath>
#include <cstdint>
#include <random>

namespace batchol_test {

// Deterministic, so that a failure reproduces; seed it from the test's
// parameters so that different cases see different data.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  double uniform() { return dist_(gen_); }  // in [-1, 1)

 private:
  std::mt19937_64 gen_;
  std::uniform_real_distribution<double> dist_{-1.0, 1.0};
};

inline Matrix random_matrix(int rows, int cols, Rng& rng) {
  Matrix m(rows, cols);
  for (double& x : m.v) x = rng.uniform();
  return m;
}

// A = Q diag(d) Q^T with d log-spaced from 1 down to 1/cond and Q a product of
// three random Householder reflectors (dense and exactly orthogonal up to
// rounding), so cond_2(A) = cond. Applying H = I - 2 v v^T on both sides
// costs O(n^2): H A H = A - 2 v w^T - 2 w v^T + 4 (v^T w) v v^T, w = A v.
inline Matrix random_spd(int n, double cond, Rng& rng) {
  Matrix a(n, n);
  for (int i = 0; i < n; ++i) a(i, i) = n > 1 ? std::pow(cond, -double(i) / double(n - 1)) : 1.0;
  std::vector<double> v(n), w(n);
  for (int r = 0; r < 3 && n > 1; ++r) {
    double norm = 0;
    for (double& x : v) {
      x = rng.uniform();
      norm += x * x;
    }
    norm = std::sqrt(norm);
    for (double& x : v) x /= norm;
    double alpha = 0;
    for (int i = 0; i < n; ++i) {
      w[i] = 0;
      for (int k = 0; k < n; ++k) w[i] += a(i, k) * v[k];
      alpha += v[i] * w[i];
    }
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        a(i, j) += -2 * v[i] * w[j] - 2 * w[i] * v[j] + 4 * alpha * v[i] * v[j];
  }
  // Exactly symmetric, whatever the rounding above did.
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) a(i, j) = a(j, i) = 0.5 * (a(i, j) + a(j, i));
  return a;
}

// n I + G G^T with G uniform in [-1, 1): strongly diagonally dominant, its
// condition number below 3 whatever n. On such matrices every path must
// agree with LAPACK within tight_tol (tolerance.hpp), not only within the
// condition-scaled bounds.
inline Matrix random_dominant_spd(int n, Rng& rng) {
  const Matrix g = random_matrix(n, n, rng);
  Matrix a(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double s = i == j ? n : 0;
      for (int k = 0; k < n; ++k) s += g(i, k) * g(j, k);
      a(i, j) = a(j, i) = s;
    }
  return a;
}

// Every entry rounded to T, so that the reference holds exactly the values
// batchol receives.
template <class T>
Matrix rounded(Matrix m) {
  for (double& x : m.v) x = static_cast<double>(static_cast<T>(x));
  return m;
}

}  // namespace batchol_test

#endif
