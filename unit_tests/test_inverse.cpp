// logdet and potri, host level and inside user kernels, against LAPACK: the
// log-determinant against the diagonal of ?potrf's factor (and exactly known
// values), NaN where the factorization failed; the inverse against ?potri and
// by its residual A inv(A) - I, the other triangle untouched unless
// write_transposed, and a singular factor in a good batch reported exactly
// and left unchanged without disturbing the others.
#include "support/defects.hpp"
#include "support/lapack.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

template <class C>
class Inverse : public ::testing::Test {};
TYPED_TEST_SUITE(Inverse, AllConfigs, ConfigNames);

const std::vector<int> kSizes = {0, 1, 2, 3, 5, 8, 16, 33, 64};
constexpr int kBatch = 5;

// 2 sum log L_jj in double.
double logdet_of(const Matrix& lower) {
  double s = 0;
  for (int j = 0; j < lower.rows; ++j) s += std::log(lower(j, j));
  return 2 * s;
}

// The log-determinant differs from LAPACK's through the factor's diagonal,
// whose relative error is that of the factor: n terms of forward_tol each.
template <class T>
double logdet_tol(int n, double cond) {
  return std::max(n, 1) * forward_tol<T>(n, cond);
}

// ||A X - I||_F / (||A||_F ||X||_F): the backward error of an inverse.
double inverse_residual(const Matrix& a, const Matrix& x) {
  Matrix r = multiply(a, x);
  for (int i = 0; i < a.rows; ++i) r(i, i) -= 1.0;
  const double scale = frobenius(a) * frobenius(x);
  return scale > 0 ? frobenius(r) / scale : frobenius(r);
}

// The symmetric matrix whose triangle `uplo` an image holds.
Matrix symmetric_of(const Matrix& image, Uplo uplo) {
  Matrix l = lower_of(image, uplo);
  for (int j = 0; j < l.rows; ++j)
    for (int i = 0; i < j; ++i) l(i, j) = l(j, i);
  return l;
}

// ha, ho: host copies of the factors and of logdet's output.
template <class T, class HA, class HO>
void check_logdet(const SpdBatch& s, const HA& ha, const HO& ho, Uplo uplo, int n) {
  EXPECT_TRUE(every_item(s.batch(), [&](int b) {
    const Matrix lower = lower_of(get(ha, b), uplo);
    const double v = double(ho(b));
    // The same factor's diagonal, summed in double: only the rounding of the
    // logarithms and the sum in T.
    auto r = within("logdet vs its factor", std::abs(v - logdet_of(lower)),
                    kSafety * std::max(n, 1) * double(std::numeric_limits<T>::epsilon()) *
                        std::max(1.0, std::abs(logdet_of(lower))));
    if (!r) return r;
    return within("logdet vs LAPACK", std::abs(v - logdet_of(s.lower[b])),
                  logdet_tol<T>(n, s.cond[b]) * std::max(1.0, std::abs(logdet_of(s.lower[b]))));
  }));
}

TYPED_TEST(Inverse, LogdetMatchesLapack) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : kSizes) {
    const SpdBatch s = make_spd_batch<T>(n, kBatch);
    for (batchol::Path path : paths_under_test<Op::Potrf, Op::Logdet>()) {
      SCOPED_TRACE(case_name(n, kBatch, path));
      Batch3<T, typename C::layout> A("A", kBatch, n, n);
      upload(A, s.images(C::uplo));
      InfoView info = make_info(kBatch, -99);
      const batchol::Options opts = options(C::uplo, path);
      batchol::potrf(Exec(), A, info, opts);
      Kokkos::View<T*, Exec> out("logdet", kBatch);
      Kokkos::deep_copy(out, T(-7));
      batchol::logdet(Exec(), A, info, out, opts);
      for (int i : download_info(info)) EXPECT_EQ(i, 0);
      if (n == 0) {
        auto ho = snapshot(out);
        for (int b = 0; b < kBatch; ++b) EXPECT_EQ(ho(b), T(0)) << "empty matrix " << b;
      }
      check_logdet<T>(s, snapshot(A), snapshot(out), C::uplo, n);
    }
  }
}

