// The vendor BLAS in the library, for one large matrix only
// (Batchol_CudaLarge.cuh, Batchol_CudaLargeSolve.cuh), in builds with
// Batchol_ENABLE_CUBLAS (BATCHOL_CUBLAS defined): the factorization's
// trailing update as cuBLAS's dsyrk, and potrs with many right-hand sides as
// two dtrsm (strsm) calls.
//
// Why: these are large dense products, where cuBLAS is faster than the
// library's kernels. The update runs at 43.6-48.1 TFLOP/s on an H200
// against 35.3-38.9 for the library's own kernel (n = 8192-16384, depth
// 512): the factorization takes 5-14 % less time from n = 8192. The solves:
// Batchol_CudaLargeSolve.cuh. Batches keep the library's kernels: they work
// on every matrix in one launch.
//
// One cuBLAS handle per device, created at its first use on that device and
// kept until release_blas() (which the Kokkos layer runs as a finalize hook of
// Kokkos, while the devices still exist), guarded by a mutex while a stream is
// set and the work enqueued. It has no workspace, so that work enqueued on different
// streams never shares one. Creating a handle allocates device memory, which
// a stream being captured into a CUDA graph cannot do: on such a stream, with
// no handle yet, the library's kernels run.
#ifndef BATCHOL_CUDA_BLAS_CUH
#define BATCHOL_CUDA_BLAS_CUH

#include "Batchol_CudaCommon.cuh"

#if defined(BATCHOL_CUBLAS)
#include <cublas_v2.h>

#include <climits>
#include <mutex>
#include <vector>
#endif

namespace batchol::cuda {

#if defined(BATCHOL_CUBLAS)

namespace blas_detail {

inline void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("batchol::cuda: ") + what + ": " +
                             cublasGetStatusString(s));
}

struct Handles {
  std::mutex lock;
  std::vector<cublasHandle_t> of_device;
};
inline Handles& handles() {
  static Handles h;
  return h;
}

// The current device's handle, set to `stream`, held (`guard`) until this
// object goes; h == nullptr where there is none (a capture and no handle yet).
struct On {
  std::unique_lock<std::mutex> guard;
  cublasHandle_t h = nullptr;
  explicit On(cudaStream_t stream) : guard(handles().lock) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    auto& of_device = handles().of_device;
    if (of_device.size() <= std::size_t(device)) of_device.resize(device + 1, nullptr);
    cublasHandle_t& mine = of_device[device];
    if (mine == nullptr) {
      cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
      check(cudaStreamIsCapturing(stream, &capture), "cudaStreamIsCapturing");
      if (capture != cudaStreamCaptureStatusNone) return;
      check_blas(cublasCreate(&mine), "cublasCreate");
      check_blas(cublasSetWorkspace(mine, nullptr, 0), "cublasSetWorkspace");
    }
    check_blas(cublasSetStream(mine, stream), "cublasSetStream");
    h = mine;
  }
};

}  // namespace blas_detail

inline constexpr bool has_blas = true;

// Destroys every handle; a later use creates a new one.
inline void release_blas() {
  auto& all = blas_detail::handles();
  const std::lock_guard<std::mutex> guard(all.lock);
  for (cublasHandle_t& h : all.of_device) {
    if (h != nullptr) cublasDestroy(h);  // at finalize: nothing left to report an error to
    h = nullptr;
  }
}

// Enqueues, on `stream`, M(r, c) -= sum_{k0 <= k < k0 + nk} M(r, k) M(c, k)
// for r0 <= c <= r < r0 + nr: the lower triangle of one matrix stored
// column-major (CM) or row-major with leading dimension ld. false where it
// did not (a stream under capture and no handle yet): the caller updates.
template <bool CM>
bool blas_update(cudaStream_t stream, double* M, std::int64_t ld, int r0, int nr, int k0, int nk) {
  if (ld > INT_MAX) return false;  // cuBLAS's int leading dimensions
  const blas_detail::On blas(stream);
  if (blas.h == nullptr) return false;
  if (nr <= 0 || nk <= 0) return true;
  const double minus_one = -1.0, one = 1.0;
  // Row-major lower is column-major upper: the same update, transposed.
  const std::int64_t a = CM ? r0 + k0 * ld : r0 * ld + k0, c = r0 + r0 * ld;
  blas_detail::check_blas(cublasDsyrk(blas.h, CM ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                                      CM ? CUBLAS_OP_N : CUBLAS_OP_T, nr, nk, &minus_one, M + a,
                                      int(ld), &one, M + c, int(ld)),
                          "cublasDsyrk");
  return true;
}

namespace blas_detail {
inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t fill,
                           cublasOperation_t op, int m, int k, const double* one, const double* L,
                           int ld, double* B, int ldb) {
  return cublasDtrsm(h, side, fill, op, CUBLAS_DIAG_NON_UNIT, m, k, one, L, ld, B, ldb);
}
inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t fill,
                           cublasOperation_t op, int m, int k, const float* one, const float* L,
                           int ld, float* B, int ldb) {
  return cublasStrsm(h, side, fill, op, CUBLAS_DIAG_NON_UNIT, m, k, one, L, ld, B, ldb);
}
}  // namespace blas_detail

// Enqueues potrs's two solves, L Y = B then L^T X = Y, on `stream`: L the
// lower triangle of one order-n matrix stored column-major (CM) or row-major
// with leading dimension ld, B (n x nrhs) column-major (bcm) or row-major
// with leading dimension ldb. false where it did not (as blas_update).
template <bool CM, class T>
bool blas_solve(cudaStream_t stream, const T* L, std::int64_t ld, int n, T* B, std::int64_t ldb,
                bool bcm, int nrhs) {
  if (ld > INT_MAX || ldb > INT_MAX) return false;
  const blas_detail::On blas(stream);
  if (blas.h == nullptr) return false;
  const T one = 1;
  // cuBLAS sees L (CM) or U = L^T (row-major), and B or, row-major, B^T: a
  // solve from the left with L becomes one from the right with L^T.
  const cublasFillMode_t fill = CM ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const cublasSideMode_t side = bcm ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  const int m = bcm ? n : nrhs, k = bcm ? nrhs : n;
  for (const bool first : {true, false}) {
    // The operation with L first (L, or L^T from the right), then with L^T.
    const bool with_l = first == bcm;
    const cublasOperation_t op = with_l == CM ? CUBLAS_OP_N : CUBLAS_OP_T;
    blas_detail::check_blas(
        blas_detail::trsm(blas.h, side, fill, op, m, k, &one, L, int(ld), B, int(ldb)),
        "cublas<t>trsm");
  }
  return true;
}

#else

inline constexpr bool has_blas = false;

inline void release_blas() {}

template <bool CM>
bool blas_update(cudaStream_t, double*, std::int64_t, int, int, int, int) {
  return false;
}
template <bool CM, class T>
bool blas_solve(cudaStream_t, const T*, std::int64_t, int, T*, std::int64_t, bool, int) {
  return false;
}

#endif

}  // namespace batchol::cuda

#endif
