// batchol::trsv, all four (uplo, trans) combinations, against a substitution
// computed here in double from the same triangles.
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cmath>
#include <limits>

namespace batchol_test {
namespace {

template <class C>
class Trsv : public ::testing::Test {};
TYPED_TEST_SUITE(Trsv, AllConfigs, ConfigNames);

// op(T) as a dense matrix: T is the triangle `uplo` of the stored image, i.e.
// L for Lower and L^T for Upper.
Matrix op_of(const Matrix& lower, Uplo uplo, batchol::Trans trans) {
  const bool lower_op = (uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
  return lower_op ? lower : transpose(lower);
}

// Forward or backward substitution with a dense triangular m (which triangle
// it is is given by `lower`).
Matrix substitute(const Matrix& m, bool lower, const Matrix& b) {
  const int n = m.rows;
  Matrix x = b;
  for (int s = 0; s < n; ++s) {
    const int i = lower ? s : n - 1 - s;
    double v = x(i, 0);
    for (int k = 0; k < n; ++k)
      if (lower ? k < i : k > i) v -= m(i, k) * x(k, 0);
    x(i, 0) = v / m(i, i);
  }
  return x;
}

// Every op of the configuration's uplo at order n against the substitution,
// on every path, and the paths against each other (for real scalars
// ConjTranspose is the transpose).
template <class C>
void expect_trsv_matches(int n, int batch) {
  using T = typename C::scalar;
  using L = typename C::layout;
  // The triangles are LAPACK's Cholesky factors of random SPD matrices: the
  // kind of triangle trsv is for, with cond(L) = sqrt(cond(A)).
  const SpdBatch s = make_spd_batch<T>(n, batch);
  std::vector<Matrix> images;
  for (const Matrix& l : s.lower) images.push_back(image_of(l, C::uplo, kPoison));
  const auto rhs = make_rhs<T>(n, 1, batch);
  for (batchol::Trans trans :
       {batchol::Trans::NoTranspose, batchol::Trans::Transpose, batchol::Trans::ConjTranspose}) {
    std::vector<Matrix> first;
    for (batchol::Path path : paths_under_test<Op::TrsvN, Op::TrsvT>()) {
      SCOPED_TRACE(case_name(n, batch, path) + ", " + name_of(C::uplo) + ", " + name_of(trans));
      Batch3<T, L> A("A", batch, n, n);
      upload(A, images);
      Batch2<T, L> b("b", batch, n);
      upload(b, rhs);
      const auto a_before = snapshot(A);
      // opts.uplo is documented as not read by trsv: give it the other triangle.
      const Uplo wrong = C::uplo == Uplo::Lower ? Uplo::Upper : Uplo::Lower;
      batchol::trsv(Exec(), C::uplo, trans, A, b, options(wrong, path));
      const auto hb = snapshot(b);
      EXPECT_EQ(first_item_differing(a_before, snapshot(A)), -1) << "trsv wrote to A";
      std::vector<Matrix> x;
      for (int i = 0; i < batch; ++i) x.push_back(get(hb, i));
      EXPECT_TRUE(every_item(batch, [&](int i) -> ::testing::AssertionResult {
        const Matrix op = op_of(s.lower[i], C::uplo, trans);
        const bool lower_op = (C::uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
        auto r = within("trsv residual", solve_residual(op, x[i], rhs[i]), backward_tol<T>(n));
        if (!r) return r;
        return within("trsv vs substitution", relative_diff(x[i], substitute(op, lower_op, rhs[i])),
                      forward_tol<T>(n, s.cond[i]));
      }));
      if (first.empty()) first = x;
      EXPECT_TRUE(
          every_item(batch, [&](int i) { return paths_agree<T>(x[i], first[i], n, s.cond[i]); }));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TYPED_TEST(Trsv, AllFourCombinationsAtEverySize) {
  for (int n : all_sizes()) {
    expect_trsv_matches<TypeParam>(n, batches_for(n).back());
    if (::testing::Test::HasFailure()) return;
  }
}

// More than one warp's worth of systems (70: two whole warps and a partial
// one) at orders where the Cuda solve tables may take the lane solve (a
// thread per system) on LayoutLeft.
TYPED_TEST(Trsv, AcrossWarps) {
  for (int n : {20, 33, 57, 100, 128}) {
    expect_trsv_matches<TypeParam>(n, 70);
    if (::testing::Test::HasFailure()) return;
  }
}

// Batches large enough for the sm_90 trsv table's Big rows, as
// Solve.PotrsLargeBatchRows (Cuda path only).
TYPED_TEST(Trsv, LargeBatchRows) {
  using T = typename TypeParam::scalar;
  if (!path_provided<Exec, Op::TrsvN, Op::TrsvT>(batchol::Path::Cuda))
    GTEST_SKIP() << "no Cuda path";
  for (int n : {24, 32, 40}) {
    expect_trsv_matches<TypeParam>(n, large_rows_batch<T>(n));
    if (::testing::Test::HasFailure()) return;
  }
}

// An infinite right-hand-side entry in the row each substitution finishes
// last: that entry of x is infinite and every other one is the finite
// solution, as substitution computes it (an entry, once finished, must not
// meet the non-finite value again, not even multiplied by zero).
TYPED_TEST(Trsv, InfiniteLastEntryLeavesTheOthersFinite) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {2, 5, 16, 17, 33, 64, 65, 96, 100, 128}) {
    const int batch = 3;
    const SpdBatch s = make_spd_batch<T>(n, batch);
    std::vector<Matrix> images;
    for (const Matrix& l : s.lower) images.push_back(image_of(l, C::uplo, kPoison));
    for (batchol::Trans trans : {batchol::Trans::NoTranspose, batchol::Trans::Transpose}) {
      const bool lower_op = (C::uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
      const int last = lower_op ? n - 1 : 0;  // the row finished last
      const auto rhs = make_rhs<T>(n, 1, batch);
      auto bad = rhs;
      for (Matrix& b : bad) b(last, 0) = std::numeric_limits<double>::infinity();
      for (batchol::Path path : paths_under_test<Op::TrsvN, Op::TrsvT>()) {
        SCOPED_TRACE(case_name(n, batch, path) + ", " + name_of(C::uplo) + ", " + name_of(trans));
        Batch3<T, L> A("A", batch, n, n);
        upload(A, images);
        Batch2<T, L> b("b", batch, n);
        upload(b, bad);
        batchol::trsv(Exec(), C::uplo, trans, A, b, options(C::uplo, path));
        const auto hb = snapshot(b);
        EXPECT_TRUE(every_item(batch, [&](int i) -> ::testing::AssertionResult {
          const Matrix x = get(hb, i);
          const Matrix want = substitute(op_of(s.lower[i], C::uplo, trans), lower_op, rhs[i]);
          if (!(std::isinf(x(last, 0)) && x(last, 0) > 0))
            return ::testing::AssertionFailure() << "x(" << last << ") = " << x(last, 0);
          Matrix xf = x, wf = want;
          xf(last, 0) = wf(last, 0) = 0;
          for (int r = 0; r < n; ++r)
            if (!std::isfinite(xf(r, 0)))
              return ::testing::AssertionFailure() << "x(" << r << ") = " << xf(r, 0);
          return within("finite entries vs substitution", relative_diff(xf, wf),
                        forward_tol<T>(n, s.cond[i]));
        }));
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace batchol_test
