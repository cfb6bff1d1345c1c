// One large float matrix on the whole device: the double-precision
// factorization and solves of Batchol_CudaLarge.cuh and
// Batchol_CudaLargeSolve.cuh on a double copy, the result rounded back.
//
// Why through double: on Hopper the tensor cores' double-precision MMA runs at
// the rate of the plain float FMA units (67 TFLOP/s on an H200), so a float
// kernel could at best match the double one, and there is no exact float MMA
// (TF32 keeps 10 bits of the mantissa). The copies cost two passes over the
// triangle, a few percent of the factorization from n = 1024. The factor is
// that of the double factorization, rounded: as accurate as a float factor
// can be. Where a float factorization would fail the double one fails at the
// same column (a pivot not positive, NaN or Inf); with fast_math a pivot
// below FLT_MIN, which the float kernels flush, is reported as they report
// it. The copy is a stream-ordered allocation of 8 n^2 bytes (potrf) or
// 8 n (n + nrhs) bytes (potrs), freed in stream order. The solves with one
// right-hand side read the float factor directly, and many go to cuBLAS's
// float solves where the build has it (below).
#ifndef BATCHOL_CUDA_LARGE_FLOAT_CUH
#define BATCHOL_CUDA_LARGE_FLOAT_CUH

#include "Batchol_CudaLargeSolve.cuh"

#include <cfloat>
#include <climits>

namespace batchol::cuda {
namespace large_float_detail {

using large_detail::at;

// dst = src over the lower triangle of an order-n matrix, both stored
// column-major (CM) or both row-major; threadIdx.x runs along the unit
// stride.
template <class From, class To, bool CM>
__global__ void __launch_bounds__(256)
    copy_lower(const From* src, std::int64_t lds, To* dst, std::int64_t ldd, int n) {
  const int u = blockIdx.x * 32 + threadIdx.x;  // along the unit stride
  if (u >= n) return;
  for (int v = blockIdx.y * 8 + threadIdx.y; v < n; v += gridDim.y * 8) {
    const int r = CM ? u : v, c = CM ? v : u;
    if (r >= c) dst[at<CM>(ldd, r, c)] = To(src[at<CM>(lds, r, c)]);
  }
}

template <class From, class To, bool CM>
void copy(const From* src, std::int64_t lds, To* dst, std::int64_t ldd, int n,
          cudaStream_t stream) {
  const dim3 grid(unsigned((n + 31) / 32), unsigned(std::min((n + 7) / 8, 4096)));
  copy_lower<From, To, CM><<<grid, dim3(32, 8), 0, stream>>>(src, lds, dst, ldd, n);
  check(cudaGetLastError(), "large float copy launch");
}

// Under fast_math: info = the first column whose pivot L_jj^2 is below
// FLT_MIN, where that comes before the double factorization's failure.
template <bool CM>
__global__ void __launch_bounds__(1024)
    flush_tiny_pivots(const double* L, std::int64_t ld, int n, int* info) {
  __shared__ int first;
  if (threadIdx.x == 0) first = INT_MAX;
  __syncthreads();
  const int failed = *info, end = failed != 0 ? failed - 1 : n;
  for (int j = threadIdx.x; j < end; j += blockDim.x) {
    const double l = L[at<CM>(ld, j, j)];
    if (l * l < double(FLT_MIN)) atomicMin(&first, j);
  }
  __syncthreads();
  if (threadIdx.x == 0 && first != INT_MAX) *info = first + 1;
}

// The double copy w (order n, leading dimension n, stored as p's matrix is)
// of p's matrix, with p's info and options.
template <bool CM>
Problem<double> on_copy(const Problem<float>& p, double* w) {
  Problem<double> q;
  q.batch = 1;
  q.n = p.n;
  q.a = w;
  q.a_bs = std::int64_t(p.n) * p.n;
  q.a_rs = CM ? 1 : p.n;
  q.a_cs = CM ? p.n : 1;
  q.info = p.info;
  q.info_s = p.info_s;
  q.fast_math = p.fast_math;
  q.skip_failed = p.skip_failed;
  return q;
}

template <bool CM>
void potrf(const Problem<float>& p, std::int64_t ld, cudaStream_t stream) {
  const int n = p.n;
  double* w = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&w), sizeof(double) * n * std::size_t(n), stream),
        "large float: cudaMallocAsync");
  copy<float, double, CM>(p.a, ld, w, n, n, stream);
  large_potrf(on_copy<CM>(p, w), stream);
  if (p.fast_math) {
    flush_tiny_pivots<CM><<<1, 1024, 0, stream>>>(w, n, n, p.info);
    check(cudaGetLastError(), "large float pivot launch");
  }
  copy<double, float, CM>(w, n, p.a, ld, n, stream);
  check(cudaFreeAsync(w, stream), "large float: cudaFreeAsync");
}

// potrs: many right-hand sides by cuBLAS's strsm on the float factor as it
// is (large_detail::blas_potrs), one by the flag-passing sweeps reading the
// float factor into double (on a double copy of b); others by the double
// solves on a double copy of the factor and of B.
template <bool CM>
void potrs(const Problem<float>& p, std::int64_t ld, cudaStream_t stream) {
  using large_detail::When;
  if (large_detail::blas_potrs(p, stream)) return;
  const int n = p.n, nrhs = p.nrhs;
  const std::size_t lsize = nrhs == 1 ? 0 : std::size_t(n) * n, bsize = std::size_t(n) * nrhs;
  double* w = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&w), sizeof(double) * (lsize + bsize), stream),
        "large float: cudaMallocAsync");
  double* wb = w + lsize;  // column-major n x nrhs
  large_detail::copy_rhs(p.b, p.b_rs, p.b_cs, wb, 1, n, n, nrhs, p.info, When::Always, stream);
  if (nrhs == 1) {
    large_potrs_one(p, wb, 1, stream);
  } else {
    copy<float, double, CM>(p.a, ld, w, n, n, stream);
    Problem<double> q = on_copy<CM>(p, w);
    q.b = wb;
    q.b_bs = std::int64_t(bsize);
    q.b_rs = 1;
    q.b_cs = n;
    q.nrhs = nrhs;
    large_potrs(q, stream);
  }
  // A skipped system's right-hand sides are not touched.
  large_detail::copy_rhs(static_cast<const double*>(wb), 1, n, p.b, p.b_rs, p.b_cs, n, nrhs, p.info,
                         p.skip_failed ? When::Succeeded : When::Always, stream);
  check(cudaFreeAsync(w, stream), "large float: cudaFreeAsync");
}

}  // namespace large_float_detail

// potrf of the single float matrix of p (large_serves(p)) on `stream`.
inline void large_potrf(const Problem<float>& p, cudaStream_t stream) {
  if (large_column_major(p))
    large_float_detail::potrf<true>(p, large_ld(p), stream);
  else
    large_float_detail::potrf<false>(p, large_ld(p), stream);
}

// potrs of the single float matrix of p (its factor from large_potrf) on
// `stream`; with p.skip_failed, nothing when its info is not 0.
inline void large_potrs(const Problem<float>& p, cudaStream_t stream) {
  if (p.n == 0 || p.nrhs == 0) return;
  if (large_column_major(p))
    large_float_detail::potrs<true>(p, large_ld(p), stream);
  else
    large_float_detail::potrs<false>(p, large_ld(p), stream);
}

}  // namespace batchol::cuda

#endif