// Diagonal matrices diag(2, 3, ..., n + 1), whose log-determinant is known
// exactly: sum log(j + 2). A wrong factor of 2 or a missed entry shows.
TYPED_TEST(Inverse, LogdetOfKnownDiagonal) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {1, 4, 17}) {
    Matrix d(n, n);
    double expect = 0;
    for (int j = 0; j < n; ++j) {
      d(j, j) = j + 2;
      expect += std::log(double(j + 2));
    }
    Batch3<T, typename C::layout> A("A", 2, n, n);
    upload(A, std::vector<Matrix>{image_of(d, C::uplo, kPoison), image_of(d, C::uplo, kPoison)});
    InfoView info = make_info(2, -99);
    batchol::potrf(Exec(), A, info, options(C::uplo, batchol::Path::Generic));
    Kokkos::View<T*, Exec> out("logdet", 2);
    batchol::logdet(Exec(), A, info, out, options(C::uplo, batchol::Path::Generic));
    auto ho = snapshot(out);
    for (int b = 0; b < 2; ++b)
      EXPECT_NEAR(double(ho(b)), expect, 4 * n * double(std::numeric_limits<T>::epsilon()) * expect)
          << "n = " << n;
  }
}

// A matrix potrf could not factor gets a quiet NaN; its neighbours their value.
TYPED_TEST(Inverse, LogdetNanWhereFactorizationFailed) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr int kBadAt = 2;
  for (int n : {1, 5, 33}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    SpdBatch s = make_spd_batch<T>(n, kBatch);
    Matrix bad = s.a[kBadAt];
    bad(n - 1, n - 1) = -1.0;  // the last leading minor is not positive
    std::vector<Matrix> images = s.images(C::uplo);
    images[kBadAt] = image_of(bad, C::uplo, kPoison);
    Batch3<T, typename C::layout> A("A", kBatch, n, n);
    upload(A, images);
    InfoView info = make_info(kBatch, -99);
    batchol::potrf(Exec(), A, info, options(C::uplo, batchol::Path::Generic));
    Kokkos::View<T*, Exec> out("logdet", kBatch);
    batchol::logdet(Exec(), A, info, out, options(C::uplo, batchol::Path::Auto));
    EXPECT_EQ(download_info(info)[kBadAt], n);
    auto ho = snapshot(out);
    EXPECT_TRUE(std::isnan(ho(kBadAt)));
    for (int b = 0; b < kBatch; ++b) {
      if (b == kBadAt) continue;
      EXPECT_NEAR(double(ho(b)), logdet_of(s.lower[b]),
                  logdet_tol<T>(n, s.cond[b]) * std::max(1.0, std::abs(logdet_of(s.lower[b]))))
          << "matrix " << b;
    }
  }
}

