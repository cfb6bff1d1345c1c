// NVIDIA's batched routines on the same data: cuSOLVER potrfBatched /
// potrsBatched (potrs only with nrhs = 1), cuBLAS trsmBatched (trsv, potrs
// as two trsm, and potri as potrfBatched and two trsm on the identity) and
// cuBLAS getrfBatched (LU without pivoting: a null pivot array, as
// for SPD matrices; Kurzak et al. compare against it). CUDA builds
// only. They take arrays of pointers to column-major matrices, so only
// LayoutRight batches (each matrix contiguous) can be given to them; a
// row-major matrix read column-major is its transpose, which flips the triangle
// (and the side of the solve). Every status is checked. Also the helpers the
// competitors that call a routine once per matrix (comp_cuda_xpotrf.hpp,
// comp_cuda_gemm.hpp) share.
#ifndef BATCHOL_BENCH_COMP_CUDA_HPP
#define BATCHOL_BENCH_COMP_CUDA_HPP

#include <bench_impl.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace bench {
namespace cuda {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed, cuBLAS status " +
                             std::to_string(int(s)));
}
inline void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed, cuSOLVER status " +
                             std::to_string(int(s)));
}

struct Handles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  Handles() {
    check(cublasCreate(&blas), "cublasCreate");
    check(cusolverDnCreate(&solver), "cusolverDnCreate");
  }
  ~Handles() {
    cusolverDnDestroy(solver);
    cublasDestroy(blas);
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
};

// Created on first use; release() must run before Kokkos::finalize.
inline std::unique_ptr<Handles>& handle_store() {
  static std::unique_ptr<Handles> h;
  return h;
}
inline Handles& handles(const Exec& exec) {
  auto& h = handle_store();
  if (!h) h = std::make_unique<Handles>();
  check(cublasSetStream(h->blas, exec.cuda_stream()), "cublasSetStream");
  check(cusolverDnSetStream(h->solver, exec.cuda_stream()), "cusolverDnSetStream");
  return *h;
}
inline void release() {
  handle_store().reset();
}

// Precision overloads.
inline cusolverStatus_t potrf_batched(cusolverDnHandle_t h, cublasFillMode_t u, int n, double** a,
                                      int lda, int* info, int batch) {
  return cusolverDnDpotrfBatched(h, u, n, a, lda, info, batch);
}
inline cusolverStatus_t potrf_batched(cusolverDnHandle_t h, cublasFillMode_t u, int n, float** a,
                                      int lda, int* info, int batch) {
  return cusolverDnSpotrfBatched(h, u, n, a, lda, info, batch);
}
inline cusolverStatus_t potrs_batched(cusolverDnHandle_t h, cublasFillMode_t u, int n, int nrhs,
                                      double** a, int lda, double** b, int ldb, int* info,
                                      int batch) {
  return cusolverDnDpotrsBatched(h, u, n, nrhs, a, lda, b, ldb, info, batch);
}
inline cusolverStatus_t potrs_batched(cusolverDnHandle_t h, cublasFillMode_t u, int n, int nrhs,
                                      float** a, int lda, float** b, int ldb, int* info,
                                      int batch) {
  return cusolverDnSpotrsBatched(h, u, n, nrhs, a, lda, b, ldb, info, batch);
}
inline cublasStatus_t trsm_batched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t u,
                                   cublasOperation_t t, int m, int n, const double* alpha,
                                   double** a, int lda, double** b, int ldb, int batch) {
  return cublasDtrsmBatched(h, side, u, t, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b, ldb,
                            batch);
}
inline cublasStatus_t trsm_batched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t u,
                                   cublasOperation_t t, int m, int n, const float* alpha, float** a,
                                   int lda, float** b, int ldb, int batch) {
  return cublasStrsmBatched(h, side, u, t, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b, ldb,
                            batch);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, double** a, int lda, int* piv,
                                    int* info, int batch) {
  return cublasDgetrfBatched(h, n, a, lda, piv, info, batch);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, float** a, int lda, int* piv,
                                    int* info, int batch) {
  return cublasSgetrfBatched(h, n, a, lda, piv, info, batch);
}

