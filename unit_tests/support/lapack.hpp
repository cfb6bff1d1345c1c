// Reference LAPACK and BLAS (liblapack), declared here rather than through a
// C header that may not be installed. Results are returned as double Matrix objects.
#ifndef BATCHOL_TEST_LAPACK_HPP
#define BATCHOL_TEST_LAPACK_HPP

#include "matrix.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

// gfortran passes the length of each CHARACTER argument as a trailing hidden
// size_t; passing it explicitly keeps the call correct when the library was
// built with tail-call optimizations that rely on it (harmless elsewhere).
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info, std::size_t);
void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda,
             float* b, const int* ldb, int* info, std::size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotri_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
void dsposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda,
             const double* b, const int* ldb, double* x, const int* ldx, double* work, float* swork,
             int* iter, int* info, std::size_t);
void dtrsv_(const char* uplo, const char* trans, const char* diag, const int* n, const double* a,
            const int* lda, double* x, const int* incx, std::size_t, std::size_t, std::size_t);
void strsv_(const char* uplo, const char* trans, const char* diag, const int* n, const float* a,
            const int* lda, float* x, const int* incx, std::size_t, std::size_t, std::size_t);
}

namespace batchol_test {

inline void xpotrf(const char* u, const int* n, double* a, const int* lda, int* info) {
  dpotrf_(u, n, a, lda, info, 1);
}
inline void xpotrf(const char* u, const int* n, float* a, const int* lda, int* info) {
  spotrf_(u, n, a, lda, info, 1);
}
inline void xpotrs(const char* u, const int* n, const int* nrhs, const double* a, const int* lda,
                   double* b, const int* ldb, int* info) {
  dpotrs_(u, n, nrhs, a, lda, b, ldb, info, 1);
}
inline void xpotrs(const char* u, const int* n, const int* nrhs, const float* a, const int* lda,
                   float* b, const int* ldb, int* info) {
  spotrs_(u, n, nrhs, a, lda, b, ldb, info, 1);
}
inline void xpotri(const char* u, const int* n, double* a, const int* lda, int* info) {
  dpotri_(u, n, a, lda, info, 1);
}
inline void xpotri(const char* u, const int* n, float* a, const int* lda, int* info) {
  spotri_(u, n, a, lda, info, 1);
}

inline void xtrsv(const char* t, const int* n, const double* a, const int* lda, double* x) {
  const int inc = 1;
  dtrsv_("L", t, "N", n, a, lda, x, &inc, 1, 1, 1);
}
inline void xtrsv(const char* t, const int* n, const float* a, const int* lda, float* x) {
  const int inc = 1;
  strsv_("L", t, "N", n, a, lda, x, &inc, 1, 1, 1);
}

template <class T>
std::vector<T> to_scalar(const Matrix& m) {
  std::vector<T> out(m.v.size());
  for (std::size_t i = 0; i < m.v.size(); ++i) out[i] = static_cast<T>(m.v[i]);
  return out;
}

inline Matrix from_scalar(int rows, int cols, const float* p) {
  Matrix m(rows, cols);
  for (std::size_t i = 0; i < m.v.size(); ++i) m.v[i] = p[i];
  return m;
}
inline Matrix from_scalar(int rows, int cols, const double* p) {
  Matrix m(rows, cols);
  for (std::size_t i = 0; i < m.v.size(); ++i) m.v[i] = p[i];
  return m;
}

// LAPACK's ?potrf in precision T on the lower triangle of the symmetric
// matrix `a`. Returns info; `lower` receives L (zero above the diagonal).
template <class T>
int lapack_potrf(const Matrix& a, Matrix& lower) {
  const int n = a.rows, lda = std::max(1, n);
  std::vector<T> w = to_scalar<T>(a);
  int info = 0;
  xpotrf("L", &n, w.data(), &lda, &info);
  lower = from_scalar(n, n, w.data());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) lower(i, j) = 0;
  return info;
}

// LAPACK's ?potrs in precision T with the lower factor `lower`.
template <class T>
Matrix lapack_potrs(const Matrix& lower, const Matrix& b) {
  const int n = lower.rows, nrhs = b.cols, ld = std::max(1, n);
  std::vector<T> l = to_scalar<T>(lower), x = to_scalar<T>(b);
  int info = 0;
  if (n > 0 && nrhs > 0) xpotrs("L", &n, &nrhs, l.data(), &ld, x.data(), &ld, &info);
  return from_scalar(n, nrhs, x.data());
}

// LAPACK's ?potri in precision T from the lower factor `lower`: the full
// symmetric inverse (both triangles). Returns info.
template <class T>
int lapack_potri(const Matrix& lower, Matrix& inverse) {
  const int n = lower.rows, ld = std::max(1, n);
  std::vector<T> w = to_scalar<T>(lower);
  int info = 0;
  if (n > 0) xpotri("L", &n, w.data(), &ld, &info);
  inverse = from_scalar(n, n, w.data());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) inverse(i, j) = inverse(j, i);
  return info;
}

// BLAS ?trsv in precision T: L x = b (transpose false) or L^T x = b with the
// lower triangle of `lower`, for the first column of b.
template <class T>
Matrix blas_trsv(const Matrix& lower, bool transpose, const Matrix& b) {
  const int n = lower.rows, ld = std::max(1, n);
  std::vector<T> l = to_scalar<T>(lower), x = to_scalar<T>(b);
  if (n > 0) xtrsv(transpose ? "T" : "N", &n, l.data(), &ld, x.data());
  return from_scalar(n, 1, x.data());
}

// LAPACK dsposv on the symmetric a (lower triangle read) and b: the solution,
// iter and info.
struct DsposvResult {
  Matrix x;
  int iter = 0, info = 0;
};
inline DsposvResult lapack_dsposv(const Matrix& a, const Matrix& b) {
  const int n = a.rows, nrhs = b.cols, ld = std::max(n, 1);
  std::vector<double> av(a.v), work(std::size_t(n) * std::max(nrhs, 1) + 1);
  std::vector<float> swork(std::size_t(n) * (n + std::max(nrhs, 1)) + 1);
  DsposvResult r;
  r.x = Matrix(n, nrhs);
  dsposv_("L", &n, &nrhs, av.data(), &ld, b.v.data(), &ld, r.x.v.data(), &ld, work.data(),
          swork.data(), &r.iter, &r.info, 1);
  return r;
}

}  // namespace batchol_test

#endif
