// posv with a matrix that cannot be factored: its info is exact, its
// right-hand sides come back unchanged, and the rest of the batch is
// unaffected (bit-identical to a run without it): one in a small batch, several
// inside the packs of the Host path's SIMD lanes, in every shape of batch, and
// two in a batch larger than the last-level cache.
#include "support/defects.hpp"
#include "support/host_regimes.hpp"
#include "support/shapes.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

template <class C>
class PosvFailure : public ::testing::Test {};
TYPED_TEST_SUITE(PosvFailure, AllConfigs, ConfigNames);

template <class C, class BView>
struct PosvRun {
  typename Batch3<typename C::scalar, typename C::layout>::host_mirror_type a;
  typename BView::host_mirror_type b;
  std::vector<int> info;
};

template <class C, class BView>
PosvRun<C, BView> run_posv(const std::vector<Matrix>& images, const std::vector<Matrix>& rhs, int n,
                           int nrhs, batchol::Path path, bool fast_math = false) {
  const int batch = int(images.size());
  Batch3<typename C::scalar, typename C::layout> A("A", batch, n, n);
  upload(A, images);
  BView B;
  if constexpr (rank_of<BView> == 3)
    B = BView("B", batch, n, nrhs);
  else
    B = BView("B", batch, n);
  upload(B, rhs);
  InfoView info = make_info(batch, -99);
  batchol::Options opts = options(C::uplo, path);
  opts.fast_math = fast_math;
  batchol::posv(Exec(), A, B, info, opts);
  return {snapshot(A), snapshot(B), download_info(info)};
}

