// The first event of a matrix in the tile and panel kernels, and their rare
// path for subnormal pivots.
//
// Both kernels divide by a pivot d as a product with 1/d (no division in the
// chain of a column). A positive pivot below 1/FLT_MAX (1/DBL_MAX), which is
// subnormal, passes pivot_ok in the exact mode, but its reciprocal overflows
// and the update turns the rest of the matrix into Inf and NaN (0 * Inf). The
// exact mode promises to factor such matrices as the reference does, so the
// pivot test after the factorization records such a column as a "tiny"
// event, the column's owners store only the columns before it (as for a
// failure), and one thread then finishes the matrix from that column with
// the reference's left-looking algorithm (serial_potrf_tail), scaling by
// 1/sqrt(d), which is finite. Testing in the hot loop instead (a branch to a
// division per step) made potrf up to 3x slower on the H100, although never
// taken: the division breaks the unrolled steps. Under fast_math pivot_ok rejects subnormals, so
// the event never occurs there.
#ifndef BATCHOL_CUDA_FIRST_EVENT_CUH
#define BATCHOL_CUDA_FIRST_EVENT_CUH

#include "Batchol_CudaCommon.cuh"

#include <climits>

namespace batchol::cuda {

// One shared word per matrix, kept by atomicMin: the first column whose pivot
// fails (info = c+1) or is tiny, whichever comes first; kNone if neither.
struct FirstEvent {
  static constexpr int kNone = INT_MAX;
  __device__ static int failing(int c) { return 2 * c + 2; }
  __device__ static int tiny(int c) { return 2 * c + 3; }
  __device__ static bool is_tiny(int e) { return e != kNone && (e & 1) != 0; }
  // The column of the event; INT_MAX for none.
  __device__ static int column(int e) { return e == kNone ? INT_MAX : (e >> 1) - 1; }
  // How many leading columns of an order-n matrix come before the event.
  __device__ static int before(int e, int n) { return column(e) < n ? column(e) : n; }
  // The info of a failing event (0 for none; a tiny event's comes from
  // serial_potrf_tail).
  __device__ static int info(int e) { return e == kNone ? 0 : column(e) + 1; }
  // The event of pivot d (with dinv = recip(d)) at column c, or kNone.
  template <class T>
  __device__ static int of(T d, T dinv, int c, bool fast) {
    if (!pivot_ok(d, fast)) return failing(c);
    return dinv > Limits::max(d) ? tiny(c) : kNone;
  }

 private:
  struct Limits {
    __device__ static float max(float) { return FLT_MAX; }
    __device__ static double max(double) { return DBL_MAX; }
  };
};

// An out-of-place factorization's input columns c0..n-1 (lower triangle)
// copied from src into a before serial_potrf_tail continues there: the
// kernels store no column from a tiny event on. One thread.
template <class T>
__device__ void copy_lower_from(const T* src, T* a, std::int64_t rs, std::int64_t cs, int n,
                                int c0) {
  for (int c = c0; c < n; ++c)
    for (int r = c; r < n; ++r) a[r * rs + c * cs] = src[r * rs + c * cs];
}

// Columns c0..n-1 of the matrix at a (lower triangle, strides rs and cs),
// columns < c0 already holding the factor; one thread, left-looking, exact
// (multiplication by the reciprocal of the pivot's square root, which is
// finite for every positive pivot). Returns info: the first failing
// column + 1, or 0. Only columns before a failing one are written; with
// `mirror` and success the strict upper triangle gets the transposed factor.
template <class T>
__device__ int serial_potrf_tail(T* a, std::int64_t rs, std::int64_t cs, int n, int c0,
                                 bool mirror) {
#pragma unroll 1
  for (int j = c0; j < n; ++j) {
    T d = a[j * rs + j * cs];
#pragma unroll 1
    for (int k = 0; k < j; ++k) d -= a[j * rs + k * cs] * a[j * rs + k * cs];
    if (!pivot_ok(d, false)) return j + 1;
    const T s = sqrt(d), inv = T(1) / s;  // s >= sqrt of the smallest subnormal
#pragma unroll 1
    for (int i = j + 1; i < n; ++i) {
      T x = a[i * rs + j * cs];
#pragma unroll 1
      for (int k = 0; k < j; ++k) x -= a[i * rs + k * cs] * a[j * rs + k * cs];
      a[i * rs + j * cs] = x * inv;
    }
    a[j * rs + j * cs] = s;
  }
  if (mirror)
#pragma unroll 1
    for (int j = 0; j < n; ++j)
#pragma unroll 1
      for (int i = j + 1; i < n; ++i) a[j * rs + i * cs] = a[i * rs + j * cs];
  return 0;
}

// B(:, q) <- (L L^T)^{-1} B(:, q), q < nrhs, with the factor at a (as
// above); one thread, for the rare path of a posv that solves from
// registers (the registers do not hold a factor finished by
// serial_potrf_tail).
template <class T>
__device__ void serial_solve(const T* a, std::int64_t rs, std::int64_t cs, int n, T* b,
                             std::int64_t b_rs, std::int64_t b_cs, int nrhs) {
#pragma unroll 1
  for (int q = 0; q < nrhs; ++q) {
    T* const x = b + q * b_cs;
#pragma unroll 1
    for (int i = 0; i < n; ++i) {
      T v = x[i * b_rs];
#pragma unroll 1
      for (int k = 0; k < i; ++k) v -= a[i * rs + k * cs] * x[k * b_rs];
      x[i * b_rs] = v / a[i * rs + i * cs];
    }
#pragma unroll 1
    for (int i = n - 1; i >= 0; --i) {
      T v = x[i * b_rs];
#pragma unroll 1
      for (int k = i + 1; k < n; ++k) v -= a[k * rs + i * cs] * x[k * b_rs];
      x[i * b_rs] = v / a[i * rs + i * cs];
    }
  }
}

}  // namespace batchol::cuda

#endif
