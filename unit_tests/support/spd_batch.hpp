// A batch of random SPD test matrices in precision T with LAPACK's factors of
// them, and the accuracy checks every factor and solve result goes through.
#ifndef BATCHOL_TEST_SPD_BATCH_HPP
#define BATCHOL_TEST_SPD_BATCH_HPP

#include "config.hpp"
#include "lapack.hpp"
#include "random.hpp"
#include "tolerance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace batchol_test {

struct SpdBatch {
  int n = 0;
  std::vector<double> cond;   // per matrix
  std::vector<Matrix> a;      // symmetric, every entry exactly representable in T
  std::vector<Matrix> lower;  // LAPACK ?potrf of a, in precision T

  int batch() const { return int(a.size()); }
  // What batchol receives: triangle `uplo` of each matrix, NaN in the other
  // one, so that reading the wrong triangle cannot go unnoticed.
  std::vector<Matrix> images(Uplo uplo) const {
    std::vector<Matrix> out;
    for (const Matrix& m : a) out.push_back(image_of(m, uplo, kPoison));
    return out;
  }
};

inline std::uint64_t seed_of(int n, int batch, int salt = 0) {
  return 0x9E3779B97F4A7C15ull ^ (std::uint64_t(n) << 32) ^ (std::uint64_t(batch) << 8) ^
         std::uint64_t(salt);
}

template <class T>
SpdBatch make_spd_batch(int n, int batch, int salt = 0) {
  SpdBatch s;
  s.n = n;
  Rng rng(seed_of(n, batch, salt));
  for (int b = 0; b < batch; ++b) {
    s.cond.push_back(condition_of<T>(b, n));
    s.a.push_back(rounded<T>(random_spd(n, s.cond.back(), rng)));
    Matrix l;
    const int info = lapack_potrf<T>(s.a.back(), l);
    EXPECT_EQ(info, 0) << "LAPACK could not factor a test matrix (n = " << n << ")";
    s.lower.push_back(l);
  }
  return s;
}

// The same with strongly diagonally dominant matrices (random_dominant_spd:
// condition number below 3, recorded as 3), whose factors and solutions every
// path must match entry by entry (tight_tol).
template <class T>
SpdBatch make_dominant_batch(int n, int batch, int salt = 0) {
  SpdBatch s;
  s.n = n;
  Rng rng(seed_of(n, batch, salt + 0x5eed));
  for (int b = 0; b < batch; ++b) {
    s.cond.push_back(3.0);
    s.a.push_back(rounded<T>(random_dominant_spd(n, rng)));
    Matrix l;
    const int info = lapack_potrf<T>(s.a.back(), l);
    EXPECT_EQ(info, 0) << "LAPACK could not factor a test matrix (n = " << n << ")";
    s.lower.push_back(l);
  }
  return s;
}

// Random right-hand sides, n x nrhs, rounded to T.
template <class T>
std::vector<Matrix> make_rhs(int n, int nrhs, int batch, int salt = 1) {
  Rng rng(seed_of(n, batch, salt) + std::uint64_t(nrhs));
  std::vector<Matrix> out;
  for (int b = 0; b < batch; ++b) out.push_back(rounded<T>(random_matrix(n, nrhs, rng)));
  return out;
}

// The worst error / tolerance seen per kind of check, printed by main() so
// that the margin of every bound is visible in the test log.
inline std::map<std::string, double>& worst_ratios() {
  static std::map<std::string, double> m;
  return m;
}

inline ::testing::AssertionResult within(const char* what, double err, double tol) {
  double& w = worst_ratios()[what];
  w = std::max(w, err / tol);
  if (err <= tol) return ::testing::AssertionSuccess();  // false for NaN too
  return ::testing::AssertionFailure() << what << " " << err << " exceeds " << tol;
}

// Runs check(b) for every item; fails with the first failing item only, so a
// broken kernel reports one line per case rather than thousands.
inline ::testing::AssertionResult every_item(
    int batch, const std::function<::testing::AssertionResult(int)>& check) {
  for (int b = 0; b < batch; ++b) {
    ::testing::AssertionResult r = check(b);
    if (!r) return ::testing::AssertionFailure() << "matrix " << b << ": " << r.message();
  }
  return ::testing::AssertionSuccess();
}

// A factor batchol computed for s.a[b]: small backward error and close to
// LAPACK's factor.
template <class T>
::testing::AssertionResult factor_ok(const SpdBatch& s, int b, const Matrix& lower) {
  auto r =
      within("factor backward error", factor_backward_error(s.a[b], lower), backward_tol<T>(s.n));
  if (!r) return r;
  return within("factor vs LAPACK", relative_diff(lower, s.lower[b]),
                forward_tol<T>(s.n, s.cond[b]));
}

// A solution X of s.a[b] X = rhs: small residual and close to LAPACK's ?potrs.
template <class T>
::testing::AssertionResult solution_ok(const SpdBatch& s, int b, const Matrix& rhs,
                                       const Matrix& x) {
  auto r = within("solve residual", solve_residual(s.a[b], x, rhs), backward_tol<T>(s.n));
  if (!r) return r;
  return within("solution vs LAPACK", relative_diff(x, lapack_potrs<T>(s.lower[b], rhs)),
                forward_tol<T>(s.n, s.cond[b]));
}

// Two paths' results for the same input agree within the forward error bound.
template <class T>
::testing::AssertionResult paths_agree(const Matrix& x, const Matrix& y, int n, double cond) {
  return within("path vs path", relative_diff(x, y), forward_tol<T>(n, cond));
}

}  // namespace batchol_test

#endif