inline cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, const double* alpha, const double* a, int lda, const double* beta,
                           const double* b, int ldb, double* c, int ldc) {
  return cublasDgeam(h, ta, tb, m, n, alpha, a, lda, beta, b, ldb, c, ldc);
}
inline cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, const float* alpha, const float* a, int lda, const float* beta,
                           const float* b, int ldb, float* c, int ldc) {
  return cublasSgeam(h, ta, tb, m, n, alpha, a, lda, beta, b, ldb, c, ldc);
}
inline cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, const double* alpha, const double* a, int lda,
                           const double* b, int ldb, const double* beta, double* c, int ldc) {
  return cublasDgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, const float* alpha, const float* a, int lda,
                           const float* b, int ldb, const float* beta, float* c, int ldc) {
  return cublasSgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
constexpr cudaDataType data_type() {
  return std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
}

// The competitors that call a routine once per matrix (cusolver_xpotrf,
// cublas_gemm) run only on batches up to this size: they are meant for one or
// a few large matrices, and over a large batch they would time the launches.
inline constexpr std::int64_t per_matrix_max_batch = 16;

// State the slots of one series share (workspaces), made by the first slot's
// attach() and freed with the series' last slot: at small n the ring holds
// thousands of slots, which should not each hold a workspace. Series are set
// up one at a time, so the previous one is gone when the next is made.
template <class State>
std::weak_ptr<State>& last_state() {
  static std::weak_ptr<State> last;
  return last;
}
template <class State, class Make>
std::shared_ptr<State> series_state(const std::string& key, Make&& make) {
  auto& last = last_state<State>();
  auto s = last.lock();
  if (!s || s->key != key) {
    s = make();
    s->key = key;
    last = s;
  }
  return s;
}

template <class T, class Layout, class State>
struct SharedAux : Slot<T, Layout>::Aux {
  std::shared_ptr<State> state;
};

// Device arrays of pointers to each matrix (and right-hand side) of a slot.
template <class T>
struct PointerFill {
  Kokkos::View<std::uintptr_t*, MemSpace> a_ptr, b_ptr;
  T* a;
  T* b;
  std::int64_t a_stride, b_stride;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    a_ptr(i) = reinterpret_cast<std::uintptr_t>(a + i * a_stride);
    if (b) b_ptr(i) = reinterpret_cast<std::uintptr_t>(b + i * b_stride);
  }
};

template <class T, class Layout>
struct Pointers : Slot<T, Layout>::Aux {
  Kokkos::View<std::uintptr_t*, MemSpace> a_ptr, b_ptr;
  Kokkos::View<int*, MemSpace> dinfo;
  // potri (cusolver_trsm): the right-hand sides, the identity, solved into
  // inv(A) beside A; each matrix contiguous, n x n.
  Kokkos::View<T*, MemSpace> x;
  T** a() const { return reinterpret_cast<T**>(a_ptr.data()); }
  T** b() const { return reinterpret_cast<T**>(b_ptr.data()); }
};

// The identity in each n x n matrix of x.
template <class T>
struct IdentityFill {
  Kokkos::View<T*, MemSpace> x;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const std::int64_t e = k % (n * n);
    x(k) = e / n == e % n ? T(1) : T(0);
  }
};

inline cublasFillMode_t flip_uplo(batchol::Uplo u) {  // a row-major triangle read column-major
  return u == batchol::Uplo::Lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

}  // namespace cuda

