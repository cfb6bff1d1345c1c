// potri on the Cuda path: inv(A) = inv(L)^T inv(L) from the factor potrf
// left in A, in place, for orders up to potri_max_n: below
// potri_blocked_from a thread per column (this file), from there a block
// of threads per matrix with register tiles (Batchol_CudaPotriBlocked.cuh).
//
// A thread per column: each matrix is staged whole in shared memory (one
// pass over memory in, one out), and each of its columns has a thread:
//   1. inv(L), column c by forward substitution of L x = e_c, row by row:
//      thread c writes its column into row c's upper part, which no other
//      column reads, so the phase has no barrier; the diagonal of inv(L),
//      the reciprocals of L's, replaces L's diagonal (the substitutions read
//      only L's strict lower triangle).
//   2. inv(A)(i, c) = sum over k >= i of inv(L)(k, i) inv(L)(k, c): thread c
//      again, reading only the upper triangle and the diagonal, writing the
//      lower triangle, where L is no longer needed (the diagonal aside).
// The threads of a matrix walk the rows together (bounds uniform over a
// warp): at each step they read one element of the row every thread needs
// (a broadcast) and one of their own, in rows padded to an odd length so
// that consecutive columns' rows fall in distinct banks. A thread whose
// column has not started yet multiplies by zero, which costs little where
// a warp holds 32 consecutive columns. Many small matrices share a block
// (a group of lanes each), so that each block does enough work.
//
// LAPACK's ?potri computes the same two products column by column in
// another order: the results agree to rounding, not bit for bit.
#ifndef BATCHOL_CUDA_POTRI_CUH
#define BATCHOL_CUDA_POTRI_CUH

#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaPotriBlocked.cuh"

#include <algorithm>
#include <climits>