template <class C, class BView>
void expect_failure_isolated(int n, int nrhs) {
  using T = typename C::scalar;
  constexpr int kBadAt = 3;
  const SpdBatch good = make_spd_batch<T>(n, 6);
  const SpdBatch base = make_spd_batch<T>(n, 1, /*salt=*/7);
  std::vector<Matrix> rhs = make_rhs<T>(n, nrhs, 7);
  const Matrix bad_rhs = rhs[kBadAt];
  rhs.erase(rhs.begin() + kBadAt);
  for (batchol::Path path : paths_under_test<Op::Posv>()) {
    const auto clean = run_posv<C, BView>(good.images(C::uplo), rhs, n, nrhs, path);
    for (const BadMatrix& bad : defects_of(base.a[0])) {
      SCOPED_TRACE(case_name(n, 7, path) + ", nrhs = " + std::to_string(nrhs) + ", " + bad.what);
      std::vector<Matrix> images = good.images(C::uplo), all_rhs = rhs;
      images.insert(images.begin() + kBadAt, image_of(bad.a, C::uplo, kPoison));
      all_rhs.insert(all_rhs.begin() + kBadAt, bad_rhs);
      const auto r = run_posv<C, BView>(images, all_rhs, n, nrhs, path);

      EXPECT_EQ(r.info[kBadAt], bad.info);
      const Matrix b_after = get(r.b, kBadAt);
      bool unchanged = true;
      for (std::size_t k = 0; k < b_after.v.size(); ++k)
        unchanged = unchanged && same_bits(T(b_after.v[k]), T(bad_rhs.v[k]));
      EXPECT_TRUE(unchanged) << "the failed matrix's right-hand side was overwritten";
      for (int b = 0; b < 7; ++b) {
        if (b == kBadAt) continue;
        const int c = b < kBadAt ? b : b - 1;
        EXPECT_EQ(r.info[b], 0) << "good matrix " << b;
        EXPECT_TRUE(item_bits_equal(r.a, b, clean.a, c)) << "good matrix " << b << ": factor";
        EXPECT_TRUE(item_bits_equal(r.b, b, clean.b, c)) << "good matrix " << b << ": solution";
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TYPED_TEST(PosvFailure, FailedMatrixKeepsItsRightHandSide) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  // 64-128 and 200: the Cuda path's split posv (potrf, then the solve
  // tables' staged and strided solves, which must skip the failed system).
  for (int n : {1, 2, 5, 16, 33, 64, 72, 88, 100, 128, 200}) {
    expect_failure_isolated<C, Batch2<T, L>>(n, 1);
    expect_failure_isolated<C, Batch3<T, L>>(n, 3);
    if (::testing::Test::HasFailure()) return;
  }
}

// One large matrix alone in its batch (on a device, the Cuda path's
// large-matrix factorization and solves): a failure at the first column, at
// a block edge inside the matrix and at the last column leaves B unchanged
// (the solves read info on the device and return; with many right-hand
// sides and cuBLAS, a copy of B is put back).
TYPED_TEST(PosvFailure, OneLargeMatrixKeepsItsRightHandSide) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  if (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    GTEST_SKIP() << "the host paths meet one large matrix in the batched tests";
  constexpr int n = 1025;
  const SpdBatch base = make_spd_batch<T>(n, 1, /*salt=*/5);
  for (batchol::Path path : paths_under_test<Op::Posv>())
    for (int nrhs : {1, 3, 400})  // 1: the flag-passing solve; 400: cuBLAS's
      for (int j : {1, 513, 1025}) {
        SCOPED_TRACE(case_name(n, 1, path) + ", nrhs = " + std::to_string(nrhs) +
                     ", negative pivot at column " + std::to_string(j));
        const std::vector<Matrix> rhs = make_rhs<T>(n, nrhs, 1);
        Matrix a = base.a[0];
        a(j - 1, j - 1) -= pivot_of(a, j) + 1.0;
        const auto r =
            run_posv<C, Batch3<T, L>>({image_of(a, C::uplo, kPoison)}, rhs, n, nrhs, path);
        EXPECT_EQ(r.info[0], j);
        const Matrix b_after = get(r.b, 0);
        bool unchanged = true;
        for (std::size_t k = 0; k < b_after.v.size(); ++k)
          unchanged = unchanged && same_bits(T(b_after.v[k]), T(rhs[0].v[k]));
        EXPECT_TRUE(unchanged) << "the failed matrix's right-hand side was overwritten";
      }
}

// A subnormal pivot (as in Info.SubnormalPivot: 2^-127 or 2^-1023, and the
// smallest subnormal, whose reciprocal overflows) is no failure without
// fast_math: every path solves the system, the Cuda tile kernel through its
// rare path (Batchol_CudaFirstEvent.cuh), which refills the factor its solve
// reads. With fast_math every path counts it as zero: info is its column and
// B comes back unchanged. The matrix is 1 on the diagonal, 0.1
// elsewhere, except row and column k, which hold only the pivot; the solution
// is all ones (with_lone_pivot).
TYPED_TEST(PosvFailure, SubnormalPivot) {
  using C = TypeParam;
  using T = typename C::scalar;
  using BView = Batch3<T, typename C::layout>;
  constexpr int kBatch = 5, kNrhs = 2;
  for (const TinyPivot& tiny_pivot : tiny_pivots<T>())
    for (int n : {2, 9, 17, 25, 33, 48, 64, 65, 100}) {
      const int k = n / 2;
      const Matrix sub = with_lone_pivot(n, k, tiny_pivot.value);
      const Matrix ones(n, kNrhs, 1.0), rhs = multiply(sub, ones);
      const std::vector<Matrix> images(kBatch, image_of(sub, C::uplo, kPoison));
      const std::vector<Matrix> rhs_all(kBatch, rhs);
      const double tol = forward_tol<T>(n, 0.2 * n + 2);
      for (batchol::Path path : paths_under_test<Op::Posv>())
        for (bool fast : {false, true}) {
          SCOPED_TRACE(case_name(n, kBatch, path) + (fast ? ", fast_math, " : ", ") +
                       tiny_pivot.name);
          const auto r = run_posv<C, BView>(images, rhs_all, n, kNrhs, path, fast);
          const bool flushed = fast;
          for (int b = 0; b < kBatch; ++b) {
            EXPECT_EQ(r.info[b], flushed ? k + 1 : 0) << "matrix " << b;
            const Matrix x = get(r.b, b);
            if (flushed) {
              bool unchanged = true;
              for (std::size_t e = 0; e < x.v.size(); ++e)
                unchanged = unchanged && same_bits(T(x.v[e]), T(rhs.v[e]));
              EXPECT_TRUE(unchanged) << "matrix " << b << ": the right-hand side was overwritten";
            } else {
              EXPECT_TRUE(within("solution vs ones", relative_diff(x, ones), tol))
                  << "matrix " << b << ", x(k, 0) = " << x(k, 0);
            }
          }
          if (::testing::Test::HasFailure()) return;
        }
    }
}

// Matrices of a batch of 53 that cannot be factored, at positions in the
// middle of a pack, next to each other, in other packs and in the last,
// partial one (for packs of 8 and of 16), each with its own defect
// (support/defects.hpp). On every path, with and without fast_math and
// write_transposed: each one's info is exact, its right-hand sides come back
// unchanged, its other triangle too, the columns computed before its defect
// are bit for bit those of the batch without defects, and the rest of the
// columns before its failing one hold what the Generic path computes; the
// other matrices are bit for bit those of the batch without defects.
template <class C, class K>
void expect_failures_inside_packs(int n, bool fast, bool mirror) {
  using T = typename C::scalar;
  constexpr Uplo uplo = C::uplo;
  constexpr int batch = 53;
  const int nrhs = n % 2 ? 1 : 2;
  const SpdBatch s = make_dominant_batch<T>(n, batch);
  const auto rhs = make_rhs<T>(n, nrhs, batch);
  std::vector<Matrix> clean = s.images(uplo), faulty = clean;
  std::vector<BadMatrix> bad(batch);
  std::vector<bool> victim(batch, false);
  int k = 0;
  for (int pos : {12, 13, 17, 24, 25, 26, 33, 50}) {
    const std::vector<BadMatrix> defects = defects_of(s.a[pos]);
    bad[pos] = defects[(3 * k++ + 1) % defects.size()];
    victim[pos] = true;
    faulty[pos] = image_of(bad[pos].a, uplo, kPoison);
  }
  auto subA = [&](const auto& v) { return K::sub3(v, batch, n, n); };
  auto subB = [&](const auto& v) { return K::sub3(v, batch, n, nrhs); };
  struct Run {
    typename K::template Big3<T>::host_mirror_type a, b;
    std::vector<int> info;
  };
  auto run = [&](const std::vector<Matrix>& images, batchol::Path path) {
    Embedded A(K::template big3<T>(batch, n, n), subA, images);
    Embedded B(K::template big3<T>(batch, n, nrhs), subB, rhs);
    InfoView info = make_info(batch, -99);
    batchol::Options opts = options(uplo, path);
    opts.fast_math = fast;
    opts.write_transposed = mirror;
    batchol::posv(Exec(), subA(A.big), subB(B.big), info, opts);
    bool intact = false;
    Run r{A.after(subA, intact), {}, {}};
    EXPECT_TRUE(intact) << "posv wrote outside A's subview";
    r.b = B.after(subB, intact);
    EXPECT_TRUE(intact) << "posv wrote outside B's subview";
    r.info = download_info(info);
    return r;
  };
  const Run generic = run(faulty, batchol::Path::Generic);
  const std::string what = std::string(K::name) + (fast ? ", fast_math" : "") +
                           (mirror ? ", write_transposed" : "") + ", n = " + std::to_string(n);
  for_each_path_and_regime<Op::Posv>([&](batchol::Path path, const std::string& regime) {
    SCOPED_TRACE(what + ", " + name_of(path) + ", " + regime);
    const Run c = run(clean, path), f = run(faulty, path);
    const auto ca = subA(c.a), fa = subA(f.a), ga = subA(generic.a);
    const auto cb = subB(c.b), fb = subB(f.b);
    for (int b = 0; b < batch; ++b) {
      EXPECT_EQ(c.info[b], 0) << "matrix " << b << " without defects";
      if (!victim[b]) {
        EXPECT_EQ(f.info[b], 0) << "matrix " << b;
        EXPECT_TRUE(item_bits_equal(fa, b, ca, b)) << "A of healthy matrix " << b << " differs";
        EXPECT_TRUE(item_bits_equal(fb, b, cb, b)) << "B of healthy matrix " << b << " differs";
        continue;
      }
      const BadMatrix& v = bad[b];
      SCOPED_TRACE("matrix " + std::to_string(b) + ": " + v.what);
      EXPECT_EQ(f.info[b], v.info);
      EXPECT_EQ(generic.info[b], v.info) << "(Generic)";
      const Matrix x = get(fb, b);
      bool unchanged = true;
      for (std::size_t e = 0; e < x.v.size(); ++e)
        unchanged = unchanged && same_bits(T(x.v[e]), T(rhs[b].v[e]));
      EXPECT_TRUE(unchanged) << "posv changed the right-hand sides of a failed matrix";
      bool other_kept = true;
      for (int c = 0; c < n; ++c)
        for (int i = c + 1; i < n; ++i) {
          // (i, c) in the lower triangle; the other triangle of Lower is (c, i).
          const int r = uplo == Uplo::Lower ? c : i, q = uplo == Uplo::Lower ? i : c;
          other_kept = other_kept && same_bits(fa(b, r, q), T(faulty[b](r, q)));
        }
      EXPECT_TRUE(other_kept) << "the other triangle of a failed matrix was written";
      // Lower-triangle coordinates (i, j) stored at (r, q).
      for (int j = 0; j < v.info - 1; ++j)
        for (int i = j; i < n; ++i) {
          const int r = uplo == Uplo::Lower ? i : j, q = uplo == Uplo::Lower ? j : i;
          if (j < v.intact) {
            EXPECT_TRUE(same_bits(fa(b, r, q), ca(b, r, q)))
                << "(" << i << ", " << j << ") differs from the batch without defects";
          } else {
            const double got = fa(b, r, q), want = ga(b, r, q);
            EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want)) ||
                        std::abs(got - want) <= 4 * tight_tol<T>(n) * (1 + std::abs(want)))
                << "(" << i << ", " << j << "): " << got << ", Generic " << want;
          }
        }
    }
    if (::testing::Test::HasFailure()) return;
  });
}

