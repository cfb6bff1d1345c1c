// batchol::posv on random SPD batches against batchol::potrf followed by
// batchol::potrs on the same path, and against LAPACK.
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

namespace batchol_test {
namespace {

template <class C>
class Posv : public ::testing::Test {};
TYPED_TEST_SUITE(Posv, AllConfigs, ConfigNames);

template <class C>
using AView = Batch3<typename C::scalar, typename C::layout>;

// posv computes what potrf followed by potrs computes on the same path (with
// and without write_transposed, for rank-2 and rank-3 B): the same factor bit
// for bit on every path; the same solution bit for bit on the Generic kernels,
// and within rounding on a specialized path (the Cuda path's fused solve
// orders its operations differently: seen at n = 33 on an H200).
template <class C, class BView>
void expect_posv_is_potrf_potrs(const SpdBatch& s, int nrhs, const batchol::Options& opts) {
  using T = typename C::scalar;
  const int batch = s.batch(), n = s.n;
  const auto rhs = make_rhs<T>(n, nrhs, batch);
  auto make_b = [&]() {
    BView B;
    if constexpr (rank_of<BView> == 3)
      B = BView("B", batch, n, nrhs);
    else
      B = BView("B", batch, n);
    upload(B, rhs);
    return B;
  };
  // Fused.
  AView<C> A1("A1", batch, n, n);
  upload(A1, s.images(C::uplo));
  const BView B1 = make_b();
  InfoView info1 = make_info(batch, -99);
  batchol::posv(Exec(), A1, B1, info1, opts);
  // Split.
  AView<C> A2("A2", batch, n, n);
  upload(A2, s.images(C::uplo));
  const BView B2 = make_b();
  InfoView info2 = make_info(batch, -99);
  batchol::potrf(Exec(), A2, info2, opts);
  batchol::potrs(Exec(), A2, B2, opts);

  EXPECT_EQ(download_info(info1), std::vector<int>(batch, 0));
  EXPECT_EQ(download_info(info2), std::vector<int>(batch, 0));
  EXPECT_EQ(first_item_differing(snapshot(A1), snapshot(A2)), -1) << "posv's factor differs";
  const auto hb = snapshot(B1), hb2 = snapshot(B2);
  if (runs_generic<Exec, Op::Potrf, Op::Potrs, Op::Posv>(opts.path)) {
    EXPECT_EQ(first_item_differing(hb, hb2), -1) << "posv's solution differs";
  } else {
    EXPECT_TRUE(every_item(batch, [&](int b) {
      return within("posv vs potrf+potrs", relative_diff(get(hb, b), get(hb2, b)),
                    forward_tol<T>(n, s.cond[b]));
    }));
  }
  EXPECT_TRUE(every_item(batch, [&](int b) { return solution_ok<T>(s, b, rhs[b], get(hb, b)); }));
}

// expect_posv_is_potrf_potrs on s on every path, with and without
// write_transposed; `more_rhs`: also with one and with seven right-hand sides.
template <class C>
void expect_posv_cases(const SpdBatch& s, bool more_rhs) {
  using T = typename C::scalar;
  using L = typename C::layout;
  for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs, Op::Posv>())
    for (bool mirror : {false, true}) {
      SCOPED_TRACE(case_name(s.n, s.batch(), path) + (mirror ? ", write_transposed" : ""));
      batchol::Options opts = options(C::uplo, path);
      opts.write_transposed = mirror;
      expect_posv_is_potrf_potrs<C, Batch3<T, L>>(s, 2, opts);
      if (more_rhs &&
          !mirror) {  // the mirror does not depend on B: fewer cases keep the suite fast
        expect_posv_is_potrf_potrs<C, Batch2<T, L>>(s, 1, opts);
        expect_posv_is_potrf_potrs<C, Batch3<T, L>>(s, 7, opts);
      }
      if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(Posv, IsPotrfThenPotrs) {
  using C = TypeParam;
  for (int n : all_sizes()) {
    expect_posv_cases<C>(make_spd_batch<typename C::scalar>(n, batches_for(n).back()), true);
    if (::testing::Test::HasFailure()) return;
  }
}

// Small orders over many thread blocks, with a partial last warp
// (batches_for keeps a single warp there): each warp of the Cuda path's
// small kernels stages its own matrices (rows, or whole matrices, on
// LayoutRight), so every warp of a block must find its own.
TYPED_TEST(Posv, IsPotrfThenPotrsOverManyBlocks) {
  using C = TypeParam;
  for (int n : {2, 3, 5, 6, 7, 8, 9, 12, 13, 16}) {
    expect_posv_cases<C>(make_spd_batch<typename C::scalar>(n, 1000 + n), false);
    if (::testing::Test::HasFailure()) return;
  }
}

// One large matrix alone in its batch (on a device, the Cuda path's
// large-matrix factorization and solves).
TYPED_TEST(Posv, IsPotrfThenPotrsForOneLargeMatrix) {
  using C = TypeParam;
  if (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    GTEST_SKIP() << "the factor tests meet one large matrix on the host";
  using T = typename C::scalar;
  const SpdBatch s = make_spd_batch<T>(1025, 1);
  expect_posv_cases<C>(s, true);
  // Many right-hand sides (on a device with cuBLAS: its triangular solves).
  for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs, Op::Posv>()) {
    SCOPED_TRACE(case_name(s.n, 1, path) + ", 400 right-hand sides");
    expect_posv_is_potrf_potrs<C, Batch3<T, typename C::layout>>(s, 400, options(C::uplo, path));
  }
}

// A batch of large matrices (on a device, double: the Cuda path's
// large-matrix factorization, then the Blocked path's solves).
TYPED_TEST(Posv, IsPotrfThenPotrsForABatchOfLargeMatrices) {
  using C = TypeParam;
  if (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible)
    GTEST_SKIP() << "the factor tests meet large batches on the host";
  expect_posv_cases<C>(make_spd_batch<typename C::scalar>(700, 3), false);
}

// The same with Options::fast_math: posv and potrf share the approximate
// pivot step, so the factors are still identical and the solution meets the
// same bounds.
TYPED_TEST(Posv, IsPotrfThenPotrsWithFastMath) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : all_sizes()) {
    const int batch = batches_for(n).back();
    const SpdBatch s = make_spd_batch<T>(n, batch);
    for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs, Op::Posv>()) {
      SCOPED_TRACE(case_name(n, batch, path) + ", fast_math");
      batchol::Options opts = options(C::uplo, path);
      opts.fast_math = true;
      expect_posv_is_potrf_potrs<C, Batch3<T, L>>(s, 2, opts);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace batchol_test
