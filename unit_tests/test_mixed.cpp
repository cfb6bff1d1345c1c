// posv_mixed against LAPACK dsposv: double accuracy from a float factor on
// well-conditioned systems (A untouched), the fallback to a double
// factorization on ill-conditioned ones, on matrices no float factor can
// handle (indefinite in float's rounding, out of float's range) and on bad
// matrices in a good batch, with the exact info and iter of each.
#include "support/lapack.hpp"
#include "support/random.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace batchol_test {
namespace {

using DoubleConfigs = ::testing::Types<Config<double, Kokkos::LayoutLeft, Uplo::Lower>,
                                       Config<double, Kokkos::LayoutLeft, Uplo::Upper>,
                                       Config<double, Kokkos::LayoutRight, Uplo::Lower>,
                                       Config<double, Kokkos::LayoutRight, Uplo::Upper>>;

template <class C>
class Mixed : public ::testing::Test {};
TYPED_TEST_SUITE(Mixed, DoubleConfigs, ConfigNames);

using IterView = Kokkos::View<int*, Exec>;

struct Outcome {
  std::vector<Matrix> a;  // A after the call, as stored (triangle uplo)
  std::vector<Matrix> x;
  std::vector<int> info, iter;
};

// posv_mixed on `path` with the symmetric matrices `mats` (triangle uplo,
// NaN in the other one) and right-hand sides `rhs` (n x nrhs each).
template <class C>
Outcome run_mixed(const std::vector<Matrix>& mats, const std::vector<Matrix>& rhs,
                  batchol::Path path = batchol::Path::Auto) {
  const int batch = int(mats.size()), n = mats[0].rows, nrhs = rhs[0].cols;
  Batch3<double, typename C::layout> A("A", batch, n, n), B("B", batch, n, nrhs);
  std::vector<Matrix> images;
  for (const Matrix& m : mats) images.push_back(image_of(m, C::uplo, kPoison));
  upload(A, images);
  upload(B, rhs);
  InfoView info = make_info(batch, -99);
  IterView iter("iter", batch);
  Kokkos::deep_copy(iter, -99);
  batchol::Options opts;
  opts.uplo = C::uplo;
  opts.path = path;
  batchol::posv_mixed(Exec(), A, B, info, iter, opts);
  Outcome o;
  auto ha = snapshot(A);
  auto hb = snapshot(B);
  auto hi = snapshot(iter);
  for (int b = 0; b < batch; ++b) {
    o.a.push_back(get(ha, b));
    o.x.push_back(get(hb, b));
    o.iter.push_back(hi(b));
  }
  o.info = download_info(info);
  return o;
}

// The backward error a double solver reaches: what the refinement's
// stopping test guarantees, with the tests' safety factor.
::testing::AssertionResult double_accurate(const Matrix& a, const Matrix& x, const Matrix& b) {
  return within("posv_mixed residual", solve_residual(a, x, b), backward_tol<double>(a.rows));
}

bool same_bits(const Matrix& x, const Matrix& y) {
  for (std::size_t k = 0; k < x.v.size(); ++k)
    if (!(x.v[k] == y.v[k]) && !(std::isnan(x.v[k]) && std::isnan(y.v[k]))) return false;
  return x.v.size() == y.v.size();
}

// Well-conditioned systems: the float route converges in a few steps to
// double accuracy, A is left exactly as it was, and LAPACK's dsposv takes the
// same route.
TYPED_TEST(Mixed, ConvergesToDoubleAccuracy) {
  using C = TypeParam;
  for (int n : {1, 2, 5, 16, 33, 64}) {
    for (int nrhs : {1, 3}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs));
      Rng rng(seed_of(n, nrhs, 0x313));
      std::vector<Matrix> mats, rhs;
      for (int b = 0; b < 4; ++b) {
        mats.push_back(rounded<double>(random_spd(n, b % 2 ? 1e3 : 10.0, rng)));
        rhs.push_back(random_matrix(n, nrhs, rng));
      }
      const Outcome o = run_mixed<C>(mats, rhs);
      for (int b = 0; b < 4; ++b) {
        SCOPED_TRACE("matrix " + std::to_string(b));
        EXPECT_EQ(o.info[b], 0);
        EXPECT_GE(o.iter[b], 0);
        EXPECT_LE(o.iter[b], 5);
        EXPECT_TRUE(double_accurate(mats[b], o.x[b], rhs[b]));
        EXPECT_TRUE(same_bits(o.a[b], image_of(mats[b], C::uplo, kPoison))) << "A was written";
        const DsposvResult ref = lapack_dsposv(mats[b], rhs[b]);
        EXPECT_EQ(ref.info, 0);
        EXPECT_GE(ref.iter, 0) << "LAPACK took the fallback";
        EXPECT_TRUE(within("posv_mixed vs dsposv", relative_diff(o.x[b], ref.x),
                           forward_tol<double>(n, 1e3)));
      }
    }
  }
}