TYPED_TEST(PosvFailure, FailuresInsideAPack) {
  using C = TypeParam;
  using L = typename C::layout;
  for (int n : {3, 5, 16, 23, 40})
    for (bool fast : {false, true})
      for (bool mirror : {false, true}) {
        expect_failures_inside_packs<C, Contiguous<L>>(n, fast, mirror);
        expect_failures_inside_packs<C, Padded<L>>(n, fast, mirror);
        expect_failures_inside_packs<C, Interleaved<L>>(n, fast, mirror);
        if (::testing::Test::HasFailure()) return;
      }
}

// The last-level cache the Host path sees (32 MB where the build has none).
std::int64_t last_level_cache_bytes() {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  return batchol::detail::host::cache_shape(3).bytes;
#else
  return std::int64_t(32) << 20;
#endif
}

// A LayoutLeft batch of n = 16 larger than the last-level cache, with a
// power-of-two size, as the Host path's non-temporal write-back wants (where
// the L2 has 16 ways): K distinct systems repeat through it (K prime to every
// pack width, so that every lane sees every system), and an indefinite matrix
// and one with a NaN sit in the middle. posv on every path, every matrix
// checked: info, factor and solution against LAPACK, the upper triangle
// untouched, a failed system's right-hand side unchanged.
template <class T>
void expect_larger_than_cache() {
  constexpr int n = 16, K = 13;
  const std::int64_t llc = last_level_cache_bytes();
  std::int64_t batch = 16;
  while (batch * n * (n + 1) * std::int64_t(sizeof(T)) <= llc) batch *= 2;
  if (batch * n * (n + 1) * std::int64_t(sizeof(T)) > (std::int64_t(1) << 30))
    GTEST_SKIP() << "last-level cache of " << llc << " bytes: the batch would exceed 1 GB";
  using A3 = Kokkos::View<T***, Kokkos::LayoutLeft, Exec>;
  A3 a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "a"), batch, n, n);
  A3 b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), batch, n, 1);
  InfoView info("info", batch);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);

  const SpdBatch sys = make_dominant_batch<T>(n, K);
  const auto rhs = make_rhs<T>(n, 1, K);
  const std::int64_t bad = batch / 2 + 3, nan = batch / 2 + 17;
  auto input = [&](std::int64_t m, int i, int j) {
    if (m == bad && i == 5 && j == 5) return T(-1000);
    if (m == nan && ((i == 2 && j == 1) || (i == 1 && j == 2)))
      return std::numeric_limits<T>::quiet_NaN();
    return T(sys.a[m % K](i, j));
  };
  std::vector<Matrix> x(K);
  for (int k = 0; k < K; ++k) x[k] = lapack_potrs<T>(sys.lower[k], rhs[k]);
  // The indefinite one fails at column 6 (its leading 5 x 5 block is that of
  // an SPD matrix); the NaN reaches the pivot of column 3 first, through
  // L(2, 1). Set by construction: not every LAPACK reports a NaN pivot.
  Matrix bad_matrix(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) bad_matrix(i, j) = input(bad, i, j);
  Matrix unused;
  ASSERT_EQ(lapack_potrf<T>(bad_matrix, unused), 6);
  const int bad_info = 6, nan_info = 3;

  const double t = tight_tol<T>(n);
  for (batchol::Path path : paths_under_test<Op::Posv>()) {
    SCOPED_TRACE(case_name(n, int(batch), path));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (std::int64_t m = 0; m < batch; ++m) ha(m, i, j) = input(m, i, j);
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) hb(m, i, 0) = T(rhs[m % K](i, 0));
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, hb);
    batchol::posv(Exec(), a, b, info, options(Uplo::Lower, path));
    Kokkos::deep_copy(ha, a);
    Kokkos::deep_copy(hb, b);
    const auto hinfo = snapshot(info);

    std::int64_t wrong_info = 0, wrong_l = 0, wrong_x = 0, touched = 0;
    for (std::int64_t m = 0; m < batch; ++m) {
      const int k = int(m % K);
      const int want = m == bad ? bad_info : m == nan ? nan_info : 0;
      if (hinfo(m) != want) ++wrong_info;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const T v = ha(m, i, j), in = input(m, i, j);
          if (i < j && !same_bits(v, in)) ++touched;
          const double ref = sys.lower[k](i, j);
          if (i >= j && want == 0 && !(std::abs(v - ref) <= 4 * t * (1 + std::abs(ref)))) ++wrong_l;
        }
      for (int i = 0; i < n; ++i) {
        const T v = hb(m, i, 0);
        const bool ok = want == 0 ? std::abs(v - x[k](i, 0)) <= 4 * t * (1 + std::abs(x[k](i, 0)))
                                  : same_bits(v, T(rhs[k](i, 0)));
        if (!ok) ++wrong_x;
      }
    }
    EXPECT_EQ(wrong_info, 0) << "matrices with a wrong info (bad " << bad << ", NaN " << nan << ")";
    EXPECT_EQ(wrong_l, 0) << "factor entries off LAPACK's";
    EXPECT_EQ(wrong_x, 0) << "solution entries off LAPACK's (or a failed system's changed)";
    EXPECT_EQ(touched, 0) << "upper-triangle entries changed";
  }
}

TEST(PosvFailureLargeBatch, LargerThanTheLastLevelCacheDouble) {
  expect_larger_than_cache<double>();
}
TEST(PosvFailureLargeBatch, LargerThanTheLastLevelCacheFloat) {
  expect_larger_than_cache<float>();
}

}  // namespace
}  // namespace batchol_test
