// potrf's info: the exact failing column for each kind of defect, and a
// failing matrix that leaves every other matrix of its batch unaffected.
#include "support/defects.hpp"
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

template <class C>
class Info : public ::testing::Test {};
TYPED_TEST_SUITE(Info, AllConfigs, ConfigNames);

template <class C>
using AView = Batch3<typename C::scalar, typename C::layout>;

// Orders of the Cuda path's large-matrix factorization on batches (300 in
// double, 600 also in float on the Blocked path) run on a device only (the
// host paths meet them in the factor tests).
constexpr bool kOnDevice = !Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
std::vector<int> info_sizes() {
  std::vector<int> n{1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 150};
  if (kOnDevice)
    for (int m : {300, 600}) n.push_back(m);
  return n;
}

// Factors `images` on `path`; returns A before and after, and info.
template <class C>
struct Run {
  typename AView<C>::host_mirror_type before, after;
  std::vector<int> info;
};
template <class C>
Run<C> run_potrf(const std::vector<Matrix>& images, int n, batchol::Path path,
                 bool fast_math = false, bool write_transposed = false) {
  AView<C> A("A", images.size(), n, n);
  upload(A, images);
  Run<C> r;
  r.before = snapshot(A);
  InfoView info = make_info(int(images.size()), -99);
  batchol::Options opts = options(C::uplo, path);
  opts.fast_math = fast_math;
  opts.write_transposed = write_transposed;
  batchol::potrf(Exec(), A, info, opts);
  r.after = snapshot(A);
  r.info = download_info(info);
  return r;
}

