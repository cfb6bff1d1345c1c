// LayoutStride cases: A, B and info as subviews of larger Views (a padded
// array, and every other item of an interleaved one). potrf, potrs, posv and
// trsv must give the LAPACK results and leave everything outside the subview
// exactly as it was. Used by test_layouts_float.cpp and test_layouts_double.cpp
// (split by scalar to keep each file's compile time down).
#ifndef BATCHOL_TEST_STRIDED_CASES_HPP
#define BATCHOL_TEST_STRIDED_CASES_HPP

#include "shapes.hpp"
#include "spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

namespace batchol_test {

template <class C, class Kind>
void expect_strided_calls_work(int n, int batch) {
  using T = typename C::scalar;
  const int nrhs = 3;
  const SpdBatch s = make_spd_batch<T>(n, batch);
  const auto rhs = make_rhs<T>(n, nrhs, batch), rhs1 = make_rhs<T>(n, 1, batch);
  auto subA = [&](const auto& v) { return Kind::sub3(v, batch, n, n); };
  auto subB = [&](const auto& v) { return Kind::sub3(v, batch, n, nrhs); };
  auto subb = [&](const auto& v) { return Kind::sub2(v, batch, n); };
  using AS = decltype(subA(Kind::template big3<T>(0, 0, 0)));
  static_assert(std::is_same_v<typename AS::array_layout, Kokkos::LayoutStride>,
                "the test must exercise LayoutStride");
  // info as every other entry of a (batch, 2) array.
  Kokkos::View<int**, Kokkos::LayoutRight, Exec> info_big("info", batch, 2);
  const auto info = Kokkos::subview(info_big, Kokkos::ALL, 1);

  for (batchol::Path path :
       paths_under_test<Op::Potrf, Op::Potrs, Op::Posv, Op::TrsvN, Op::TrsvT>()) {
    SCOPED_TRACE(std::string(Kind::name) + ", " + case_name(n, batch, path));
    const auto opts = options(C::uplo, path);
    bool intact = false;

    // potrf, then potrs (rank-2 B) and trsv with the strided factor.
    Embedded A(Kind::template big3<T>(batch, n, n), subA, s.images(C::uplo));
    Kokkos::deep_copy(info_big, -99);
    batchol::potrf(Exec(), subA(A.big), info, opts);
    const auto fa = A.after(subA, intact);
    EXPECT_TRUE(intact) << "potrf wrote outside its subview";
    const auto hinfo = snapshot(info_big);
    for (int b = 0; b < batch; ++b) {
      EXPECT_EQ(hinfo(b, 1), 0);
      EXPECT_EQ(hinfo(b, 0), -99) << "info written outside its subview";
    }
    EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
      if (!other_triangle_bits_equal(subA(A.before), subA(fa), b, C::uplo))
        return ::testing::AssertionFailure() << "wrote outside triangle " << name_of(C::uplo);
      return factor_ok<T>(s, b, lower_of(get(subA(fa), b), C::uplo));
    }));

    Embedded X(Kind::template big2<T>(batch, n), subb, rhs1);
    batchol::potrs(Exec(), subA(A.big), subb(X.big), opts);
    const auto hx = X.after(subb, intact);
    EXPECT_TRUE(intact) << "potrs wrote outside its subview";
    EXPECT_TRUE(every_item(batch, [&](int b) {
      return solution_ok<T>(s, b, rhs1[b], get(subb(hx), b)) << " (potrs)";
    }));

    for (batchol::Trans trans : {batchol::Trans::NoTranspose, batchol::Trans::Transpose}) {
      Embedded Z(Kind::template big2<T>(batch, n), subb, rhs1);
      batchol::trsv(Exec(), C::uplo, trans, subA(A.big), subb(Z.big), opts);
      const auto hz = Z.after(subb, intact);
      EXPECT_TRUE(intact) << "trsv wrote outside its subview";
      // L L^T x = b through the two triangular solves: check op(T) z = b.
      EXPECT_TRUE(every_item(batch, [&](int b) {
        const Matrix l = lower_of(get(subA(fa), b), C::uplo);  // batchol's factor
        const bool lower_op = (C::uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
        return within("trsv residual",
                      solve_residual(lower_op ? l : transpose(l), get(subb(hz), b), rhs1[b]),
                      backward_tol<T>(n))
               << " (trsv " << name_of(trans) << ")";
      }));
    }

    // posv with rank-3 B.
    Embedded A2(Kind::template big3<T>(batch, n, n), subA, s.images(C::uplo));
    Embedded Y(Kind::template big3<T>(batch, n, nrhs), subB, rhs);
    Kokkos::deep_copy(info_big, -99);
    batchol::posv(Exec(), subA(A2.big), subB(Y.big), info, opts);
    A2.after(subA, intact);
    EXPECT_TRUE(intact) << "posv wrote outside A's subview";
    const auto hy = Y.after(subB, intact);
    EXPECT_TRUE(intact) << "posv wrote outside B's subview";
    const auto hinfo2 = snapshot(info_big);
    for (int b = 0; b < batch; ++b) EXPECT_EQ(hinfo2(b, 1), 0);
    EXPECT_TRUE(every_item(
        batch, [&](int b) { return solution_ok<T>(s, b, rhs[b], get(subB(hy), b)) << " (posv)"; }));
    if (::testing::Test::HasFailure()) return;
  }
}

template <class C>
void expect_strided_calls_work_at_every_size() {
  using L = typename C::layout;
  for (int n : {0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 100}) {
    for (int batch : {0, n <= 33 ? 7 : 3}) {
      expect_strided_calls_work<C, Padded<L>>(n, batch);
      expect_strided_calls_work<C, EveryOther<L>>(n, batch);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace batchol_test

#endif
