// batchol::potrf on random SPD batches: accuracy against LAPACK, the other
// triangle left alone, write_transposed, agreement between paths, and the
// bounds fast_math keeps.
#include "support/host_regimes.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace batchol_test {
namespace {

template <class C>
class Factor : public ::testing::Test {};
TYPED_TEST_SUITE(Factor, AllConfigs, ConfigNames);

template <class C>
using AView = Batch3<typename C::scalar, typename C::layout>;

// Factors the images of s on `path`; returns the host copy of A after the call
// and checks info and the untouched triangle on the way.
template <class C>
auto factor_on(const SpdBatch& s, batchol::Path path, bool write_transposed = false,
               bool fast_math = false) {
  AView<C> A("A", s.batch(), s.n, s.n);
  upload(A, s.images(C::uplo));
  const auto before = snapshot(A);
  InfoView info = make_info(s.batch(), -99);
  batchol::Options opts = options(C::uplo, path);
  opts.write_transposed = write_transposed;
  opts.fast_math = fast_math;
  batchol::potrf(Exec(), A, info, opts);
  const auto after = snapshot(A);  // deep_copy waits for the launch
  const std::vector<int> got = download_info(info);
  for (int b = 0; b < s.batch(); ++b) {
    EXPECT_EQ(got[b], 0) << "matrix " << b;
    if (!write_transposed) {
      EXPECT_TRUE(other_triangle_bits_equal(before, after, b, C::uplo))
          << "matrix " << b << ": potrf wrote outside triangle " << name_of(C::uplo);
    }
  }
  return after;
}

// Factors s on every path: each factor within the LAPACK bounds, and the
// paths within the forward bound of the first one. Returns whether all held.
template <class C>
bool expect_every_path_matches_lapack(const SpdBatch& s) {
  using T = typename C::scalar;
  const int n = s.n, batch = s.batch();
  std::vector<Matrix> first;  // the first path's factors, to compare the others with
  for (batchol::Path path : paths_under_test<Op::Potrf>()) {
    SCOPED_TRACE(case_name(n, batch, path));
    const auto h = factor_on<C>(s, path);
    std::vector<Matrix> factors;
    for (int b = 0; b < batch; ++b) factors.push_back(lower_of(get(h, b), C::uplo));
    EXPECT_TRUE(every_item(batch, [&](int b) { return factor_ok<T>(s, b, factors[b]); }));
    if (first.empty()) first = factors;
    EXPECT_TRUE(every_item(
        batch, [&](int b) { return paths_agree<T>(factors[b], first[b], n, s.cond[b]); }));
    if (::testing::Test::HasFailure()) return false;  // one failing case is enough to read
  }
  return true;
}

TYPED_TEST(Factor, MatchesLapackAtEverySize) {
  using C = TypeParam;
  for (int n : all_sizes())
    for (int batch : batches_for(n))
      if (!expect_every_path_matches_lapack<C>(make_spd_batch<typename C::scalar>(n, batch)))
        return;
}

// Orders above the Cuda path's tuned tables: around the Blocked path's block
// columns (32) and tiles (64), the rows of the Cuda path's large-order table
// (to 512; in double from 289 its large-matrix factorization), and past a
// thousand, where a GPU factors one matrix alone in its batch with the Cuda
// path's large-matrix factorization (unit stride along rows or columns) or
// the Blocked path, and a batch of three (the large-matrix factorization in
// double). A host build runs the largest in two configurations only, to
// keep the suite's time.
TYPED_TEST(Factor, MatchesLapackAtLargeOrders) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
  constexpr bool right = std::is_same_v<typename C::layout, LayoutRight>;
  constexpr bool largest =
      !host || (std::is_same_v<T, double> == right && (C::uplo == Uplo::Lower) == right);
  std::vector<int> sizes{129, 130, 191, 255, 256, 257};
  if (!host)  // the other rows of the Cuda path's large-order table
    for (int n : {160, 224, 320, 416, 480}) sizes.push_back(n);
  if (largest)
    for (int n : {511, 512, 1000, 1025}) sizes.push_back(n);
  if (!host)  // eight column groups of the large-matrix factorization, a last block of 1
    sizes.push_back(2049);
  for (int n : sizes)
    if (!expect_every_path_matches_lapack<C>(make_spd_batch<T>(n, n < 500 ? 2 : 1))) return;
  if (!host) expect_every_path_matches_lapack<C>(make_spd_batch<T>(700, 3));
}