// cond = 1e10 is beyond what a float factor can refine: the fallback gives
// the double posv result, A holds a double factor (on the Generic path the
// bits of its potrf), the other triangle untouched, and iter says why.
TYPED_TEST(Mixed, FallsBackOnIllConditioned) {
  using C = TypeParam;
  for (auto [n, nrhs] : {std::pair{8, 1}, std::pair{8, 2}, std::pair{24, 2}, std::pair{40, 2}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs));
    Rng rng(seed_of(n, nrhs, 0x717));
    std::vector<Matrix> mats, rhs;
    for (int b = 0; b < 3; ++b) {
      mats.push_back(rounded<double>(random_spd(n, 1e10, rng)));
      rhs.push_back(random_matrix(n, nrhs, rng));
    }
    const Outcome o = run_mixed<C>(mats, rhs);
    const Outcome g = run_mixed<C>(mats, rhs, batchol::Path::Generic);
    for (int b = 0; b < 3; ++b) {
      SCOPED_TRACE("matrix " + std::to_string(b));
      EXPECT_EQ(o.info[b], 0);
      EXPECT_TRUE(o.iter[b] == batchol::detail::mixed_fallback_factor ||
                  o.iter[b] == batchol::detail::mixed_fallback_diverged)
          << "iter " << o.iter[b];
      EXPECT_TRUE(double_accurate(mats[b], o.x[b], rhs[b]));
      const DsposvResult ref = lapack_dsposv(mats[b], rhs[b]);
      EXPECT_LT(ref.iter, 0) << "LAPACK refined where Batchol fell back";
      EXPECT_TRUE(within("posv_mixed vs dsposv", relative_diff(o.x[b], ref.x),
                         forward_tol<double>(n, 1e10)));
      EXPECT_TRUE(within("fallback factor",
                         factor_backward_error(mats[b], lower_of(o.a[b], C::uplo)),
                         backward_tol<double>(n)));
      for (int i = 0; i < n; ++i)
        for (int k = i + 1; k < n; ++k)
          EXPECT_TRUE(std::isnan(stored(o.a[b], C::uplo, i, k)))
              << "the other triangle was written at (" << i << ", " << k << ")";
      // The Generic path's factor: what its potrf writes.
      Batch3<double, typename C::layout> F("F", 1, n, n);
      upload(F, std::vector<Matrix>{image_of(mats[b], C::uplo, kPoison)});
      InfoView fi = make_info(1, -99);
      batchol::Options opts;
      opts.uplo = C::uplo;
      opts.path = batchol::Path::Generic;
      batchol::potrf(Exec(), F, fi, opts);
      EXPECT_TRUE(same_bits(g.a[b], get(snapshot(F), 0))) << "A is not potrf's factor";
    }
  }
}

// Bad matrices in the middle of a good batch: an indefinite one (info as
// LAPACK's dpotrf, B unchanged), one with a NaN, one with entries beyond
// float's range (solved in double, iter = -2), and one with a right-hand
// side beyond float's range. The good ones keep their float route.
TYPED_TEST(Mixed, HostileMatricesInAGoodBatch) {
  using C = TypeParam;
  for (auto [n, nrhs] : {std::pair{8, 1}, std::pair{9, 2}, std::pair{40, 2}, std::pair{100, 2}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs));
    Rng rng(seed_of(n, nrhs, 0x919));
    std::vector<Matrix> mats, rhs;
    for (int b = 0; b < 7; ++b) {
      mats.push_back(rounded<double>(random_spd(n, 100.0, rng)));
      rhs.push_back(random_matrix(n, nrhs, rng));
    }
    mats[1](5, 5) = -1.0;  // leading minor 6 is not positive
    mats[2](6, 3) = mats[2](3, 6) = std::numeric_limits<double>::quiet_NaN();
    for (double& v : mats[3].v) v *= 1e100;  // SPD, outside float's range
    for (double& v : rhs[4].v) v *= 1e100;
    Matrix ref_factor;
    const int indefinite_info = lapack_potrf<double>(mats[1], ref_factor);
    ASSERT_EQ(indefinite_info, 6);

    const Outcome o = run_mixed<C>(mats, rhs);
    EXPECT_EQ(o.info[1], 6);
    EXPECT_EQ(o.iter[1], batchol::detail::mixed_fallback_factor);
    EXPECT_TRUE(same_bits(o.x[1], rhs[1])) << "a failed matrix's right-hand sides changed";
    EXPECT_EQ(o.info[2], 7);  // the NaN reaches pivot 7 (row 6, 0-based)
    EXPECT_EQ(o.iter[2], batchol::detail::mixed_fallback_factor);
    EXPECT_TRUE(same_bits(o.x[2], rhs[2]));
    EXPECT_EQ(o.info[3], 0);
    EXPECT_EQ(o.iter[3], batchol::detail::mixed_fallback_overflow);
    EXPECT_TRUE(double_accurate(mats[3], o.x[3], rhs[3]));
    EXPECT_EQ(o.info[4], 0);
    EXPECT_EQ(o.iter[4], batchol::detail::mixed_fallback_overflow);
    EXPECT_TRUE(double_accurate(mats[4], o.x[4], rhs[4]));
    for (int b : {0, 5, 6}) {
      SCOPED_TRACE("good matrix " + std::to_string(b));
      EXPECT_EQ(o.info[b], 0);
      EXPECT_GE(o.iter[b], 0);
      EXPECT_TRUE(double_accurate(mats[b], o.x[b], rhs[b]));
      EXPECT_TRUE(same_bits(o.a[b], image_of(mats[b], C::uplo, kPoison))) << "A was written";
    }
  }
}

