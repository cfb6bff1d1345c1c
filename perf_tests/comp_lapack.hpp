// LAPACK ?potrf / ?potrs (and BLAS ?trsv; ?potrf + ?potri for potri; dsposv
// for posv_mixed where the LAPACK has it) called once per matrix inside an
// OpenMP parallel loop: what a CPU code without a batched library does.
// Host execution spaces only. LAPACK wants each matrix contiguous and column
// major: a LayoutRight matrix is that already (its lower triangle is LAPACK's
// upper one), anything else is gathered into a per-thread buffer and scattered
// back, inside the timed loop, as a user would have to.
#ifndef BATCHOL_BENCH_COMP_LAPACK_HPP
#define BATCHOL_BENCH_COMP_LAPACK_HPP

#include <bench_impl.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

// Fortran interfaces (gfortran: trailing hidden lengths of the character arguments).
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info, std::size_t);
void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda,
             float* b, const int* ldb, int* info, std::size_t);
void dtrsv_(const char* uplo, const char* trans, const char* diag, const int* n, const double* a,
            const int* lda, double* x, const int* incx, std::size_t, std::size_t, std::size_t);
void strsv_(const char* uplo, const char* trans, const char* diag, const int* n, const float* a,
            const int* lda, float* x, const int* incx, std::size_t, std::size_t, std::size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotri_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
#if defined(BATCHOL_BENCH_HAVE_DSPOSV)
void dsposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda,
             const double* b, const int* ldb, double* x, const int* ldx, double* work, float* swork,
             int* iter, int* info, std::size_t);
#endif
}

namespace bench {
namespace lapack {

inline void potrf(char u, int n, double* a, int lda, int* info) {
  dpotrf_(&u, &n, a, &lda, info, 1);
}
inline void potrf(char u, int n, float* a, int lda, int* info) {
  spotrf_(&u, &n, a, &lda, info, 1);
}
inline void potrs(char u, int n, int nrhs, const double* a, int lda, double* b, int ldb,
                  int* info) {
  dpotrs_(&u, &n, &nrhs, a, &lda, b, &ldb, info, 1);
}
inline void potrs(char u, int n, int nrhs, const float* a, int lda, float* b, int ldb, int* info) {
  spotrs_(&u, &n, &nrhs, a, &lda, b, &ldb, info, 1);
}
inline void trsv(char u, char t, int n, const double* a, int lda, double* x, int incx) {
  const char d = 'N';
  dtrsv_(&u, &t, &d, &n, a, &lda, x, &incx, 1, 1, 1);
}
inline void trsv(char u, char t, int n, const float* a, int lda, float* x, int incx) {
  const char d = 'N';
  strsv_(&u, &t, &d, &n, a, &lda, x, &incx, 1, 1, 1);
}

inline void potri(char u, int n, double* a, int lda, int* info) {
  dpotri_(&u, &n, a, &lda, info, 1);
}
inline void potri(char u, int n, float* a, int lda, int* info) {
  spotri_(&u, &n, a, &lda, info, 1);
}
#if defined(BATCHOL_BENCH_HAVE_DSPOSV)
inline void dsposv(char u, int n, int nrhs, double* a, int lda, const double* b, int ldb, double* x,
                   int ldx, double* work, float* swork, int* iter, int* info) {
  dsposv_(&u, &n, &nrhs, a, &lda, b, &ldb, x, &ldx, work, swork, iter, info, 1);
}
#endif

}  // namespace lapack

template <class T, class Layout>
class LapackImpl final : public Impl<T, Layout> {
  static constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;

 public:
  std::string name() const override { return "lapack_omp"; }
  bool supports(const Case& c) const override {
    if (!exec_is_host) return false;
    if (c.basic() || c.routine == Routine::Potri) return true;
#if defined(BATCHOL_BENCH_HAVE_DSPOSV)
    if (c.routine == Routine::PosvMixed) return std::is_same_v<T, double>;
#endif
    return false;
  }

  void run(const Exec&, const Case& c, const Slot<T, Layout>& s) const override {
    if constexpr (exec_is_host) run_host(c, s);
  }