// write_transposed leaves the factor bit-identical and mirrors it, bit for
// bit, into the other triangle (which is NaN before the call).
TYPED_TEST(Factor, WriteTransposedMirrorsTheFactor) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : all_sizes()) {
    const int batch = batches_for(n).back();
    const SpdBatch s = make_spd_batch<T>(n, batch);
    for (batchol::Path path : paths_under_test<Op::Potrf>()) {
      SCOPED_TRACE(case_name(n, batch, path));
      const auto plain = factor_on<C>(s, path, false);
      const auto mirrored = factor_on<C>(s, path, true);
      EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
        for (int k = 0; k < n; ++k)
          for (int i = k; i < n; ++i) {
            // Lower-triangle coordinates (i, k); the mirror image is (k, i).
            const int r = C::uplo == Uplo::Lower ? i : k, c = C::uplo == Uplo::Lower ? k : i;
            if (!same_bits(mirrored(b, r, c), plain(b, r, c)))
              return ::testing::AssertionFailure()
                     << "factor entry (" << r << ", " << c << ") differs from the plain call";
            if (!same_bits(mirrored(b, c, r), plain(b, r, c)))
              return ::testing::AssertionFailure()
                     << "entry (" << c << ", " << r << ") is not the mirror of (" << r << ", " << c
                     << ")";
          }
        return ::testing::AssertionSuccess();
      }));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The same call twice on the same data gives the same bits (no races, no
// dependence on uninitialized memory or on the launch configuration).
TYPED_TEST(Factor, Deterministic) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {1, 5, 16, 33, 64, 100}) {
    const SpdBatch s = make_spd_batch<T>(n, 7);
    for (batchol::Path path : paths_under_test<Op::Potrf>()) {
      SCOPED_TRACE(case_name(n, 7, path));
      const auto x = factor_on<C>(s, path);
      const auto y = factor_on<C>(s, path);
      EXPECT_EQ(first_item_differing(x, y), -1);
    }
  }
}

// Options::fast_math (approximate inverse square roots on the Host and Cuda
// paths; a no-op on Generic) keeps the accuracy the docs state: the same
// backward-error and LAPACK bounds as the exact computation, and within the
// forward bound of the exact factor of the same path.
TYPED_TEST(Factor, FastMathKeepsTheBounds) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {1, 2, 3, 4, 7, 8, 9, 16, 17, 24, 25, 32, 33, 48, 64, 65, 100, 128}) {
    const int batch = batches_for(n).back();
    const SpdBatch s = make_spd_batch<T>(n, batch);
    for (batchol::Path path : paths_under_test<Op::Potrf>()) {
      SCOPED_TRACE(case_name(n, batch, path) + ", fast_math");
      const auto exact = factor_on<C>(s, path);
      const auto fast = factor_on<C>(s, path, false, true);
      EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
        const Matrix f = lower_of(get(fast, b), C::uplo);
        auto r = factor_ok<T>(s, b, f);
        if (!r) return r;
        return paths_agree<T>(f, lower_of(get(exact, b), C::uplo), n, s.cond[b]);
      }));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The bounds Options::fast_math keeps on well-conditioned matrices, on every
// path (the Generic path computes exactly): the factor within 2 tight_tol of
// LAPACK's and of the exact Generic path's, entry by entry, with a backward
// error max |L L^T - A| / max |A| below fast_backward_tol, and posv's
// solutions within 8 tight_tol of LAPACK's and of the Generic path's.
TYPED_TEST(Factor, FastMathOnWellConditionedMatrices) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {2, 4, 8, 13, 16, 17, 32, 64}) {
    const int batch = 53;
    const SpdBatch s = make_dominant_batch<T>(n, batch);
    const auto rhs = make_rhs<T>(n, 7, batch);
    const double tol = tight_tol<T>(n);
    // The first path's (the Generic path's exact) factors and solutions.
    std::vector<Matrix> first_l, first_x;
    for_each_path_and_regime<Op::Potrf, Op::Posv>([&](batchol::Path path,
                                                      const std::string& regime) {
      SCOPED_TRACE(case_name(n, batch, path) + ", fast_math, " + regime);
      batchol::Options opts = options(C::uplo, path);
      opts.fast_math = true;
      Batch3<T, L> A("A", batch, n, n), A2("A2", batch, n, n), B("B", batch, n, 7);
      upload(A, s.images(C::uplo));
      upload(A2, s.images(C::uplo));
      upload(B, rhs);
      InfoView info = make_info(batch, -99), info2 = make_info(batch, -99);
      batchol::potrf(Exec(), A, info, opts);
      batchol::posv(Exec(), A2, B, info2, opts);
      EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
      EXPECT_EQ(download_info(info2), std::vector<int>(batch, 0));
      const auto ha = snapshot(A), hb = snapshot(B);
      EXPECT_TRUE(every_item(batch, [&](int b) {
        const Matrix l = lower_of(get(ha, b), C::uplo);
        auto r = within("fast factor vs LAPACK (tight)", max_relative_diff(l, s.lower[b]), 2 * tol);
        if (!r) return r;
        r = within("fast factor backward error (max)", factor_backward_error_max(s.a[b], l),
                   fast_backward_tol<T>(n));
        if (!r) return r;
        return within("fast solution vs LAPACK (tight)",
                      max_relative_diff(get(hb, b), lapack_potrs<T>(s.lower[b], rhs[b])), 8 * tol);
      }));
      if (first_l.empty())
        for (int b = 0; b < batch; ++b) {
          first_l.push_back(lower_of(get(ha, b), C::uplo));
          first_x.push_back(get(hb, b));
        }
      EXPECT_TRUE(every_item(batch, [&](int b) {
        auto r = within("path vs path (tight)",
                        max_relative_diff(lower_of(get(ha, b), C::uplo), first_l[b]), 2 * tol);
        if (!r) return r;
        return within("path vs path (tight)", max_relative_diff(get(hb, b), first_x[b]), 8 * tol);
      }));
      if (::testing::Test::HasFailure()) return;
    });
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace batchol_test