// Every path agrees with the Generic one on the same batch: the same info
// and route (the float route's steps within one: other summation orders
// may move a system across the stopping test), solutions to double
// accuracy, A untouched where the float route converged. Orders across the
// Cuda kernels' shapes (a thread per system, lanes of a warp, whole warps,
// several warps, above their limit) and right-hand sides beyond the shared
// memory of the kernel with a thread per row.
TYPED_TEST(Mixed, PathsAgree) {
  using C = TypeParam;
  for (int n : {1, 3, 4, 6, 8, 16, 17, 32, 33, 64, 65, 128, 129}) {
    for (int nrhs : {1, 3, 20}) {
      if (nrhs == 20 && n < 64) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs));
      Rng rng(seed_of(n, nrhs, 0x5a5));
      std::vector<Matrix> mats, rhs;
      for (int b = 0; b < 5; ++b) {
        mats.push_back(rounded<double>(random_spd(n, b == 3 ? 1e12 : (b % 2 ? 1e4 : 10.0), rng)));
        rhs.push_back(random_matrix(n, nrhs, rng));
      }
      if (n > 2) mats[4](n - 1, n - 1) = -1.0;  // fails the last pivot
      const Outcome o = run_mixed<C>(mats, rhs);
      const Outcome g = run_mixed<C>(mats, rhs, batchol::Path::Generic);
      for (int b = 0; b < 5; ++b) {
        SCOPED_TRACE("matrix " + std::to_string(b));
        EXPECT_EQ(o.info[b], g.info[b]);
        EXPECT_EQ(o.iter[b] < 0, g.iter[b] < 0) << o.iter[b] << " against " << g.iter[b];
        if (o.iter[b] >= 0 && g.iter[b] >= 0) {
          EXPECT_LE(std::abs(o.iter[b] - g.iter[b]), 1) << o.iter[b] << " against " << g.iter[b];
          EXPECT_TRUE(same_bits(o.a[b], image_of(mats[b], C::uplo, kPoison))) << "A was written";
        }
        if (o.info[b] == 0) {
          EXPECT_TRUE(double_accurate(mats[b], o.x[b], rhs[b]));
        } else {
          EXPECT_TRUE(same_bits(o.x[b], rhs[b])) << "a failed system's right-hand sides changed";
        }
      }
    }
  }
}

// n = 0 and batch = 0 do nothing; bad arguments throw before any launch.
TYPED_TEST(Mixed, EmptyAndBadArguments) {
  using C = TypeParam;
  using L = typename C::layout;
  Batch3<double, L> A0("A0", 3, 0, 0), B0("B0", 3, 0, 1);
  InfoView info = make_info(3, -99);
  IterView iter("iter", 3);
  batchol::posv_mixed(Exec(), A0, B0, info, iter);
  for (int i : download_info(info)) EXPECT_EQ(i, 0);
  auto hi = snapshot(iter);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(hi(b), 0);
  Batch3<double, L> E("E", 0, 4, 4), EB("EB", 0, 4, 1);
  batchol::posv_mixed(Exec(), E, EB, make_info(0, 0), IterView("i", 0));

  Batch3<double, L> A("A", 3, 4, 4), B("B", 3, 4, 1);
  EXPECT_THROW(batchol::posv_mixed(Exec(), A, B, info, IterView("short", 2)),
               std::invalid_argument);
  batchol::Options both;
  both.write_transposed = true;
  EXPECT_THROW(batchol::posv_mixed(Exec(), A, B, info, iter, both), std::invalid_argument);
  batchol::Options host;
  host.path = batchol::Path::Host;
  EXPECT_THROW(batchol::posv_mixed(Exec(), A, B, info, iter, host), std::invalid_argument);
}

}  // namespace
}  // namespace batchol_test
