// potrf_shifted: matrices that factor as they are keep potrf's bits and a
// zero shift; indefinite ones are rescued by the smallest shift of the policy
// that works (checked against LAPACK on A + delta I); a NaN is never rescued;
// A is never written, nor L's other triangle (unless mirrored), in batches of
// one or of several retry chunks, with L in A's layout (read in place) or
// the other (copied first); a matrix no try rescues keeps the last try's
// leading columns; bad arguments throw.
#include "support/defects.hpp"
#include "support/lapack.hpp"
#include "support/random.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace batchol_test {
namespace {

template <class C>
class Shifted : public ::testing::Test {};
TYPED_TEST_SUITE(Shifted, AllConfigs, ConfigNames);

bool same_bits(const Matrix& x, const Matrix& y) {
  if (x.v.size() != y.v.size()) return false;
  for (std::size_t k = 0; k < x.v.size(); ++k)
    if (!(x.v[k] == y.v[k]) && !(std::isnan(x.v[k]) && std::isnan(y.v[k]))) return false;
  return true;
}

// Whether the strict triangle opposite `uplo` of an image holds `value` only.
bool other_triangle_is(const Matrix& image, batchol::Uplo uplo, double value) {
  for (int k = 0; k < image.rows; ++k)
    for (int i = k + 1; i < image.rows; ++i)
      if (!(stored(image, uplo, k, i) == value)) return false;
  return true;
}

// What L holds before the call: potrf_shifted must not write its other
// triangle.
inline constexpr double kUnwritten = -3.5;

template <class L>
using other_layout_t = std::conditional_t<std::is_same_v<L, Kokkos::LayoutLeft>,
                                          Kokkos::LayoutRight, Kokkos::LayoutLeft>;

Matrix shifted_by(Matrix a, double delta) {
  for (int j = 0; j < a.rows; ++j) a(j, j) += delta;
  return a;
}

// The shift potrf_shifted should settle on, computed as the retries do (in T):
// the first delta of the policy for which LAPACK factors A + delta I.
template <class T>
T expected_shift(const Matrix& a, const batchol::Shift& policy) {
  T scale = T(0);
  for (int j = 0; j < a.rows; ++j) scale = std::max(scale, T(std::abs(a(j, j))));
  T delta = T(policy.start) * scale;
  for (int t = 0; t < policy.tries; ++t, delta *= T(policy.growth)) {
    Matrix shifted = a, l;
    for (int j = 0; j < a.rows; ++j) shifted(j, j) = double(T(a(j, j)) + delta);
    if (lapack_potrf<T>(shifted, l) == 0) return delta;
  }
  return T(-1);
}

enum class Kind { Good, Indefinite, Nan };

// potrf_shifted on matrix(b), b < batch (every entry representable in T),
// against potrf on a copy, with the policy start 1e-4, growth 10, 6 tries:
// A never written; by kind_of(b) potrf's bits and shift 0, or a factor of
// A + shift I with the policy's first shift that works (mirrored with
// write_transposed), or a NaN left as potrf reported it with shift -1; L's
// other triangle untouched unless mirrored. L in layout FL.
template <class C, class FL = typename C::layout, class MatrixOf, class KindOf>
void check_shifted(int n, int batch, const MatrixOf& matrix, const KindOf& kind_of,
                   bool write_transposed = false) {
  using T = typename C::scalar;
  using L = typename C::layout;
  std::vector<Matrix> images;
  for (int b = 0; b < batch; ++b) images.push_back(image_of(matrix(b), C::uplo, kPoison));
  Batch3<T, L> A("A", batch, n, n);
  Batch3<T, FL> F("F", batch, n, n), P("P", batch, n, n);  // P: the plain call, in L's layout
  upload(A, images);
  upload(P, images);
  Kokkos::deep_copy(F, T(kUnwritten));
  InfoView info = make_info(batch, -99), pinfo = make_info(batch, -99);
  Kokkos::View<T*, Exec> shift("shift", batch);
  Kokkos::deep_copy(shift, T(-7));
  batchol::Options opts;
  opts.uplo = C::uplo;
  opts.write_transposed = write_transposed;
  batchol::Shift policy;
  policy.start = 1e-4;
  policy.growth = 10;
  policy.tries = 6;
  batchol::potrf_shifted(Exec(), A, F, info, shift, policy, opts);
  batchol::potrf(Exec(), P, pinfo, opts);  // the plain call on a copy

  auto ha = snapshot(A);
  auto hf = snapshot(F);
  auto hp = snapshot(P);
  auto hs = snapshot(shift);
  const std::vector<int> in = download_info(info), pin = download_info(pinfo);
  for (int b = 0; b < batch; ++b) {
    SCOPED_TRACE("matrix " + std::to_string(b));
    EXPECT_TRUE(same_bits(get(ha, b), images[b])) << "A was written";
    const Matrix image = get(hf, b);
    if (!(write_transposed && in[b] == 0)) {
      EXPECT_TRUE(other_triangle_is(image, C::uplo, kUnwritten)) << "L's other triangle written";
    }
    if (kind_of(b) == Kind::Indefinite) {
      EXPECT_GT(pin[b], 0) << "the test matrix is not indefinite";
      EXPECT_EQ(in[b], 0);
      const double d = double(hs(b));
      EXPECT_GT(d, 0.0);
      EXPECT_EQ(hs(b), expected_shift<T>(matrix(b), policy));
      Matrix ref;
      ASSERT_EQ(lapack_potrf<T>(shifted_by(matrix(b), d), ref), 0);
      EXPECT_TRUE(within("shifted factor backward error",
                         factor_backward_error(shifted_by(matrix(b), d), lower_of(image, C::uplo)),
                         backward_tol<T>(n)));
      if (write_transposed) {
        EXPECT_TRUE(same_bits(image, transpose(image))) << "the factor was not mirrored";
      }
    } else if (kind_of(b) == Kind::Nan) {
      EXPECT_GT(in[b], 0) << "a NaN was rescued";
      EXPECT_EQ(in[b], pin[b]);
      EXPECT_EQ(hs(b), T(-1));
    } else {
      EXPECT_EQ(in[b], 0);
      EXPECT_EQ(hs(b), T(0));
      const Matrix plain = get(hp, b);
      EXPECT_TRUE(write_transposed ? same_bits(image, plain)
                                   : same_bits(lower_of(image, C::uplo), lower_of(plain, C::uplo)))
          << "not potrf's bits";
    }
    if (::testing::Test::HasFailure()) return;  // one matrix's report is enough
  }
}

TYPED_TEST(Shifted, RescuesIndefiniteKeepsTheOthers) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {2, 4, 13, 40, 48, 72, 100}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Rng rng(seed_of(n, 6, 0x5f1));
    // Eigenvalues 1 .. 1e-2; matrices 2 and 4 shifted down by 0.02 (smallest
    // eigenvalue -0.01), matrix 5 with a NaN.
    std::vector<Matrix> mats;
    for (int b = 0; b < 6; ++b) {
      Matrix a = rounded<T>(random_spd(n, 1e2, rng));
      if (b == 2 || b == 4) a = rounded<T>(shifted_by(a, -0.02));
      mats.push_back(a);
    }
    mats[5](n - 1, 0) = mats[5](0, n - 1) = kPoison;
    check_shifted<C>(
        n, int(mats.size()), [&](int b) { return mats[b]; },
        [](int b) {
          return b == 2 || b == 4 ? Kind::Indefinite : b == 5 ? Kind::Nan : Kind::Good;
        });
  }
}

