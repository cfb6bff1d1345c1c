// posv_mixed with a thread per system, for orders up to mixed_thread_max_n
// and one right-hand side: the same rule as the row kernel
// (Batchol_CudaMixed.cuh) with the order a compile-time constant, so that
// the float factor, the solution and the right-hand side live in registers
// and every loop unrolls. A thread has no partner to wait for, so its
// refinement takes the steps it needs and no more.
//
// Why: with a thread per row, a system of 4 or 8 uses a few lanes of a warp
// for a short time each step, and most instructions go to bookkeeping (5x
// double posv's time at n = 4 on an H200). Here a warp solves 32 systems.
//
// A block's matrices are staged through shared memory (their lower
// triangles, packed by rows with an odd stride per matrix) so that the loads
// are coalesced on either layout; each thread then reads its own matrix from
// there, for the float copy and for every residual.
#ifndef BATCHOL_CUDA_MIXED_THREAD_CUH
#define BATCHOL_CUDA_MIXED_THREAD_CUH

#include "../Batchol_MixedRule.hpp"
#include "Batchol_CudaCommon.cuh"

#include <cmath>

namespace batchol::cuda {

inline constexpr int mixed_thread_max_n = 8;

namespace mixed_thread_detail {

inline constexpr int block = 128;  // threads (systems) per block

// Element (i, c), c <= i, of a lower triangle packed by rows.
__host__ __device__ constexpr int tri(int i, int c) {
  return i * (i + 1) / 2 + c;
}
// Doubles per staged matrix: its triangle, odd so that the threads of a
// warp, each reading the same element of its own matrix, hit distinct banks.
__host__ __device__ constexpr int stride(int n) {
  return tri(n, 0) | 1;
}

// The Cholesky factor of the triangle l (in place: registers, or the
// thread's staged matrix), column by column; rinv[j] = 1 / L(j, j). Returns
// 0, or j + 1 for the first failed pivot: columns before j are then in place
// and the rest is as it was.
template <int N, class S, class Tri>
__device__ int factor(Tri& l, S (&rinv)[N]) {
#pragma unroll
  for (int j = 0; j < N; ++j) {
    S d = l[tri(j, j)];
#pragma unroll
    for (int k = 0; k < j; ++k) d -= l[tri(j, k)] * l[tri(j, k)];
    if (!pivot_ok(d, false)) return j + 1;
    S s, rs;
    pivot_roots(d, false, s, rs);
    l[tri(j, j)] = s;
    rinv[j] = rs;
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
      S v = l[tri(i, j)];
#pragma unroll
      for (int k = 0; k < j; ++k) v -= l[tri(i, k)] * l[tri(j, k)];
      l[tri(i, j)] = v * rs;
    }
  }
  return 0;
}

// L L^T x = v in place.
template <int N, class S, class Tri>
__device__ void substitute(const Tri& l, const S (&rinv)[N], S (&v)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
#pragma unroll
    for (int k = 0; k < i; ++k) v[i] -= l[tri(i, k)] * v[k];
    v[i] *= rinv[i];
  }
#pragma unroll
  for (int i = N - 1; i >= 0; --i) {
#pragma unroll
    for (int k = i + 1; k < N; ++k) v[i] -= l[tri(k, i)] * v[k];
    v[i] *= rinv[i];
  }
}

}  // namespace mixed_thread_detail

// Four blocks per SM: at n = 8 the kernel wants 168 registers; capped at 128
// (ptxas then spills 208 bytes) it ran 1.55x faster, at n = 7 1.2x (H200).
template <int N>
__global__ void __launch_bounds__(mixed_thread_detail::block, 4)
    mixed_thread_kernel(const Problem<double> p) {
  using namespace mixed_thread_detail;
  constexpr int T = tri(N, 0), per = stride(N), nn = N * N;
  __shared__ double staged[block * per];
  const std::int64_t first = std::int64_t(blockIdx.x) * block;
  const std::int64_t me = first + threadIdx.x;
  const bool live = me < p.batch;

  // Stage the block's triangles, in memory order where it helps.
  const bool interleaved = p.a_bs == 1, col_major = p.a_rs == 1;
  for (int idx = threadIdx.x; idx < block * nn; idx += block) {
    const int e = interleaved ? idx / block : idx % nn;  // constant divisors
    const int m = interleaved ? idx % block : idx / nn;
    const int i = col_major ? e % N : e / N, c = col_major ? e / N : e % N;
    if (c <= i && first + m < p.batch)
      staged[m * per + tri(i, c)] = p.a[(first + m) * p.a_bs + i * p.a_rs + c * p.a_cs];
  }
  __syncthreads();
  if (!live) return;
  double* const a = staged + threadIdx.x * per;
  double* const bp = p.b + me * p.b_bs;
  auto sym = [&](int i, int c) { return i >= c ? a[tri(i, c)] : a[tri(c, i)]; };

  double b0[N];
  bool fits = true;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    b0[i] = bp[i * p.b_rs];
    fits = fits && detail::fits_float(b0[i]);
  }
  float lf[T];
