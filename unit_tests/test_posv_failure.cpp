// posv with a matrix that cannot be factored: its info is exact, its
// right-hand sides come back unchanged, and the rest of the batch is
// unaffected (bit-identical to a run without it).
#include "support/defects.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

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
  // 64-128: the Cuda path's split posv (potrf, then the solve tables' staged
  // and strided solves, which must skip the failed system).
  for (int n : {1, 2, 5, 16, 33, 64, 72, 88, 100, 128}) {
    expect_failure_isolated<C, Batch2<T, L>>(n, 1);
    expect_failure_isolated<C, Batch3<T, L>>(n, 3);
    if (::testing::Test::HasFailure()) return;
  }
}

// A subnormal pivot (as in Info.SubnormalPivot: 2^-127 or 2^-1023, and the
// smallest subnormal, whose reciprocal overflows) is no failure without
// fast_math: every path solves the system, the Cuda tile kernel through its
// rare path (Batchol_CudaFirstEvent.cuh), which refills the factor its solve
// reads. With fast_math the Host and Cuda paths flush it to zero: info is its
// column and B comes back unchanged. The matrix is 1 on the diagonal, 0.1
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
          const bool flushed = fast && !runs_generic<Exec, Op::Posv>(path);
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

}  // namespace
}  // namespace batchol_test