// potrf and posv with a logdet output: the value logdet computes from the
// same factor (up to the rounding of the sum), a NaN for the matrix that
// failed, and the factor and info of the call without it. On a device the
// orders reach every Cuda kernel: group, tile, panel, and the large-matrix
// factorization (double from n = 289), which writes it in a pass of its own.
TYPED_TEST(Inverse, PotrfAndPosvWriteLogdet) {
  using C = TypeParam;
  using T = typename C::scalar;
  std::vector<int> sizes = kSizes;
  if (!Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    sizes.insert(sizes.end(), {100, 128, 200, 300, 600});
  for (int n : sizes) {
    const int batch = n <= 64 ? 37 : 3, bad_at = batch / 2, tiny_at = batch - 1;
    SpdBatch s = make_spd_batch<T>(n, batch);
    std::vector<Matrix> images = s.images(C::uplo);
    if (n > 0) {
      Matrix bad = s.a[bad_at];
      bad(n - 1, n - 1) = -1.0;  // the last leading minor is not positive
      images[bad_at] = image_of(bad, C::uplo, kPoison);
    }
    // A subnormal pivot factors (info 0), through the kernels' serial
    // fallback where they have one: its logdet comes from that factor.
    if (n > 1)
      images[tiny_at] =
          image_of(with_lone_pivot(n, n / 2, tiny_pivots<T>()[0].value), C::uplo, kPoison);
    const auto rhs = make_rhs<T>(n, 1, batch);
    for (batchol::Path path : paths_under_test<Op::Potrf, Op::Posv, Op::Logdet>()) {
      SCOPED_TRACE(case_name(n, batch, path));
      const batchol::Options opts = options(C::uplo, path);
      Batch3<T, typename C::layout> A("A", batch, n, n), A2("A2", batch, n, n),
          A3("A3", batch, n, n);
      upload(A, images);
      upload(A2, images);
      upload(A3, images);
      Batch2<T, typename C::layout> B("B", batch, n);
      upload(B, rhs);
      InfoView info = make_info(batch, -99), info2 = make_info(batch, -99),
               info3 = make_info(batch, -99);
      Kokkos::View<T*, Exec> ld("logdet", batch), ld2("logdet2", batch), ld3("logdet3", batch);
      Kokkos::deep_copy(ld, T(-7));
      Kokkos::deep_copy(ld3, T(-7));
      batchol::potrf(Exec(), A, info, ld, opts);
      batchol::potrf(Exec(), A2, info2, opts);
      batchol::logdet(Exec(), A2, info2, ld2, opts);
      batchol::posv(Exec(), A3, B, info3, ld3, opts);
      const std::vector<int> expect = download_info(info2);
      EXPECT_EQ(expect[bad_at], n) << "the bad matrix";
      EXPECT_EQ(expect[tiny_at], 0) << "the subnormal pivot's matrix";
      EXPECT_EQ(download_info(info), expect);
      EXPECT_EQ(download_info(info3), expect);
      EXPECT_EQ(first_item_differing(snapshot(A), snapshot(A2)), -1) << "potrf's factor differs";
      const auto h = snapshot(ld), h2 = snapshot(ld2), h3 = snapshot(ld3);
      for (int b = 0; b < batch; ++b) {
        if (expect[b] != 0) {
          EXPECT_TRUE(std::isnan(h(b)) && std::isnan(h3(b))) << "matrix " << b;
          continue;
        }
        const double tol = kSafety * std::max(n, 1) * double(std::numeric_limits<T>::epsilon()) *
                           std::max(1.0, std::abs(double(h2(b))));
        EXPECT_NEAR(double(h(b)), double(h2(b)), tol) << "potrf, matrix " << b;
        EXPECT_NEAR(double(h3(b)), double(h2(b)), tol) << "posv, matrix " << b;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// logdet reads info, not the factor: NaN at every position whose info is
// nonzero (the first, one in the middle, the last, two neighbours), among
// them a good factor reported as failed; the value everywhere else; info
// unchanged.
TYPED_TEST(Inverse, LogdetNanAtEveryFailedPosition) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr int kLong = 67;
  const std::vector<int> failed = {0, 31, 32, 40, kLong - 1};
  constexpr int kReported = 40;  // factored, its info set to 3 afterwards
  for (int n : {1, 6, 17}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    SpdBatch s = make_spd_batch<T>(n, kLong);
    std::vector<Matrix> images = s.images(C::uplo);
    for (int b : failed) {
      if (b == kReported) continue;
      Matrix bad = s.a[b];
      bad(n - 1, n - 1) = -1.0;  // the last leading minor is not positive
      images[b] = image_of(bad, C::uplo, kPoison);
    }
    Batch3<T, typename C::layout> A("A", kLong, n, n);
    upload(A, images);
    InfoView info = make_info(kLong, -99);
    batchol::potrf(Exec(), A, info, options(C::uplo, batchol::Path::Generic));
    Kokkos::deep_copy(Kokkos::subview(info, kReported), 3);
    std::vector<int> expect_info = download_info(info);
    for (int b = 0; b < kLong; ++b) {
      const bool bad = std::find(failed.begin(), failed.end(), b) != failed.end();
      ASSERT_EQ(expect_info[b], !bad ? 0 : b == kReported ? 3 : n) << "matrix " << b;
    }
    Kokkos::View<T*, Exec> out("logdet", kLong);
    Kokkos::deep_copy(out, T(-7));
    batchol::logdet(Exec(), A, info, out, options(C::uplo, batchol::Path::Auto));
    EXPECT_EQ(download_info(info), expect_info) << "logdet wrote info";
    auto ho = snapshot(out);
    for (int b = 0; b < kLong; ++b) {
      if (std::find(failed.begin(), failed.end(), b) != failed.end()) {
        EXPECT_TRUE(std::isnan(ho(b))) << "matrix " << b;
        continue;
      }
      EXPECT_NEAR(double(ho(b)), logdet_of(s.lower[b]),
                  logdet_tol<T>(n, s.cond[b]) * std::max(1.0, std::abs(logdet_of(s.lower[b]))))
          << "matrix " << b;
    }
  }
}

template <class T, class HView>
::testing::AssertionResult inverse_ok(const SpdBatch& s, int b, const HView& h, Uplo uplo,
                                      bool both) {
  const Matrix image = get(h, b);
  const Matrix x = symmetric_of(image, uplo);
  Matrix ref;
  const int info = lapack_potri<T>(s.lower[b], ref);
  if (info != 0) return ::testing::AssertionFailure() << "LAPACK potri info " << info;
  auto r = within("inverse residual", inverse_residual(s.a[b], x), backward_tol<T>(s.n));
  if (!r) return r;
  r = within("inverse vs LAPACK", relative_diff(x, ref), forward_tol<T>(s.n, s.cond[b]));
  if (!r) return r;
  // The other strict triangle: the poison still, or the inverse transposed.
  for (int j = 0; j < s.n; ++j)
    for (int i = j + 1; i < s.n; ++i) {
      const double other = stored(image, uplo, j, i);  // (j, i) in lower terms: other triangle
      if (both ? other != x(i, j) : !std::isnan(other))
        return ::testing::AssertionFailure()
               << "other triangle at (" << i << ", " << j << "): " << other;
    }
  return ::testing::AssertionSuccess();
}

// On a device the orders reach both ends of the Cuda kernels (a thread per
// column, several matrices per block at the smallest; a block per matrix
// from n = 41, the order padded to a multiple of 16 or not) and the Generic
// path above n = 128; batches of small matrices end in a partial block.
TYPED_TEST(Inverse, PotriMatchesLapack) {
  using C = TypeParam;
  using T = typename C::scalar;
  std::vector<int> sizes = kSizes;
  if (!Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    sizes.insert(sizes.end(), {31, 40, 41, 47, 48, 65, 80, 100, 127, 128, 129});
  for (int n : sizes) {
    const int batch = n <= 8 ? 37 : kBatch;
    const SpdBatch s = make_spd_batch<T>(n, batch);
    for (bool both : {false, true})
      for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potri>()) {
        SCOPED_TRACE(case_name(n, batch, path) + (both ? ", write_transposed" : ""));
        Batch3<T, typename C::layout> A("A", batch, n, n);
        upload(A, s.images(C::uplo));
        InfoView info = make_info(batch, -99);
        batchol::Options opts = options(C::uplo, path);
        batchol::potrf(Exec(), A, info, opts);
        opts.write_transposed = both;
        Kokkos::deep_copy(info, -99);
        batchol::potri(Exec(), A, info, opts);
        for (int i : download_info(info)) EXPECT_EQ(i, 0);
        auto h = snapshot(A);
        EXPECT_TRUE(
            every_item(batch, [&](int b) { return inverse_ok<T>(s, b, h, C::uplo, both); }));
      }
  }
}

// A factor with a zero pivot in the middle of a good batch: info names its
// column, the matrix is left as it was, and the others are bit-identical to a
// run without it. A factor holding a NaN disturbs nobody else either.
TYPED_TEST(Inverse, PotriSingularFactorIsolated) {
  using C = TypeParam;
  using T = typename C::scalar;
  constexpr int kBadAt = 3;
  std::vector<int> sizes = {1, 3, 8, 33};
  if (!Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    sizes.insert(sizes.end(), {64, 100});
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const SpdBatch s = make_spd_batch<T>(n, 6);
    std::vector<Matrix> factors;
    for (const Matrix& l : s.lower) factors.push_back(image_of(l, C::uplo, kPoison));
    const int zero_at = n / 2;
    Matrix singular = s.lower[0];
    singular(zero_at, zero_at) = 0.0;
    Matrix with_nan = s.lower[1];
    with_nan(n - 1, 0) = std::numeric_limits<double>::quiet_NaN();

    const auto run = [&](const std::vector<Matrix>& items) {
      Batch3<T, typename C::layout> A("A", int(items.size()), n, n);
      upload(A, items);
      InfoView info = make_info(int(items.size()), -99);
      batchol::potri(Exec(), A, info, options(C::uplo, batchol::Path::Auto));
      return std::make_pair(snapshot(A), download_info(info));
    };
    const auto clean = run(factors);
    std::vector<Matrix> items = factors;
    items.insert(items.begin() + kBadAt, image_of(singular, C::uplo, kPoison));
    items.insert(items.begin() + kBadAt + 1, image_of(with_nan, C::uplo, kPoison));
    const auto r = run(items);

    EXPECT_EQ(r.second[kBadAt], zero_at + 1);
    Kokkos::View<T***, typename C::layout, Kokkos::HostSpace> before("before", 1, n, n);
    put(before, 0, image_of(singular, C::uplo, kPoison));
    EXPECT_TRUE(item_bits_equal(r.first, kBadAt, before, 0)) << "the singular factor changed";
    EXPECT_EQ(r.second[kBadAt + 1], 0) << "a NaN is not a zero pivot (as LAPACK)";
    for (int b = 0; b < int(factors.size()); ++b) {
      const int at = b < kBadAt ? b : b + 2;
      EXPECT_EQ(r.second[at], 0) << "good matrix " << b;
      EXPECT_TRUE(item_bits_equal(r.first, at, clean.first, b)) << "good matrix " << b;
    }
    EXPECT_TRUE(every_item(
        s.batch(), [&](int b) { return inverse_ok<T>(s, b, clean.first, C::uplo, false); }));
  }
}

// LayoutStride: A as a subview of a padded View, logdet written to a column
// of a rank-2 View, info a strided subview.
TYPED_TEST(Inverse, StridedViews) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {3, 16}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const SpdBatch s = make_spd_batch<T>(n, kBatch);
    Batch3<T, typename C::layout> big("big", kBatch, n + 2, n + 3);
    Kokkos::deep_copy(big, T(-5));
    auto A = Kokkos::subview(big, Kokkos::ALL, std::make_pair(1, n + 1), std::make_pair(2, n + 2));
    static_assert(std::is_same_v<typename decltype(A)::array_layout, Kokkos::LayoutStride>);
    {
      auto h = Kokkos::create_mirror_view(big);
      Kokkos::deep_copy(h, big);
      auto hs = Kokkos::subview(h, Kokkos::ALL, std::make_pair(1, n + 1), std::make_pair(2, n + 2));
      const auto images = s.images(C::uplo);
      for (int b = 0; b < kBatch; ++b) put(hs, b, images[b]);
      Kokkos::deep_copy(big, h);
    }
    Kokkos::View<int**, Kokkos::LayoutRight, Exec> infos("infos", kBatch, 2);
    auto info = Kokkos::subview(infos, Kokkos::ALL, 1);
    Kokkos::View<T**, Kokkos::LayoutRight, Exec> outs("outs", kBatch, 3);
    auto out = Kokkos::subview(outs, Kokkos::ALL, 2);
    const batchol::Options opts = options(C::uplo, batchol::Path::Auto);
    batchol::potrf(Exec(), A, info, opts);
    batchol::logdet(Exec(), A, info, out, opts);
    // Strided Views cannot be copied between memory spaces: copy their
    // containers, and take the same subviews on the host.
    auto host_A = [&](const auto& hbig) {
      return Kokkos::subview(hbig, Kokkos::ALL, std::make_pair(1, n + 1), std::make_pair(2, n + 2));
    };
    check_logdet<T>(s, host_A(snapshot(big)), Kokkos::subview(snapshot(outs), Kokkos::ALL, 2),
                    C::uplo, n);
    batchol::potri(Exec(), A, info, opts);
    auto hi = snapshot(infos);
    for (int b = 0; b < kBatch; ++b) EXPECT_EQ(hi(b, 1), 0);
    auto hb = snapshot(big);
    auto h = host_A(hb);
    EXPECT_TRUE(every_item(kBatch, [&](int b) { return inverse_ok<T>(s, b, h, C::uplo, false); }));
    for (int b = 0; b < kBatch; ++b)
      EXPECT_EQ(hb(b, 0, 0), T(-5)) << "padding of matrix " << b << " was written";
  }
}

// The device-level calls inside user kernels, one thread (serial::) or one
// team (team::) per matrix, on the factors from batchol::potrf; team:: with
// and without its scratch.
template <class C, bool TEAM>
void device_level(int n, bool scratch = true) {
  using T = typename C::scalar;
  const SpdBatch s = make_spd_batch<T>(n, kBatch);
  Batch3<T, typename C::layout> A("A", kBatch, n, n);
  upload(A, s.images(C::uplo));
  InfoView info = make_info(kBatch, -99);
  batchol::potrf(Exec(), A, info, options(C::uplo, batchol::Path::Generic));
  Kokkos::View<T*, Exec> out("logdet", kBatch);
  const Uplo uplo = C::uplo;
  if constexpr (TEAM) {
    using Policy = Kokkos::TeamPolicy<Exec>;
    Policy policy(kBatch, Kokkos::AUTO);
    if (scratch)
      policy.set_scratch_size(0, Kokkos::PerTeam(batchol::team::potri_scratch_size<T, Exec>(n)));
    Kokkos::parallel_for(
        "team_inverse", policy, KOKKOS_LAMBDA(const typename Policy::member_type& m) {
          const int b = m.league_rank();
          auto a = Kokkos::subview(A, b, Kokkos::ALL, Kokkos::ALL);
          const T v = batchol::team::logdet(m, a, uplo);
          const int r = batchol::team::potri(m, a, uplo);
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            out(b) = v;
            info(b) = r;
          });
        });
  } else {
    Kokkos::parallel_for(
        "serial_inverse", Kokkos::RangePolicy<Exec>(0, kBatch), KOKKOS_LAMBDA(const int b) {
          auto a = Kokkos::subview(A, b, Kokkos::ALL, Kokkos::ALL);
          out(b) = batchol::serial::logdet(a, uplo);
          info(b) = batchol::serial::potri(a, uplo);
        });
  }
  auto ho = snapshot(out);
  for (int i : download_info(info)) EXPECT_EQ(i, 0);
  for (int b = 0; b < kBatch; ++b)
    EXPECT_NEAR(double(ho(b)), logdet_of(s.lower[b]),
                logdet_tol<T>(n, s.cond[b]) * std::max(1.0, std::abs(logdet_of(s.lower[b]))))
        << "matrix " << b;
  auto h = snapshot(A);
  EXPECT_TRUE(every_item(kBatch, [&](int b) { return inverse_ok<T>(s, b, h, uplo, false); }));
}

