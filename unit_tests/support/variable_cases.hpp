// The variable-size cases every configuration runs (test_variable_float.cpp,
// test_variable_double.cpp): potrf, posv, potrs and trsv on padded and packed
// batches of random orders 0..64 against LAPACK, bit for bit against the
// fixed-size Generic call on each matrix alone, and planted defects reported
// through exact info with the other matrices unaffected.
#ifndef BATCHOL_TEST_VARIABLE_CASES_HPP
#define BATCHOL_TEST_VARIABLE_CASES_HPP

#include "defects.hpp"
#include "variable_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <string>
#include <vector>

namespace batchol_test {

inline constexpr int kVarMax = 64;
inline constexpr int kVarBatch = 24;

// The positions of storage `st` a call may write: the triangle `uplo` of the
// matrices in `writable`, or (cols_all) every element of those items.
template <class T, class L>
std::vector<char> writable_positions(const VarStorage<T, L>& st, const std::vector<int>& stored,
                                     const std::vector<bool>& writable, Uplo uplo, bool whole) {
  std::vector<char> may(st.span(), 0);
  for (int i = 0; i < st.batch(); ++i) {
    if (!writable[i]) continue;
    for (int c = 0; c < st.cols_of(i); ++c)
      for (int r = 0; r < stored[i]; ++r)
        if (whole || (uplo == Uplo::Lower ? r >= c : r <= c)) may[st.index(i, r, c)] = 1;
  }
  return may;
}

template <class C>
std::vector<Matrix> images_of(const std::vector<SpdBatch>& s) {
  std::vector<Matrix> out;
  for (const SpdBatch& m : s) out.push_back(image_of(m.a[0], C::uplo, kPoison));
  return out;
}

// The fixed-size Generic call on one matrix alone: its factor (image in
// triangle uplo) and, when b has columns, posv's solution.
template <class C>
void fixed_generic_posv(const Matrix& image, Matrix& factor, Matrix& b, int& info) {
  using T = typename C::scalar;
  using L = typename C::layout;
  const int n = image.rows;
  Batch3<T, L> A("A1", 1, n, n);
  upload(A, std::vector<Matrix>{image});
  InfoView code = make_info(1, -99);
  const batchol::Options opts = options(C::uplo, batchol::Path::Generic);
  if (b.cols > 0) {
    Batch3<T, L> B("B1", 1, n, b.cols);
    upload(B, std::vector<Matrix>{b});
    batchol::posv(Exec(), A, B, code, opts);
    b = get(snapshot(B), 0);
  } else {
    batchol::potrf(Exec(), A, code, opts);
  }
  factor = get(snapshot(A), 0);
  info = download_info(code)[0];
}

// potrf on a batch of random orders: info 0, factors within the bounds of
// LAPACK's, nothing written outside the triangles (with write_transposed:
// outside the matrices, the other triangle the factor transposed), and each
// factor equal to the bit to the fixed-size Generic call's on its matrix
// alone.
template <class C>
void expect_variable_potrf(Kind kind, batchol::Path path, bool mirror = false) {
  using T = typename C::scalar;
  using L = typename C::layout;
  SCOPED_TRACE(std::string(name_of(kind)) + ", path " + name_of(path) +
               (mirror ? ", write_transposed" : ""));
  const std::vector<int> orders = random_orders(kVarBatch, kVarMax);
  const std::vector<SpdBatch> s = make_matrices<T>(orders);
  const std::vector<Matrix> images = images_of<C>(s);
  VarStorage<T, L> A(kind, kVarMax, orders, 0, true);
  A.upload(images);
  const auto before = A.raw();
  const OrderView n = make_orders(orders);
  InfoView info = make_info(kVarBatch, -99);
  batchol::Options opts = options(C::uplo, path);
  opts.write_transposed = mirror;
  A.with_matrices(n, [&](const auto& vA) { batchol::potrf(Exec(), vA, info, opts); });
  EXPECT_EQ(download_info(info), std::vector<int>(kVarBatch, 0));
  const auto after = A.raw();
  const auto may =
      writable_positions(A, orders, std::vector<bool>(kVarBatch, true), C::uplo, mirror);
  EXPECT_EQ(first_change_outside(before, after, may), -1) << "potrf wrote outside a triangle";
  if (mirror) {
    EXPECT_TRUE(every_item(kVarBatch, [&](int i) -> ::testing::AssertionResult {
      const Matrix m = A.item(after, i);
      if (matrix_bits_equal(m, transpose(m))) return ::testing::AssertionSuccess();
      return ::testing::AssertionFailure() << "the other triangle is not the factor transposed";
    }));
  }
  EXPECT_TRUE(every_item(kVarBatch, [&](int i) {
    return factor_ok<T>(s[i], 0, lower_of(A.item(after, i), C::uplo));
  }));
  EXPECT_TRUE(every_item(kVarBatch, [&](int i) -> ::testing::AssertionResult {
    Matrix factor, none(orders[i], 0);
    int code = -99;
    fixed_generic_posv<C>(images[i], factor, none, code);
    if (matrix_bits_equal(lower_of(factor, C::uplo), lower_of(A.item(after, i), C::uplo)))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "factor differs from the fixed-size Generic call's";
  }));
}

// A padded batch whose orders are all nmax is the fixed-size batch: the same
// bits in the whole View.
template <class C>
void expect_equal_orders_are_fixed_size(int n_all) {
  using T = typename C::scalar;
  using L = typename C::layout;
  const int batch = 7;
  const std::vector<int> orders(batch, n_all);
  const SpdBatch s = make_spd_batch<T>(n_all, batch);
  const std::vector<Matrix> images = s.images(C::uplo);
  const batchol::Options opts = options(C::uplo, batchol::Path::Generic);
  const OrderView n = make_orders(orders);
  Batch3<T, L> A1("A1", batch, n_all, n_all), A2("A2", batch, n_all, n_all);
  Batch3<T, L> B1("B1", batch, n_all, 3), B2("B2", batch, n_all, 3);
  upload(A1, images);
  upload(A2, images);
  const auto rhs = make_rhs<T>(n_all, 3, batch);
  upload(B1, rhs);
  upload(B2, rhs);
  InfoView info1 = make_info(batch, -99), info2 = make_info(batch, -99);
  batchol::posv(Exec(), batchol::padded(A1, n), B1, info1, opts);
  batchol::posv(Exec(), A2, B2, info2, opts);
  EXPECT_EQ(download_info(info1), download_info(info2));
  EXPECT_TRUE(span_bits_equal(snapshot(A1), snapshot(A2))) << "factors differ";
  EXPECT_TRUE(span_bits_equal(snapshot(B1), snapshot(B2))) << "solutions differ";
}

// posv, then potrs and trsv with its factors, on right-hand sides stored as
// `rhs_kind`: residuals within the bounds, nothing written outside the
// systems, posv equal to the bit to the fixed-size Generic call on each
// matrix alone, and potrs to posv.
template <class C>
void expect_variable_solves(Kind kind, Kind rhs_kind) {
  using T = typename C::scalar;
  using L = typename C::layout;
  SCOPED_TRACE(std::string(name_of(kind)) + " matrices, " + name_of(rhs_kind) + " rhs");
  const int nrhs = 2;
  const std::vector<int> orders = random_orders(kVarBatch, kVarMax, 1);
  const std::vector<SpdBatch> s = make_matrices<T>(orders, 100);
  const std::vector<Matrix> images = images_of<C>(s);
  std::vector<Matrix> rhs;
  for (int i = 0; i < kVarBatch; ++i) rhs.push_back(make_rhs<T>(orders[i], nrhs, 1, i)[0]);
  const std::vector<bool> all(kVarBatch, true);
  const OrderView n = make_orders(orders);
  const batchol::Options opts = options(C::uplo, batchol::Path::Auto);

  VarStorage<T, L> A(kind, kVarMax, orders, 0, true);
  A.upload(images);
  VarStorage<T, L> B(rhs_kind, kVarMax, orders, nrhs, false);
  B.upload(rhs);
  const auto b_before = B.raw();
  InfoView info = make_info(kVarBatch, -99);
  A.with_matrices(n, [&](const auto& vA) {
    B.with_rhs([&](const auto& vB) { batchol::posv(Exec(), vA, vB, info, opts); });
  });
  EXPECT_EQ(download_info(info), std::vector<int>(kVarBatch, 0));
  const auto factors = A.raw(), x = B.raw();
  EXPECT_EQ(first_change_outside(b_before, x, writable_positions(B, orders, all, C::uplo, true)),
            -1)
      << "posv wrote outside the right-hand sides";
  EXPECT_TRUE(
      every_item(kVarBatch, [&](int i) { return solution_ok<T>(s[i], 0, rhs[i], B.item(x, i)); }));
  EXPECT_TRUE(every_item(kVarBatch, [&](int i) -> ::testing::AssertionResult {
    Matrix factor, b = rhs[i];
    int code = -99;
    fixed_generic_posv<C>(images[i], factor, b, code);
    if (!matrix_bits_equal(lower_of(factor, C::uplo), lower_of(A.item(factors, i), C::uplo)))
      return ::testing::AssertionFailure() << "factor differs from the fixed-size Generic call's";
    if (!matrix_bits_equal(b, B.item(x, i)))
      return ::testing::AssertionFailure() << "solution differs from the fixed-size Generic call's";
    return ::testing::AssertionSuccess();
  }));

  // potrs with posv's factors: posv's solution, to the bit.
  B.upload(rhs);
  A.with_matrices(n, [&](const auto& vA) {
    B.with_rhs([&](const auto& vB) { batchol::potrs(Exec(), vA, vB, opts); });
  });
  EXPECT_EQ(first_change_outside(A.raw(), factors, std::vector<char>(A.span(), 0)), -1)
      << "potrs wrote to A";
  const auto x2 = B.raw();
  EXPECT_TRUE(every_item(kVarBatch, [&](int i) -> ::testing::AssertionResult {
    if (matrix_bits_equal(B.item(x2, i), B.item(x, i))) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "potrs differs from posv";
  }));

  // trsv with the factors, both triangles' transposes.
  for (batchol::Trans trans : {batchol::Trans::NoTranspose, batchol::Trans::Transpose}) {
    SCOPED_TRACE(name_of(trans));
    std::vector<Matrix> b1;
    for (const Matrix& r : rhs) b1.push_back(leading_columns(r, 1));
    VarStorage<T, L> b(rhs_kind, kVarMax, orders, 1, false, 2);
    b.upload(b1);
    const auto before = b.raw();
    A.with_matrices(n, [&](const auto& vA) {
      b.with_rhs([&](const auto& vb) { batchol::trsv(Exec(), C::uplo, trans, vA, vb, opts); });
    });
    const auto y = b.raw();
    EXPECT_EQ(first_change_outside(before, y, writable_positions(b, orders, all, C::uplo, true)),
              -1);
    EXPECT_TRUE(every_item(kVarBatch, [&](int i) {
      const Matrix l = lower_of(A.item(factors, i), C::uplo);
      // op(T): T is L for Lower and L^T for Upper.
      const bool lower_op = (C::uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
      return within("trsv residual",
                    solve_residual(lower_op ? l : transpose(l), b.item(y, i), b1[i]),
                    backward_tol<T>(orders[i]));
    }));
  }
}

// Defects planted in the middle of a good batch: an indefinite matrix and a
// NaN (info j), orders -1 and nmax + 1 (info_bad_order), and in packed
// storage offsets outside the values (info_bad_matrix) and right-hand sides
// outside theirs (info_bad_rhs). The others are solved; the right-hand sides
// of every failed system, and every invalid matrix, stay as they were.
template <class C>
void expect_variable_defects(Kind kind) {
  using T = typename C::scalar;
  using L = typename C::layout;
  SCOPED_TRACE(name_of(kind));
  const int nmax = 20, batch = 16, nrhs = 2;
  std::vector<int> stored = random_orders(batch, nmax, 2);
  for (int& x : stored) x = std::max(x, 3);
  stored[4] = 0;
  const std::vector<SpdBatch> s = make_matrices<T>(stored, 200);
  std::vector<Matrix> images = images_of<C>(s);
  std::vector<int> orders = stored, want(batch, 0);
  // Indefinite at the middle column, and a NaN on the diagonal of the last.
  const std::vector<BadMatrix> bad3 = defects_of(s[3].a[0]), bad5 = defects_of(s[5].a[0]);
  const BadMatrix& neg = bad3[4];  // negative pivot at the middle column
  const BadMatrix& nan = bad5[9];  // NaN on the diagonal at the last column
  ASSERT_EQ(neg.what.rfind("negative pivot", 0), 0u) << neg.what;
  ASSERT_EQ(nan.what.rfind("NaN on the diagonal", 0), 0u) << nan.what;
  images[3] = image_of(neg.a, C::uplo, kPoison);
  want[3] = neg.info;
  images[5] = image_of(nan.a, C::uplo, kPoison);
  want[5] = nan.info;
  orders[7] = -1;
  want[7] = batchol::info_bad_order;
  orders[8] = nmax + 1;
  want[8] = batchol::info_bad_order;
  VarStorage<T, L> A(kind, nmax, stored, 0, true);
  VarStorage<T, L> B(kind, nmax, stored, nrhs, false);
  if (kind == Kind::Packed) {
    A.set_offset(9, -1);
    want[9] = batchol::info_bad_matrix;
    A.set_offset(10, A.packed_size() - std::int64_t(stored[10]) * stored[10] + 1);
    want[10] = batchol::info_bad_matrix;
    B.set_offset(11, B.packed_size() - std::int64_t(stored[11]) * nrhs + 1);
    want[11] = batchol::info_bad_rhs;
  }
  const OrderView n = make_orders(orders);
  std::vector<Matrix> rhs;
  for (int i = 0; i < batch; ++i) rhs.push_back(make_rhs<T>(stored[i], nrhs, 1, i)[0]);
  const batchol::Options opts = options(C::uplo, batchol::Path::Auto);
  // potrf reads no right-hand sides: matrix 11 is good there.
  std::vector<int> want_potrf = want;
  want_potrf[11] = 0;
  // valid: described validly (B may change); matrix: A may change; ok: solved.
  std::vector<bool> valid(batch), matrix(batch), ok(batch);
  for (int i = 0; i < batch; ++i) {
    valid[i] = want[i] >= 0;
    matrix[i] = want_potrf[i] >= 0;
    ok[i] = want[i] == 0;
  }

  // potrf: the exact codes; invalid matrices untouched.
  A.upload(images);
  const auto before = A.raw();
  InfoView info = make_info(batch, -99);
  A.with_matrices(n, [&](const auto& vA) { batchol::potrf(Exec(), vA, info, opts); });
  EXPECT_EQ(download_info(info), want_potrf) << "potrf";
  const auto factors = A.raw();
  EXPECT_EQ(
      first_change_outside(before, factors, writable_positions(A, stored, matrix, C::uplo, false)),
      -1);
  EXPECT_TRUE(every_item(batch, [&](int i) {
    return want_potrf[i] == 0 ? factor_ok<T>(s[i], 0, lower_of(A.item(factors, i), C::uplo))
                              : ::testing::AssertionSuccess();
  }));

  // posv: the same codes; failed systems keep their right-hand sides.
  A.upload(images);
  B.upload(rhs);
  const auto b_before = B.raw();
  Kokkos::deep_copy(info, -99);
  A.with_matrices(n, [&](const auto& vA) {
    B.with_rhs([&](const auto& vB) { batchol::posv(Exec(), vA, vB, info, opts); });
  });
  EXPECT_EQ(download_info(info), want) << "posv";
  const auto x = B.raw();
  EXPECT_EQ(first_change_outside(b_before, x, writable_positions(B, stored, ok, C::uplo, true)), -1)
      << "posv wrote to the right-hand sides of a failed system";
  EXPECT_TRUE(every_item(batch, [&](int i) {
    return ok[i] ? solution_ok<T>(s[i], 0, rhs[i], B.item(x, i)) : ::testing::AssertionSuccess();
  }));

  // potrs and trsv (no info): systems with an invalid description keep their
  // right-hand sides.
  B.upload(rhs);
  A.with_matrices(n, [&](const auto& vA) {
    B.with_rhs([&](const auto& vB) { batchol::potrs(Exec(), vA, vB, opts); });
  });
  EXPECT_EQ(
      first_change_outside(b_before, B.raw(), writable_positions(B, stored, valid, C::uplo, true)),
      -1)
      << "potrs wrote to the right-hand sides of an invalid system";
  std::vector<Matrix> b1;
  for (const Matrix& r : rhs) b1.push_back(leading_columns(r, 1));
  VarStorage<T, L> b(kind, nmax, stored, 1, false, 2);
  b.upload(b1);
  const auto b1_before = b.raw();
  A.with_matrices(n, [&](const auto& vA) {
    b.with_rhs([&](const auto& vb) {
      batchol::trsv(Exec(), C::uplo, batchol::Trans::Transpose, vA, vb, opts);
    });
  });
  EXPECT_EQ(first_change_outside(b1_before, b.raw(),
                                 writable_positions(b, stored, matrix, C::uplo, true)),
            -1)
      << "trsv wrote to the right-hand side of an invalid system";
}

}  // namespace batchol_test

#endif