// L in the other layout than A: the input is copied into L's triangle
// first, with the same results.
TYPED_TEST(Shifted, LayoutOfLOtherThanA) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {3, 17, 64}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Rng rng(seed_of(n, 4, 0x5f4));
    std::vector<Matrix> mats;
    for (int b = 0; b < 4; ++b) {
      Matrix a = rounded<T>(random_spd(n, 1e2, rng));
      if (b == 1) a = rounded<T>(shifted_by(a, -0.02));
      mats.push_back(a);
    }
    check_shifted<C, other_layout_t<typename C::layout>>(
        n, int(mats.size()), [&](int b) { return mats[b]; },
        [](int b) { return b == 1 ? Kind::Indefinite : Kind::Good; }, n == 17);
  }
}

// A batch of several retry chunks (batchol::detail::shifted::chunk_of, at
// least 8 matrices each): indefinite matrices first, last, on both sides of a
// chunk boundary and in the middle of the batch, a NaN beside a rescued one
// in the same chunk. Each team must find every failure of its chunk and
// only those; the rescued factors mirrored for n = 11.
TYPED_TEST(Shifted, RescuesAcrossChunks) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {5, 11}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    int batch = 600;
    while (batchol::detail::shifted::chunk_of(Exec(), batch, n) < 8) batch *= 2;
    const int chunk = int(batchol::detail::shifted::chunk_of(Exec(), batch, n));
    ASSERT_GT(batch, 2 * chunk + 1);
    SCOPED_TRACE("batch " + std::to_string(batch) + ", chunk " + std::to_string(chunk));
    const std::vector<int> indefinite = {0, chunk - 1, chunk, batch / 2, batch - 1};
    const int nan_at = chunk + 1;
    auto kind_of = [&](int b) {
      if (std::find(indefinite.begin(), indefinite.end(), b) != indefinite.end())
        return Kind::Indefinite;
      return b == nan_at ? Kind::Nan : Kind::Good;
    };
    // A few matrices repeated over the batch (eigenvalues 1 .. 1e-2), the
    // indefinite ones shifted down by 0.02.
    Rng rng(seed_of(n, 7, 0x5f3));
    std::vector<Matrix> pool;
    for (int k = 0; k < 7; ++k) pool.push_back(rounded<T>(random_spd(n, 1e2, rng)));
    auto matrix = [&](int b) {
      Matrix a = pool[b % pool.size()];
      if (kind_of(b) == Kind::Indefinite) a = rounded<T>(shifted_by(a, -0.02));
      if (b == nan_at) a(n - 1, 0) = a(0, n - 1) = kPoison;
      return a;
    };
    check_shifted<C>(n, batch, matrix, kind_of, n == 11);
  }
}