// kind: "cusolver" (potrf, potrs nrhs 1, posv), "cusolver_upper" (the same on
// the mirrored triangle), "cublas_trsm" (trsv, potrs), "cublas_getrf" (potrf),
// "cusolver_trsm" (potri: the inverse as a user of cuSOLVER and cuBLAS gets
// it, potrfBatched, then L L^T X = I by two trsmBatched on an identity set up
// in the timed run; X lands beside A and is copied into A, untimed, for the
// check).
//
// Why two cuSOLVER series: the benchmark's matrices hold both triangles, so
// cuSOLVER may factor either. Its upper mode (Batchol's lower triangle,
// read column-major) and its lower mode (Batchol's upper triangle) need not
// run at the same speed, and a fair comparison takes the faster.
template <class T, class Layout>
class CudaLibImpl final : public Impl<T, Layout> {
 public:
  enum class Kind { Cusolver, CusolverUpper, Trsm, Getrf, PotriTrsm };
  explicit CudaLibImpl(Kind k) : kind_(k) {}

  std::string name() const override {
    switch (kind_) {
      case Kind::Cusolver:
        return "cusolver";
      case Kind::CusolverUpper:
        return "cusolver_upper";
      case Kind::Trsm:
        return "cublas_trsm";
      case Kind::Getrf:
        return "cublas_getrf";
      case Kind::PotriTrsm:
        return "cusolver_trsm";
    }
    return "";
  }
  bool supports(const Case& c) const override {
    if (!std::is_same_v<Layout, Kokkos::LayoutRight> || !std::is_same_v<Exec, Kokkos::Cuda>)
      return false;
    if (c.batch > std::int64_t(1) << 30) return false;  // batch counts are int
    switch (kind_) {
      case Kind::Cusolver:
      case Kind::CusolverUpper:
        return c.routine == Routine::Potrf ||
               ((c.routine == Routine::Potrs || c.routine == Routine::Posv) && c.nrhs == 1);
      case Kind::Trsm:
        return c.routine == Routine::Trsv || c.routine == Routine::Potrs;
      case Kind::Getrf:
        return c.routine == Routine::Potrf;
      case Kind::PotriTrsm:
        return c.routine == Routine::Potri;
    }
    return false;
  }
  FactorKind factor_kind() const override {
    return kind_ == Kind::Getrf           ? FactorKind::LUColMajor
           : kind_ == Kind::CusolverUpper ? FactorKind::CholUpper
                                          : FactorKind::CholLower;
  }