 private:
  void run_host(const Case& c, const Slot<T, Layout>& s) const {
    const int n = c.n, nrhs = c.nrhs;
    const std::int64_t batch = c.batch;
    // potri: potrf, then the inverse in place of the factor.
    const bool writes_a =
        c.routine == Routine::Potrf || c.routine == Routine::Posv || c.routine == Routine::Potri;
    const bool solves =
        c.routine == Routine::Potrs || c.routine == Routine::Trsv || c.routine == Routine::Posv;
    // dsposv leaves A as it is (unless it falls back to a double factor,
    // which the benchmark's data never needs): nothing to scatter back.
    const bool mixed = c.routine == Routine::PosvMixed;
    const bool upper_input = c.routine == Routine::Trsv && c.uplo == batchol::Uplo::Upper;
#pragma omp parallel
    {
      std::vector<T> abuf(right ? 0 : std::size_t(n) * n), bbuf(std::size_t(n) * nrhs);
      // dsposv's solution (it does not overwrite B) and its workspaces.
      std::vector<T> xbuf(mixed ? std::size_t(n) * nrhs : 0), work(xbuf.size());
      std::vector<float> swork(mixed ? std::size_t(n) * (n + nrhs) : 0);
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < batch; ++b) {
        // Row-major storage read column-major is the transpose: lower <-> upper.
        T* a = right ? &s.A(b, 0, 0) : abuf.data();
        if (!right)  // gather the triangle that is read
          for (int j = 0; j < n; ++j)
            for (int i = upper_input ? 0 : j; i <= (upper_input ? j : n - 1); ++i)
              abuf[i + std::size_t(j) * n] = s.A(b, i, j);
        const char lo = right ? 'U' : 'L';
        int info = 0;
        if (writes_a) lapack::potrf(lo, n, a, n, &info);
        if (c.routine == Routine::Potri && info == 0) lapack::potri(lo, n, a, n, &info);
        if ((solves || mixed) && info == 0) {
          // Right-hand sides: contiguous column-major only for LayoutRight and one column.
          const bool direct = right && nrhs == 1;
          T* x = direct ? &s.B(b, 0, 0) : bbuf.data();
          if (!direct)
            for (int q = 0; q < nrhs; ++q)
              for (int i = 0; i < n; ++i) bbuf[i + std::size_t(q) * n] = s.B(b, i, q);
          if (c.routine == Routine::Trsv) {
            const bool lower = c.uplo == batchol::Uplo::Lower;
            const bool trans = c.trans == batchol::Trans::Transpose;
            // Transposed storage flips both the triangle and op().
            const char u = (lower != right) ? 'L' : 'U';
            const char t = (trans != right) ? 'T' : 'N';
            lapack::trsv(u, t, n, a, n, x, 1);
          } else if (mixed) {
            solve_mixed(lo, n, nrhs, a, x, xbuf, work, swork, &s.iter(b), &info);
            if (info == 0) std::copy(xbuf.begin(), xbuf.end(), x);
          } else {
            int info2 = 0;
            lapack::potrs(lo, n, nrhs, a, n, x, n, &info2);
          }
          if (!direct && info == 0)
            for (int q = 0; q < nrhs; ++q)
              for (int i = 0; i < n; ++i) s.B(b, i, q) = bbuf[i + std::size_t(q) * n];
        }
        if (writes_a && !right)
          for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) s.A(b, i, j) = abuf[i + std::size_t(j) * n];
        if (writes_a || mixed) s.info(b) = info;
      }
    }
  }

  // dsposv from B (x) into xbuf; double only (the harness registers
  // posv_mixed only there).
  static void solve_mixed([[maybe_unused]] char lo, [[maybe_unused]] int n,
                          [[maybe_unused]] int nrhs, [[maybe_unused]] T* a,
                          [[maybe_unused]] const T* x, [[maybe_unused]] std::vector<T>& xbuf,
                          [[maybe_unused]] std::vector<T>& work,
                          [[maybe_unused]] std::vector<float>& swork, [[maybe_unused]] int* iter,
                          int* info) {
#if defined(BATCHOL_BENCH_HAVE_DSPOSV)
    if constexpr (std::is_same_v<T, double>) {
      lapack::dsposv(lo, n, nrhs, a, n, x, n, xbuf.data(), n, work.data(), swork.data(), iter,
                     info);
      return;
    }
#endif
    *info = -1;  // unreachable: supports() is false without dsposv or in float
  }
};

}  // namespace bench

#endif
