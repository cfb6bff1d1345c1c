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
  typename Batch3<typename C::scalar, typename C::layout>::HostMirror a;
  typename BView::HostMirror b;
  std::vector<int> info;
};

template <class C, class BView>
PosvRun<C, BView> run_posv(const std::vector<Matrix>& images, const std::vector<Matrix>& rhs, int n,
                           int nrhs, batchol::Path path) {
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
  batchol::posv(Exec(), A, B, info, options(C::uplo, path));
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
  for (batchol::Path path : paths_under_test<PosvOp>()) {
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
  for (int n : {1, 2, 5, 16, 33, 64, 100}) {
    expect_failure_isolated<C, Batch2<T, L>>(n, 1);
    expect_failure_isolated<C, Batch3<T, L>>(n, 3);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace batchol_test