  void attach(const Exec& exec, const Case& c, Slot<T, Layout>& s) const override {
    auto p = std::make_shared<cuda::Pointers<T, Layout>>();
    p->a_ptr = Kokkos::View<std::uintptr_t*, MemSpace>("a_ptr", c.batch);
    const bool inverse = kind_ == Kind::PotriTrsm;
    if (c.has_rhs() || inverse)
      p->b_ptr = Kokkos::View<std::uintptr_t*, MemSpace>("b_ptr", c.batch);
    if (inverse)
      p->x = Kokkos::View<T*, MemSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"),
                                        c.batch * c.n * c.n);
    p->dinfo = Kokkos::View<int*, MemSpace>("dinfo", 1);
    T* const b = inverse ? p->x.data() : c.has_rhs() ? s.B.data() : nullptr;
    Kokkos::parallel_for(
        "bench::cuda_pointers",
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, c.batch),
        cuda::PointerFill<T>{p->a_ptr, p->b_ptr, s.A.data(), b, std::int64_t(c.n) * c.n,
                             std::int64_t(c.n) * (inverse ? c.n : c.nrhs)});
    exec.fence();
    s.aux = p;
  }

  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    const auto& p = static_cast<const cuda::Pointers<T, Layout>&>(*s.aux);
    auto& h = cuda::handles(exec);
    const int n = c.n, batch = static_cast<int>(c.batch);
    const T one = 1;
    switch (kind_) {
      case Kind::Cusolver:
      case Kind::CusolverUpper: {
        // Batchol's lower triangle (row-major) is the column-major upper one.
        const cublasFillMode_t fill =
            kind_ == Kind::Cusolver ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        if (c.routine != Routine::Potrs)
          cuda::check(cuda::potrf_batched(h.solver, fill, n, p.a(), n, s.info.data(), batch),
                      "cusolverDn<t>potrfBatched");
        if (c.routine != Routine::Potrf)
          cuda::check(
              cuda::potrs_batched(h.solver, fill, n, 1, p.a(), n, p.b(), n, p.dinfo.data(), batch),
              "cusolverDn<t>potrsBatched");
        break;
      }
      case Kind::Getrf:
        cuda::check(cuda::getrf_batched(h.blas, n, p.a(), n, nullptr, s.info.data(), batch),
                    "cublas<t>getrfBatched");
        break;
      case Kind::PotriTrsm: {
        Kokkos::parallel_for(
            "bench::cuda_identity",
            Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, p.x.extent(0)),
            cuda::IdentityFill<T>{p.x, n});
        // Batchol's lower triangle L, read column-major, is U = L^T, and
        // A = U^T U: U^T Y = I, then U X = Y.
        cuda::check(cuda::potrf_batched(h.solver, CUBLAS_FILL_MODE_UPPER, n, p.a(), n,
                                        s.info.data(), batch),
                    "cusolverDn<t>potrfBatched");
        for (const auto op : {CUBLAS_OP_T, CUBLAS_OP_N})
          cuda::check(cuda::trsm_batched(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, op, n, n,
                                         &one, p.a(), n, p.b(), n, batch),
                      "cublas<t>trsmBatched");
        break;
      }
      case Kind::Trsm:
        if (c.routine == Routine::Trsv) {
          trsm(h.blas, c, c.uplo, c.trans, p, batch, &one);
        } else {  // potrs: L y = b, then L^T x = y
          trsm(h.blas, c, batchol::Uplo::Lower, batchol::Trans::NoTranspose, p, batch, &one);
          trsm(h.blas, c, batchol::Uplo::Lower, batchol::Trans::Transpose, p, batch, &one);
        }
        break;
    }
  }

  // potri: X approximates the symmetric inv(A), so its column-major storage
  // read row-major (its transpose) is an inverse as good.
  void export_result(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    if (kind_ != Kind::PotriTrsm) return;
    const auto& p = static_cast<const cuda::Pointers<T, Layout>&>(*s.aux);
    Kokkos::deep_copy(exec, s.A, Mat3<T, Layout>(p.x.data(), c.batch, c.n, c.n));
  }

 private:
  // op(T) X = B on row-major storage. One column: X is a contiguous vector,
  // solved from the left with the triangle and op() both flipped. Several
  // columns: X is stored as X^T column-major (nrhs x n), so solve from the
  // right: X^T op(T)^T = B^T, with the flipped triangle and op() kept.
  static void trsm(cublasHandle_t h, const Case& c, batchol::Uplo uplo, batchol::Trans trans,
                   const cuda::Pointers<T, Layout>& p, int batch, const T* one) {
    const bool t = trans == batchol::Trans::Transpose;
    if (c.nrhs == 1)
      cuda::check(cuda::trsm_batched(h, CUBLAS_SIDE_LEFT, cuda::flip_uplo(uplo),
                                     t ? CUBLAS_OP_N : CUBLAS_OP_T, c.n, 1, one, p.a(), c.n, p.b(),
                                     c.n, batch),
                  "cublas<t>trsmBatched");
    else
      cuda::check(cuda::trsm_batched(h, CUBLAS_SIDE_RIGHT, cuda::flip_uplo(uplo),
                                     t ? CUBLAS_OP_T : CUBLAS_OP_N, c.nrhs, c.n, one, p.a(), c.n,
                                     p.b(), c.nrhs, batch),
                  "cublas<t>trsmBatched");
  }

  Kind kind_;
};

}  // namespace bench

#endif