TYPED_TEST(Inverse, DeviceSerial) {
  for (int n : {0, 1, 4, 9, 33}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    device_level<TypeParam, false>(n);
  }
}

TYPED_TEST(Inverse, DeviceTeam) {
  for (int n : {0, 1, 4, 9, 33}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    device_level<TypeParam, true>(n);
    device_level<TypeParam, true>(n, /*scratch=*/false);
  }
}

// The Host path provides neither operation: the calls fall back to the
// Generic path, and a request for the Host path is refused. The Cuda path
// has potri wherever it has potrf, and no logdet of its own.
TEST(InverseDispatch, Paths) {
  EXPECT_FALSE((batchol::path_available<Exec, Op::Potri>(batchol::Path::Host)));
  EXPECT_FALSE((batchol::path_available<Exec, Op::Logdet>(batchol::Path::Host)));
  EXPECT_EQ((batchol::path_available<Exec, Op::Potri>(batchol::Path::Cuda)),
            (batchol::path_available<Exec, Op::Potrf>(batchol::Path::Cuda)));
  EXPECT_FALSE((batchol::path_available<Exec, Op::Logdet>(batchol::Path::Cuda)));
  EXPECT_TRUE((batchol::path_available<Exec, Op::Potri>(batchol::Path::Generic)));
  EXPECT_EQ(batchol::detail::region_name(Op::Potri, batchol::Path::Generic),
            "batchol::potri[Generic]");
  Batch3<double, LayoutRight> A("A", 1, 2, 2);
  InfoView info = make_info(1, 0);
  batchol::Options opts;
  opts.path = batchol::Path::Host;
  EXPECT_THROW(batchol::potri(Exec(), A, info, opts), std::invalid_argument);
  Kokkos::View<double*, Exec> out("out", 2);
  EXPECT_THROW(batchol::logdet(Exec(), A, info, out), std::invalid_argument);
}

}  // namespace
}  // namespace batchol_test