TYPED_TEST(Shifted, NoTriesReportsPotrfsInfo) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  const int n = 6;
  Rng rng(seed_of(n, 3, 0x5f2));
  std::vector<Matrix> mats;
  for (int b = 0; b < 3; ++b) mats.push_back(rounded<T>(random_spd(n, 10.0, rng)));
  mats[1](3, 3) = -1.0;
  std::vector<Matrix> images;
  for (const Matrix& m : mats) images.push_back(image_of(m, C::uplo, kPoison));
  Batch3<T, L> A("A", 3, n, n), F("F", 3, n, n);
  upload(A, images);
  InfoView info = make_info(3, -99);
  Kokkos::View<T*, Exec> shift("shift", 3);
  batchol::Shift none;
  none.tries = 0;
  batchol::Options opts;
  opts.uplo = C::uplo;
  batchol::potrf_shifted(Exec(), A, F, info, shift, none, opts);
  Matrix ref;
  const std::vector<int> in = download_info(info);
  EXPECT_EQ(in[1], lapack_potrf<T>(mats[1], ref));
  // The failed matrix's columns before the failing one hold its factor, the
  // others A's.
  const Matrix l = lower_of(get(snapshot(F), 1), C::uplo);
  for (int c = 0; c < n; ++c)
    for (int r = c; r < n; ++r) {
      if (c + 1 < in[1])
        EXPECT_NEAR(l(r, c), ref(r, c), backward_tol<T>(n) * (1 + std::abs(ref(r, c))))
            << "L(" << r << ", " << c << ")";
      else
        EXPECT_EQ(l(r, c), mats[1](r, c)) << "L(" << r << ", " << c << ")";
    }
  EXPECT_EQ(in[0], 0);
  EXPECT_EQ(in[2], 0);
  auto hs = snapshot(shift);
  EXPECT_EQ(hs(1), T(-1));
  EXPECT_EQ(hs(0), T(0));
}

// Every try fails (a negative diagonal element): info is the last try's,
// as LAPACK reports it for A + delta I with that try's delta, the shift -1,
// and L's columns before the failing one hold that try's factor (the rest
// holds intermediate values, as potrf leaves them); the good matrices beside
// it keep potrf's result. Orders of each kind of kernel: on the Cuda path
// the group and tile kernels retry themselves, the panel kernel's rows (72
// in double on LayoutLeft) in a launch after it.
TYPED_TEST(Shifted, EveryTryFailsLeavesTheLastTry) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {6, 13, 40, 72}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Rng rng(seed_of(n, 3, 0x5f5));
    std::vector<Matrix> mats;
    for (int b = 0; b < 5; ++b) mats.push_back(rounded<T>(random_spd(n, 10.0, rng)));
    const Matrix spd = mats[2];
    mats[2](n / 2, n / 2) = -1.0;  // fails at column n / 2 + 1, small shifts or not
    std::vector<Matrix> images;
    for (const Matrix& m : mats) images.push_back(image_of(m, C::uplo, kPoison));
    Batch3<T, L> A("A", 5, n, n), F("F", 5, n, n);
    upload(A, images);
    Kokkos::deep_copy(F, T(kUnwritten));
    InfoView info = make_info(5, -99);
    Kokkos::View<T*, Exec> shift("shift", 5);
    batchol::Shift policy;
    policy.start = 1e-4;
    policy.growth = 10;
    policy.tries = 2;
    batchol::Options opts;
    opts.uplo = C::uplo;
    batchol::potrf_shifted(Exec(), A, F, info, shift, policy, opts);
    // The last try's delta, computed as the retries do (in T).
    T scale = T(0);
    for (int j = 0; j < n; ++j) scale = std::max(scale, T(std::abs(mats[2](j, j))));
    const T delta = T(policy.start) * scale * T(policy.growth);
    Matrix last = mats[2], whole = spd, partial, ref;
    for (int j = 0; j < n; ++j) {
      last(j, j) = double(T(mats[2](j, j)) + delta);
      whole(j, j) = double(T(spd(j, j)) + delta);
    }
    const int expected = lapack_potrf<T>(last, partial);
    ASSERT_EQ(expected, n / 2 + 1) << "the test matrix does not fail where meant";
    // The columns before the failing one depend on those of the input only:
    // they are those of the SPD matrix it was made from, shifted alike.
    // (LAPACK's blocked potrf leaves the rows below its first block
    // unfinished when it fails inside it.)
    ASSERT_EQ(lapack_potrf<T>(whole, ref), 0);
    const std::vector<int> in = download_info(info);
    auto hs = snapshot(shift);
    EXPECT_EQ(in[2], expected);
    EXPECT_EQ(hs(2), T(-1));
    const Matrix image = get(snapshot(F), 2);
    EXPECT_TRUE(other_triangle_is(image, C::uplo, kUnwritten)) << "L's other triangle written";
    const Matrix l = lower_of(image, C::uplo);
    for (int c = 0; c + 1 < expected; ++c)
      for (int r = c; r < n; ++r)
        EXPECT_NEAR(l(r, c), ref(r, c), backward_tol<T>(n) * (1 + std::abs(ref(r, c))))
            << "L(" << r << ", " << c << ")";
    for (int b : {0, 1, 3, 4}) {
      EXPECT_EQ(in[b], 0) << "matrix " << b;
      EXPECT_EQ(hs(b), T(0)) << "matrix " << b;
    }
  }
}

