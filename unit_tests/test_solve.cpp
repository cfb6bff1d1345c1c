// batchol::potrs on random SPD batches: residuals and LAPACK agreement for 1,
// 2 and 7 right-hand sides (rank-2 and rank-3 B), for 8 and 19 at small
// orders, and with a factor written with write_transposed.
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <initializer_list>
#include <map>

namespace batchol_test {
namespace {

template <class C>
class Solve : public ::testing::Test {};
TYPED_TEST_SUITE(Solve, AllConfigs, ConfigNames);

template <class C>
using AView = Batch3<typename C::scalar, typename C::layout>;

// A holding the factors of s (potrf itself is checked in test_factor).
template <class C>
AView<C> factored(const SpdBatch& s, const batchol::Options& opts) {
  AView<C> A("A", s.batch(), s.n, s.n);
  upload(A, s.images(C::uplo));
  InfoView info = make_info(s.batch(), -99);
  batchol::potrf(Exec(), A, info, opts);
  for (int i : download_info(info)) EXPECT_EQ(i, 0);
  return A;
}

// Solves with the factor in A for every right-hand side in rhs (one n x nrhs
// matrix per item) through a B of the given View type; returns X per item and
// checks that A was only read.
template <class BView, class AV>
std::vector<Matrix> potrs_with(const AV& A, const std::vector<Matrix>& rhs, int nrhs,
                               const batchol::Options& opts) {
  const int batch = int(A.extent(0)), n = int(A.extent(1));
  BView B;
  if constexpr (rank_of<BView> == 3)
    B = BView("B", batch, n, nrhs);
  else
    B = BView("B", batch, n);
  upload(B, rhs);
  const auto a_before = snapshot(A);
  batchol::potrs(Exec(), A, B, opts);
  const auto hb = snapshot(B);
  EXPECT_EQ(first_item_differing(a_before, snapshot(A)), -1) << "potrs wrote to A";
  std::vector<Matrix> x;
  for (int b = 0; b < batch; ++b) x.push_back(get(hb, b));
  return x;
}

TYPED_TEST(Solve, PotrsMatchesLapackAtEverySize) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : all_sizes())
    for (int batch : batches_for(n)) {
      const SpdBatch s = make_spd_batch<T>(n, batch);
      std::map<int, std::vector<Matrix>> first;  // per nrhs (0: rank-2 B), the first path's X
      for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs>()) {
        SCOPED_TRACE(case_name(n, batch, path));
        const batchol::Options opts = options(C::uplo, path);
        const AView<C> A = factored<C>(s, opts);
        for (int nrhs : {0, 1, 2, 7}) {
          SCOPED_TRACE(nrhs == 0 ? "rank-2 B" : "rank-3 B, nrhs = " + std::to_string(nrhs));
          const auto rhs = make_rhs<T>(n, nrhs == 0 ? 1 : nrhs, batch);
          const auto x = nrhs == 0 ? potrs_with<Batch2<T, L>>(A, rhs, 1, opts)
                                   : potrs_with<Batch3<T, L>>(A, rhs, nrhs, opts);
          EXPECT_TRUE(every_item(batch, [&](int b) { return solution_ok<T>(s, b, rhs[b], x[b]); }));
          if (!first.count(nrhs)) first[nrhs] = x;
          EXPECT_TRUE(every_item(
              batch, [&](int b) { return paths_agree<T>(x[b], first[nrhs][b], n, s.cond[b]); }));
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
}

// potrs with each count of right-hand sides in `counts` at order n on every
// path, against the systems and the paths against each other.
template <class C>
void expect_potrs_matches(int n, int batch, std::initializer_list<int> counts = {1, 3}) {
  using T = typename C::scalar;
  using L = typename C::layout;
  const SpdBatch s = make_spd_batch<T>(n, batch);
  std::map<int, std::vector<Matrix>> first;
  for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs>()) {
    SCOPED_TRACE(case_name(n, batch, path));
    const batchol::Options opts = options(C::uplo, path);
    const AView<C> A = factored<C>(s, opts);
    for (int nrhs : counts) {
      SCOPED_TRACE("nrhs = " + std::to_string(nrhs));
      const auto rhs = make_rhs<T>(n, nrhs, batch);
      const auto x = potrs_with<Batch3<T, L>>(A, rhs, nrhs, opts);
      EXPECT_TRUE(every_item(batch, [&](int b) { return solution_ok<T>(s, b, rhs[b], x[b]); }));
      if (!first.count(nrhs)) first[nrhs] = x;
      EXPECT_TRUE(every_item(
          batch, [&](int b) { return paths_agree<T>(x[b], first[nrhs][b], n, s.cond[b]); }));
    }
    if (::testing::Test::HasFailure()) return;
  }
}

// Batches of more than one warp's worth of systems at the orders the Cuda
// solve tables take the lane solve for on LayoutLeft (a thread per system,
// 32 systems per warp, the right-hand sides in groups of one or two): 70
// systems are two whole warps and a partial one, and 3 right-hand sides
// leave a partial group. The sweeps above run such batches only at n <= 4.
TYPED_TEST(Solve, PotrsAcrossWarps) {
  for (int n : {20, 33, 57, 100, 128}) {
    expect_potrs_matches<TypeParam>(n, 70);
    if (::testing::Test::HasFailure()) return;
  }
}

// More right-hand sides than the Cuda path's column solve has lanes per
// system (8: each lane then solves several, the last group partial), at
// orders of its rows and between them, in batches that end in a partial warp
// (four systems per warp).
TYPED_TEST(Solve, PotrsManyRightHandSides) {
  for (int n : {1, 3, 8, 17, 32}) {
    expect_potrs_matches<TypeParam>(n, 37, {8, 19});
    if (::testing::Test::HasFailure()) return;
  }
}

// Batches large enough for the sm_90 solve tables' ...Big rows
// (large_solve_batch: batch^2 n^2 sizeof(T) >= 10^4 * 256 MB), which at
// n = 24-40 name other kernels than the rows for batch 10^4. Only where the
// Cuda path runs: the batches hold 40-160 MB of matrices.
TYPED_TEST(Solve, PotrsLargeBatchRows) {
  using T = typename TypeParam::scalar;
  if (!path_provided<Exec, Op::Potrf, Op::Potrs>(batchol::Path::Cuda))
    GTEST_SKIP() << "no Cuda path";
  for (int n : {24, 32, 40}) {
    expect_potrs_matches<TypeParam>(n, large_rows_batch<T>(n));
    if (::testing::Test::HasFailure()) return;
  }
}

// A factor written with write_transposed (both triangles hold it) solves the
// same systems, whether or not potrs is told the mirror is there.
TYPED_TEST(Solve, PotrsAfterWriteTransposed) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {1, 2, 7, 16, 33, 64, 100}) {
    const int batch = 5;
    const SpdBatch s = make_spd_batch<T>(n, batch);
    const auto rhs = make_rhs<T>(n, 3, batch);
    for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs>()) {
      SCOPED_TRACE(case_name(n, batch, path));
      batchol::Options opts = options(C::uplo, path);
      opts.write_transposed = true;
      const AView<C> A = factored<C>(s, opts);
      for (bool told : {false, true}) {
        opts.write_transposed = told;
        const auto x = potrs_with<Batch3<T, L>>(A, rhs, 3, opts);
        EXPECT_TRUE(every_item(batch, [&](int b) { return solution_ok<T>(s, b, rhs[b], x[b]); }));
      }
    }
  }
}

}  // namespace
}  // namespace batchol_test