namespace batchol::cuda {

// The largest order the Cuda path's potri takes (the blocked kernel's packed
// double triangle then takes 66 KB of shared memory, three blocks per SM).
inline constexpr int potri_max_n = 128;

// The order from which the blocked kernel is the faster (H200, both layouts
// and precisions): up to n = 40 the two are within a few percent, and the
// blocked kernel pads the order to a multiple of 16, so n = 41..48 costs it
// what n = 48 does while a thread per column doubles its time from 40 to 48.
inline constexpr int potri_blocked_from = 41;

namespace potri_detail {

// Shape of one launch: `tpm` threads per matrix (a power of two >= n up to
// 32, then whole warps), `mpb` matrices per block, staged rows of `pitch`
// elements and `per` elements per staged matrix (its rows, then n more for
// the reciprocal diagonal); both odd, so that consecutive columns' rows and
// consecutive matrices fall in distinct banks.
struct Shape {
  int tpm, mpb, pitch, per;
};

inline Shape shape_of(int n) {
  Shape s;
  s.tpm = threads_per_matrix(n);
  // Blocks of 128 threads or one matrix.
  s.mpb = std::max(1, 128 / s.tpm);
  s.pitch = n | 1;
  s.per = (n * s.pitch + n) | 1;
  return s;
}

// Bytes of dynamic shared memory: the staged matrices, then one int per
// matrix (its info).
template <class T>
std::size_t shared_bytes(const Shape& s) {
  return std::size_t(s.mpb) * s.per * sizeof(T) + s.mpb * sizeof(int);
}

}  // namespace potri_detail

template <class T>
__global__ void potri_kernel(const Problem<T> p, const potri_detail::Shape shape) {
  extern __shared__ __align__(16) unsigned char potri_shared[];
  const int n = p.n, nn = n * n;
  const int mpb = shape.mpb, pitch = shape.pitch, per = shape.per;
  T* const base = reinterpret_cast<T*>(potri_shared);
  int* const bad = reinterpret_cast<int*>(base + std::size_t(mpb) * per);
  const std::int64_t first = std::int64_t(blockIdx.x) * mpb;
  const bool interleaved = p.a_bs == 1;  // matrices fastest: load across them
  const bool col_major = p.a_rs == 1;    // columns contiguous

  // Element `idx` of the block's matrices, in memory order where it helps.
  auto element = [&](int idx, int& m, int& i, int& c) {
    const int e = interleaved ? idx / mpb : idx % nn;
    m = interleaved ? idx % mpb : idx / nn;
    i = col_major ? e % n : e / n;
    c = col_major ? e / n : e % n;
  };

  if (threadIdx.x < mpb) bad[threadIdx.x] = INT_MAX;
  for (int idx = threadIdx.x; idx < mpb * nn; idx += blockDim.x) {
    int m, i, c;
    element(idx, m, i, c);
    if (c <= i && first + m < p.batch)
      base[m * per + i * pitch + c] = p.a[(first + m) * p.a_bs + i * p.a_rs + c * p.a_cs];
  }
  __syncthreads();
  // The reciprocal diagonal, and info: the first zero on the diagonal.
  for (int idx = threadIdx.x; idx < mpb * n; idx += blockDim.x) {
    const int m = idx / n, j = idx % n;
    T* const s = base + m * per;
    const T d = s[j * pitch + j];
    s[n * pitch + j] = T(1) / d;
    if (d == T(0)) atomicMin(&bad[m], j + 1);
  }
  __syncthreads();

  // This thread's matrix and column; threads past the order, the batch or
  // a singular factor compute along (the bounds are uniform) and store nothing.
  const int m = threadIdx.x / shape.tpm, col = threadIdx.x % shape.tpm;
  const bool own = col < n && first + m < p.batch && bad[m] == INT_MAX;
  const int c = col < n ? col : n - 1;
  const int c0 = c & ~31;  // the warp's first column: rows and steps before it are zero
  T* const s = base + m * per;
  T* const dinv = s + n * pitch;
  T* const row_c = s + c * pitch;

  // 1. inv(L): row c's upper part holds column c.
  if (own) row_c[c] = dinv[c];
  for (int i = c0 + 1; i < n; ++i) {
    const T* const row_i = s + i * pitch;
    T s0 = T(0), s1 = T(0);  // two chains: half the dependent adds
    int k = c0;
    for (; k + 1 < i; k += 2) {
      s0 += k >= c ? row_i[k] * row_c[k] : T(0);
      s1 += k + 1 >= c ? row_i[k + 1] * row_c[k + 1] : T(0);
    }
    if (k < i) s0 += k >= c ? row_i[k] * row_c[k] : T(0);
    if (own && i > c) row_c[i] = -(s0 + s1) * dinv[i];
  }
  __syncthreads();

  // 2. inv(A): (i, c) for i >= c into the lower triangle, the diagonal where
  // the reciprocals were (read no more).
  for (int i = c0; i < n; ++i) {
    const T* const row_i = s + i * pitch;
    T s0 = T(0), s1 = T(0);
    int k = i;
    for (; k + 1 < n; k += 2) {
      s0 += row_i[k] * row_c[k];
      s1 += row_i[k + 1] * row_c[k + 1];
    }
    if (k < n) s0 += row_i[k] * row_c[k];
    if (own && i >= c) {
      if (i == c)
        dinv[c] = s0 + s1;
      else
        s[i * pitch + c] = s0 + s1;
    }
  }
  __syncthreads();

  // Store (a matrix with a zero pivot keeps its input), and info.
  for (int idx = threadIdx.x; idx < mpb * nn; idx += blockDim.x) {
    int mm, i, cc;
    element(idx, mm, i, cc);
    if (first + mm >= p.batch || bad[mm] != INT_MAX) continue;
    const T* const sm = base + mm * per;
    T* const a = p.a + (first + mm) * p.a_bs;
    const std::int64_t at = i * p.a_rs + cc * p.a_cs;
    if (cc == i)
      a[at] = sm[n * pitch + i];
    else if (cc < i)
      a[at] = sm[i * pitch + cc];
    else if (p.mirror)
      a[at] = sm[cc * pitch + i];
  }
  if (threadIdx.x < mpb && first + threadIdx.x < p.batch)
    p.info[(first + threadIdx.x) * p.info_s] = bad[threadIdx.x] == INT_MAX ? 0 : bad[threadIdx.x];
}

// Runs the thread-per-column potri on every matrix of p (1 <= p.n <=
// potri_max_n) on `stream`.
template <class T>
void launch_potri_columns(const Problem<T>& p, cudaStream_t stream) {
  const potri_detail::Shape s = potri_detail::shape_of(p.n);
  const std::size_t shm = potri_detail::shared_bytes<T>(s);
  allow_shared(&potri_kernel<T>, shm, "potri_kernel shared memory");
  const unsigned threads = unsigned(s.tpm * s.mpb);
  launch_grids((p.batch + s.mpb - 1) / s.mpb, "potri_kernel launch",
               [&](unsigned nb, std::int64_t b0) {
                 Problem<T> q = p;
                 const std::int64_t skip = b0 * s.mpb;
                 q.a += skip * p.a_bs;
                 q.info += skip * p.info_s;
                 q.batch = p.batch - skip;
                 potri_kernel<T><<<nb, threads, shm, stream>>>(q, s);
               });
}

// Runs potri on every matrix of p (1 <= p.n <= potri_max_n) on `stream`.
template <class T>
void launch_potri(const Problem<T>& p, cudaStream_t stream) {
  if (p.n >= potri_blocked_from)
    launch_potri_blocked(p, stream);
  else
    launch_potri_columns(p, stream);
}

}  // namespace batchol::cuda

#endif
