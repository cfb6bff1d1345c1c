// Host reference matrices: column-major, double, with the few operations the
// checks need. Everything the tests compare against is computed in double
// from the values that were actually handed to batchol (already rounded to
// the scalar under test).
#ifndef BATCHOL_TEST_MATRIX_HPP
#define BATCHOL_TEST_MATRIX_HPP

#include <Batchol_Options.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

namespace batchol_test {

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<double> v;

  Matrix() = default;
  Matrix(int r, int c, double fill = 0.0) : rows(r), cols(c), v(std::size_t(r) * c, fill) {}

  double& operator()(int i, int j) { return v[i + std::size_t(j) * rows]; }
  double operator()(int i, int j) const { return v[i + std::size_t(j) * rows]; }
};

inline double frobenius(const Matrix& a) {
  double s = 0;
  for (double x : a.v) s += x * x;
  return std::sqrt(s);
}

inline double frobenius_diff(const Matrix& a, const Matrix& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.v.size(); ++i) s += (a.v[i] - b.v[i]) * (a.v[i] - b.v[i]);
  return std::sqrt(s);
}

// ||a - b||_F / ||b||_F, or the absolute difference when b is zero (n == 0).
inline double relative_diff(const Matrix& a, const Matrix& b) {
  const double nb = frobenius(b);
  const double d = frobenius_diff(a, b);
  return nb > 0 ? d / nb : d;
}

inline Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix c(a.rows, b.cols);
  for (int j = 0; j < b.cols; ++j)
    for (int k = 0; k < a.cols; ++k) {
      const double bkj = b(k, j);
      for (int i = 0; i < a.rows; ++i) c(i, j) += a(i, k) * bkj;
    }
  return c;
}

inline Matrix transpose(const Matrix& a) {
  Matrix t(a.cols, a.rows);
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i) t(j, i) = a(i, j);
  return t;
}

// Where element (i, k), i >= k, of a lower triangle is stored when the
// triangle `uplo` holds it: Upper keeps the transpose.
inline double& stored(Matrix& m, batchol::Uplo uplo, int i, int k) {
  return uplo == batchol::Uplo::Lower ? m(i, k) : m(k, i);
}
inline double stored(const Matrix& m, batchol::Uplo uplo, int i, int k) {
  return uplo == batchol::Uplo::Lower ? m(i, k) : m(k, i);
}

// The lower-triangular L held in triangle `uplo` of a stored n x n image
// (Upper holds L^T); the other triangle is ignored.
inline Matrix lower_of(const Matrix& image, batchol::Uplo uplo) {
  Matrix l(image.rows, image.rows);
  for (int k = 0; k < image.rows; ++k)
    for (int i = k; i < image.rows; ++i) l(i, k) = stored(image, uplo, i, k);
  return l;
}

// The image batchol sees: triangle `uplo` holds the lower triangle of `lower`
// (transposed for Upper), the other strict triangle holds `poison`.
inline Matrix image_of(const Matrix& lower, batchol::Uplo uplo, double poison) {
  Matrix m(lower.rows, lower.rows, poison);
  for (int k = 0; k < lower.rows; ++k)
    for (int i = k; i < lower.rows; ++i) stored(m, uplo, i, k) = lower(i, k);
  return m;
}

// The leading `cols` columns of a matrix.
inline Matrix leading_columns(const Matrix& a, int cols) {
  Matrix c(a.rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < a.rows; ++i) c(i, j) = a(i, j);
  return c;
}

}  // namespace batchol_test

#endif