// With fast_math a pivot below the smallest normal number makes the Cuda
// path's kernels finish the factorization serially from the input (which an
// out-of-place factorization must fetch from A): the info is plain potrf's,
// at every kind of kernel's order, and the retry then rescues it.
TYPED_TEST(Shifted, FastMathTinyPivotAsPotrf) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {6, 40, 48, 100}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int k = n / 2;
    std::vector<Matrix> images;
    for (int b = 0; b < 3; ++b) {
      const Matrix a = with_lone_pivot(n, k, b == 1 ? tiny_pivots<T>()[0].value : 1.0);
      images.push_back(image_of(a, C::uplo, kPoison));
    }
    Batch3<T, L> A("A", 3, n, n), F("F", 3, n, n), P("P", 3, n, n);
    upload(A, images);
    upload(P, images);
    Kokkos::deep_copy(F, T(kUnwritten));
    batchol::Options opts;
    opts.uplo = C::uplo;
    opts.fast_math = true;
    for (int tries : {0, 6}) {
      SCOPED_TRACE("tries = " + std::to_string(tries));
      InfoView info = make_info(3, -99), pinfo = make_info(3, -99);
      Kokkos::View<T*, Exec> shift("shift", 3);
      batchol::Shift policy;
      policy.tries = tries;
      batchol::potrf_shifted(Exec(), A, F, info, shift, policy, opts);
      if (tries == 0) {
        batchol::potrf(Exec(), P, pinfo, opts);
        EXPECT_EQ(download_info(info), download_info(pinfo));
      } else {
        EXPECT_EQ(download_info(info), std::vector<int>(3, 0));
        auto hs = snapshot(shift);
        EXPECT_GT(hs(1), T(0));
      }
    }
  }
}

TYPED_TEST(Shifted, BadArguments) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  Batch3<T, L> A("A", 2, 3, 3), F("F", 2, 3, 3), G("G", 2, 4, 4);
  InfoView info = make_info(2, 0);
  Kokkos::View<T*, Exec> shift("shift", 2), short_shift("s", 1);
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, A, info, shift), std::invalid_argument);
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, G, info, shift), std::invalid_argument);
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, F, info, short_shift), std::invalid_argument);
  batchol::Shift bad;
  bad.growth = 1;
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, F, info, shift, bad), std::invalid_argument);
  bad = batchol::Shift{};
  bad.start = 0;
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, F, info, shift, bad), std::invalid_argument);
  bad = batchol::Shift{};
  bad.tries = -1;
  EXPECT_THROW(batchol::potrf_shifted(Exec(), A, F, info, shift, bad), std::invalid_argument);
  // Empty batches and n = 0 do nothing.
  Batch3<T, L> E("E", 0, 3, 3), EF("EF", 0, 3, 3), Z("Z", 2, 0, 0), ZF("ZF", 2, 0, 0);
  batchol::potrf_shifted(Exec(), E, EF, make_info(0, 0), Kokkos::View<T*, Exec>("e", 0));
  batchol::potrf_shifted(Exec(), Z, ZF, info, shift);
  for (int i : download_info(info)) EXPECT_EQ(i, 0);
}

}  // namespace
}  // namespace batchol_test