// One bad matrix at position 3 of a batch of 7: its info is exact, its other
// triangle untouched, the columns before the failure hold the factor; the six
// good matrices get info 0 and results bit-identical to a run without it.
TYPED_TEST(Info, BadMatrixInAGoodBatch) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr int kBadAt = 3;
  for (int n : info_sizes()) {
    const SpdBatch good = make_spd_batch<T>(n, 6);
    const SpdBatch base = make_spd_batch<T>(n, 1, /*salt=*/7);  // what the defects spoil
    for (batchol::Path path : paths_under_test<Op::Potrf>()) {
      const Run<C> clean = run_potrf<C>(good.images(C::uplo), n, path);
      for (const BadMatrix& bad : defects_of(base.a[0])) {
        SCOPED_TRACE(case_name(n, 7, path) + ", " + bad.what);
        std::vector<Matrix> images = good.images(C::uplo);
        images.insert(images.begin() + kBadAt, image_of(bad.a, C::uplo, kPoison));
        const Run<C> r = run_potrf<C>(images, n, path);

        EXPECT_EQ(r.info[kBadAt], bad.info);
        EXPECT_TRUE(other_triangle_bits_equal(r.before, r.after, kBadAt, C::uplo));
        const Matrix got = leading_columns(lower_of(get(r.after, kBadAt), C::uplo), bad.intact);
        const Matrix want = leading_columns(base.lower[0], bad.intact);
        EXPECT_TRUE(
            within("factor vs LAPACK", relative_diff(got, want), forward_tol<T>(n, base.cond[0])))
            << "the " << bad.intact << " columns before the failure do not hold the factor";
        for (int b = 0; b < 7; ++b) {
          if (b == kBadAt) continue;
          const int c = b < kBadAt ? b : b - 1;
          EXPECT_EQ(r.info[b], 0) << "good matrix " << b;
          EXPECT_TRUE(item_bits_equal(r.after, b, clean.after, c))
              << "good matrix " << b << " differs from the run without the bad one";
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

// One large matrix, alone in its batch (on a device, the Cuda path's
// large-matrix factorization, both storage orders): every defect's info
// exact, the columns before it the factor, the other triangle untouched; a
// negative pivot at the first and the last column and at each kind of block
// edge, with and without fast_math; a subnormal pivot that only fast_math
// flushes.
TYPED_TEST(Info, OneLargeMatrix) {
  using C = TypeParam;
  using T = typename C::scalar;
  if (!kOnDevice) GTEST_SKIP() << "the Blocked path meets one large matrix in the factor tests";
  constexpr int n = 1025;
  const SpdBatch base = make_spd_batch<T>(n, 1, /*salt=*/11);
  for (batchol::Path path : paths_under_test<Op::Potrf>()) {
    for (const BadMatrix& bad : defects_of(base.a[0])) {
      SCOPED_TRACE(case_name(n, 1, path) + ", " + bad.what);
      const Run<C> r = run_potrf<C>({image_of(bad.a, C::uplo, kPoison)}, n, path);
      EXPECT_EQ(r.info[0], bad.info);
      EXPECT_TRUE(other_triangle_bits_equal(r.before, r.after, 0, C::uplo));
      const Matrix got = leading_columns(lower_of(get(r.after, 0), C::uplo), bad.intact);
      EXPECT_TRUE(within("factor vs LAPACK",
                         relative_diff(got, leading_columns(base.lower[0], bad.intact)),
                         forward_tol<T>(n, base.cond[0])))
          << "the " << bad.intact << " columns before the failure do not hold the factor";
      if (::testing::Test::HasFailure()) return;
    }
    for (int j : {1, 64, 65, 256, 257, 320, 512, 1024, n})
      for (bool fast : {false, true}) {
        SCOPED_TRACE(case_name(n, 1, path) + ", negative pivot at column " + std::to_string(j) +
                     (fast ? ", fast_math" : ""));
        Matrix a = base.a[0];
        a(j - 1, j - 1) -= pivot_of(a, j) + 1.0;
        EXPECT_EQ(run_potrf<C>({image_of(a, C::uplo, kPoison)}, n, path, fast).info[0], j);
      }
    const int k = 700;
    const Matrix sub = with_lone_pivot(n, k, tiny_pivots<T>()[0].value);
    for (bool fast : {false, true}) {
      SCOPED_TRACE(case_name(n, 1, path) + ", subnormal pivot" + (fast ? ", fast_math" : ""));
      const bool flushed = fast;
      EXPECT_EQ(run_potrf<C>({image_of(sub, C::uplo, kPoison)}, n, path, fast).info[0],
                flushed ? k + 1 : 0);
    }
  }
}

// Thousands of matrices, each failing at its own column: every info exact,
// with and without fast_math.
TYPED_TEST(Info, EveryMatrixFailsAtItsOwnColumn) {
  using C = TypeParam;
  using T = typename C::scalar;
  std::vector<std::pair<int, int>> cases{{3, 3000}, {6, 1001}, {8, 515},  {10, 301},
                                         {13, 517}, {40, 41},  {150, 151}};
  if (kOnDevice) cases.emplace_back(224, 225);
  for (const auto& [n, batch] : cases) {
    const SpdBatch s = make_spd_batch<T>(n, batch);
    std::vector<Matrix> images;
    std::vector<int> want;
    for (int b = 0; b < batch; ++b) {
      const int j = b % (n + 1);  // 0: this one stays good
      Matrix a = s.a[b];
      if (j > 0) a(j - 1, j - 1) -= pivot_of(a, j) + 1.0;
      images.push_back(image_of(a, C::uplo, kPoison));
      want.push_back(j);
    }
    for (batchol::Path path : paths_under_test<Op::Potrf>())
      for (bool fast : {false, true}) {
        SCOPED_TRACE(case_name(n, batch, path) + (fast ? ", fast_math" : ""));
        const Run<C> r = run_potrf<C>(images, n, path, fast);
        EXPECT_EQ(r.info, want);
      }
  }
}

// A pivot below the smallest normal number: 2^-127 in float, 2^-1023 in
// double (subnormal, with a finite reciprocal), and the smallest subnormal,
// whose reciprocal overflows (the Cuda tile and panel kernels then divide by
// it instead of multiplying with 1/d). Without fast_math every path
// factors it as LAPACK does. With fast_math every path fails it, as the Host
// and Cuda paths' reciprocal square root estimates flush it to zero (the
// Generic and Blocked paths, exact otherwise, test for it): info is its
// column, the columns before it hold the factor, the other matrices are
// untouched by it. The
// matrix: 1 on the diagonal, 0.1 elsewhere, except row and column k, which
// hold only the tiny pivot (so L is that of the same matrix with a 1 there,
// with sqrt(tiny) at (k, k)). Where it is factored, write_transposed mirrors
// the same factor.
TYPED_TEST(Info, SubnormalPivot) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr int kBatch = 9, kAt = 4;
  for (const TinyPivot& tiny_pivot : tiny_pivots<T>())
    for (int n : {2, 3, 8, 9, 16, 17, 24, 25, 32, 33, 48, 64, 65, 100, 128, 150, 224}) {
      if (n > 150 && !kOnDevice) continue;
      const int k = n / 2;
      const double tiny = tiny_pivot.value;
      const Matrix one = with_lone_pivot(n, k, 1.0), sub = with_lone_pivot(n, k, tiny);
      Matrix want;
      ASSERT_EQ(lapack_potrf<T>(one, want), 0);
      std::vector<Matrix> images(kBatch, image_of(one, C::uplo, kPoison));
      images[kAt] = image_of(sub, C::uplo, kPoison);
      const double sq = std::sqrt(tiny), tol = forward_tol<T>(n, 0.2 * n + 2);
      for (batchol::Path path : paths_under_test<Op::Potrf>())
        for (bool fast : {false, true}) {
          SCOPED_TRACE(case_name(n, kBatch, path) + (fast ? ", fast_math, " : ", ") +
                       tiny_pivot.name);
          const Run<C> r = run_potrf<C>(images, n, path, fast);
          const bool flushed = fast;
          for (int b = 0; b < kBatch; ++b) EXPECT_EQ(r.info[b], b == kAt && flushed ? k + 1 : 0);
          Matrix got = lower_of(get(r.after, kAt), C::uplo);
          if (flushed) {
            EXPECT_TRUE(within("factor vs LAPACK",
                               relative_diff(leading_columns(got, k), leading_columns(want, k)),
                               tol));
          } else {
            EXPECT_LE(std::abs(got(k, k) - sq), 4 * std::numeric_limits<T>::epsilon() * sq)
                << "L(k, k) = " << got(k, k) << ", sqrt(tiny) = " << sq;
            got(k, k) = 1.0;
            EXPECT_TRUE(within("factor vs LAPACK", relative_diff(got, want), tol));
          }
          EXPECT_TRUE(other_triangle_bits_equal(r.before, r.after, kAt, C::uplo));
          if (!flushed) {
            // write_transposed: the same factor, and its mirror.
            const Run<C> m = run_potrf<C>(images, n, path, fast, true);
            EXPECT_EQ(m.info[kAt], 0);
            bool same = true, mirrored = true;
            for (int c = 0; c < n; ++c)
              for (int i = c; i < n; ++i) {
                const int ri = C::uplo == Uplo::Lower ? i : c, ci = C::uplo == Uplo::Lower ? c : i;
                same = same && same_bits(m.after(kAt, ri, ci), r.after(kAt, ri, ci));
                mirrored = mirrored && same_bits(m.after(kAt, ci, ri), r.after(kAt, ri, ci));
              }
            EXPECT_TRUE(same) << "write_transposed changed the factor";
            EXPECT_TRUE(mirrored) << "write_transposed did not mirror the factor";
          }
          for (int b = 0; b < kBatch; ++b) {
            if (b == kAt) continue;
            EXPECT_TRUE(within("good matrix vs LAPACK",
                               relative_diff(lower_of(get(r.after, b), C::uplo), want), tol));
          }
          if (::testing::Test::HasFailure()) return;
        }
    }
}

}  // namespace
}  // namespace batchol_test