#pragma unroll
  for (int t = 0; t < T; ++t) {
    fits = fits && detail::fits_float(a[t]);
    lf[t] = float(a[t]);
  }
  // dsposv's scale: |A|_inf sqrt(n) eps (LAPACK's eps, half of DBL_EPSILON).
  double anrm = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    double s = 0;
#pragma unroll
    for (int c = 0; c < N; ++c) s += fabs(sym(i, c));
    anrm = (s > anrm || s != s) ? s : anrm;
  }
  const double cte = anrm * (DBL_EPSILON / 2) * sqrt(double(N));

  int code = detail::mixed_fallback_overflow;
  double x[N];
  if (fits) {
    float rinvf[N];
    code = detail::mixed_fallback_factor;
    if (factor<N>(lf, rinvf) == 0) {
      float v[N];
#pragma unroll
      for (int i = 0; i < N; ++i) v[i] = float(b0[i]);
      substitute<N>(lf, rinvf, v);
#pragma unroll
      for (int i = 0; i < N; ++i) x[i] = double(v[i]);
      code = detail::mixed_fallback_diverged;
      for (int it = 0; it <= detail::mixed_max_iterations; ++it) {
        // r = b0 - A x in the Generic path's order, and dsposv's test.
        double xn = 0, rn = 0;
        bool big = false;
#pragma unroll
        for (int i = 0; i < N; ++i) {
          double r = b0[i];
#pragma unroll
          for (int c = 0; c < N; ++c) r -= sym(i, c) * x[c];
          xn = fmax(xn, fabs(x[i]));
          rn = (fabs(r) > rn || r != r) ? fabs(r) : rn;
          big = big || !detail::fits_float(r);
          v[i] = float(r);
        }
        if (rn <= xn * cte) {  // false for NaN
          code = it;
          break;
        }
        if (it == detail::mixed_max_iterations) break;
        if (big) {
          code = detail::mixed_fallback_overflow;
          break;
        }
        substitute<N>(lf, rinvf, v);
#pragma unroll
        for (int i = 0; i < N; ++i) x[i] += double(v[i]);
      }
    }
  }

  int info = 0;
  if (code < 0) {
    // The fallback: posv in double, factored where the matrix is staged
    // (its own region: no other thread reads it); A receives the factor
    // (or, on a failed pivot, the columns before it).
    double rinvd[N];
    info = factor<N>(a, rinvd);
    double* const ap = p.a + me * p.a_bs;
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
      for (int c = 0; c <= i; ++c) ap[i * p.a_rs + c * p.a_cs] = a[tri(i, c)];
    if (info == 0) {
#pragma unroll
      for (int i = 0; i < N; ++i) x[i] = b0[i];
      substitute<N>(a, rinvd, x);
    }
  }
  if (info == 0) {
#pragma unroll
    for (int i = 0; i < N; ++i) bp[i * p.b_rs] = x[i];
  }
  p.iter[me * p.iter_s] = code;
  p.info[me * p.info_s] = info;
}

// Runs the kernel of order p.n (1 <= p.n <= mixed_thread_max_n, p.nrhs == 1).
inline void launch_mixed_thread(const Problem<double>& p, cudaStream_t stream) {
  using mixed_thread_detail::block;
  launch_grids((p.batch + block - 1) / block, "mixed_thread_kernel launch",
               [&](unsigned nb, std::int64_t b0) {
                 Problem<double> q = p;
                 const std::int64_t skip = b0 * block;
                 q.a += skip * p.a_bs;
                 q.b += skip * p.b_bs;
                 q.info += skip * p.info_s;
                 q.iter += skip * p.iter_s;
                 q.batch = p.batch - skip;
                 switch (p.n) {
#define BATCHOL_MIXED_THREAD_CASE(N)                     \
  case N:                                                \
    mixed_thread_kernel<N><<<nb, block, 0, stream>>>(q); \
    break;
                   BATCHOL_MIXED_THREAD_CASE(1)
                   BATCHOL_MIXED_THREAD_CASE(2)
                   BATCHOL_MIXED_THREAD_CASE(3)
                   BATCHOL_MIXED_THREAD_CASE(4)
                   BATCHOL_MIXED_THREAD_CASE(5)
                   BATCHOL_MIXED_THREAD_CASE(6)
                   BATCHOL_MIXED_THREAD_CASE(7)
                   BATCHOL_MIXED_THREAD_CASE(8)
#undef BATCHOL_MIXED_THREAD_CASE
                   default:
                     break;
                 }
               });
}

}  // namespace batchol::cuda

#endif
