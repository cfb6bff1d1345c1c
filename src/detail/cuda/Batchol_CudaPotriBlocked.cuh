// potri on the Cuda path for the larger orders: inv(A) = inv(L)^T inv(L)
// from the factor potrf left in A, in place, a block of threads per matrix
// and register tiles, where a thread per column (Batchol_CudaPotri.cuh)
// leaves most of a block idle: its first columns carry most of the work,
// and each step there does one multiply-add for two loads from shared
// memory.
//
// The matrix's lower triangle is staged in shared memory, its rows packed
// (row i at i (i + 1) / 2): a double matrix of 128 takes 66 KB, three blocks
// per SM, where the whole square took one. It is padded to an order N that
// is a multiple of 16 with the identity, whose inverse is itself, so that
// the loops need no bounds. Then, in place:
//   1. the inverses of the 16 x 16 diagonal blocks, a thread per column
//      (forward substitution of L x = e_c, unrolled: the column in
//      registers);
//   2. the block columns from the last but one to the first, as LAPACK's
//      ?trtri: with L = [L11 0; L21 L22] and W22 = inv(L22) already in
//      place, W21 = -(W22 L21) W11, each product in 2 x 4 tiles;
//   3. inv(A)(i, j) = sum over k >= i of W(k, i) W(k, j) for i >= j, in 4 x 4
//      tiles, stored from the registers: W stays in shared memory.
// Each 16 FMA of a tile in step 3 read 8 elements from shared memory (a
// thread per column: 1 for 2). The tiles of step 3 differ in length (those
// of the first rows sum over all of N): they go to the threads in order of
// length, every other round reversed, so that each thread gets long and
// short ones.
//
// LAPACK's ?potri computes the same products in another order: the results
// agree to rounding, not bit for bit.
#ifndef BATCHOL_CUDA_POTRI_BLOCKED_CUH
#define BATCHOL_CUDA_POTRI_BLOCKED_CUH

#include "Batchol_CudaCommon.cuh"

#include <climits>
#include <cstddef>

namespace batchol::cuda {

namespace potri_blocked_detail {

inline constexpr int kThreads = 256;
inline constexpr int kBlock = 16;  // order of the diagonal blocks (step 1)

// The padded order.
__host__ __device__ inline int padded(int n) {
  return (n + kBlock - 1) / kBlock * kBlock;
}

// Where row i of the packed triangle starts.
__device__ __forceinline__ int row_at(int i) {
  return i * (i + 1) / 2;
}

// A 2 x 4 tile of step 2 back into its two rows, from column c0.
template <class T>
__device__ __forceinline__ void put_tile(T* x0, T* x1, int c0, const T (&x)[2][4]) {
#pragma unroll
  for (int b = 0; b < 4; ++b) {
    x0[c0 + b] = x[0][b];
    x1[c0 + b] = x[1][b];
  }
}

// Bytes of dynamic shared memory: the packed triangle, then the reciprocals
// of its diagonal.
template <class T>
std::size_t shared_bytes(int n) {
  const int N = padded(n);
  return (std::size_t(N) * (N + 1) / 2 + N) * sizeof(T);
}

}  // namespace potri_blocked_detail

template <class T>
__global__ void __launch_bounds__(potri_blocked_detail::kThreads)
    potri_blocked_kernel(const Problem<T> p) {
  using namespace potri_blocked_detail;
  extern __shared__ __align__(16) unsigned char potri_blocked_shared[];
  __shared__ int bad;
  const int n = p.n, N = padded(n), tid = threadIdx.x;
  T* const s = reinterpret_cast<T*>(potri_blocked_shared);
  T* const dinv = s + N * (N + 1) / 2;
  T* const a = p.a + std::int64_t(blockIdx.x) * p.a_bs;
  const bool col_major = p.a_rs == 1;  // load in memory order

  if (tid == 0) bad = INT_MAX;
  // kLoads loads in flight per thread before their stores: at the larger
  // orders few blocks share an SM, and nothing else would cover the latency.
  constexpr int kLoads = 8;
  for (int e0 = tid; e0 < N * N; e0 += kLoads * kThreads) {
    T v[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int e = e0 + u * kThreads;
      const int i = col_major ? e % N : e / N, c = col_major ? e / N : e % N;
      v[u] = i == c ? T(1) : T(0);
      if (e < N * N && i < n && c <= i) v[u] = a[i * p.a_rs + c * p.a_cs];
    }
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int e = e0 + u * kThreads;
      const int i = col_major ? e % N : e / N, c = col_major ? e / N : e % N;
      if (e < N * N && c <= i) s[row_at(i) + c] = v[u];
    }
  }
  __syncthreads();
  for (int j = tid; j < N; j += kThreads) {
    const T d = s[row_at(j) + j];
    dinv[j] = T(1) / d;
    if (d == T(0)) atomicMin(&bad, j + 1);
  }
  __syncthreads();
  // A zero on the diagonal: the matrix keeps its input.
  if (bad != INT_MAX) {
    if (tid == 0) p.info[std::int64_t(blockIdx.x) * p.info_s] = bad;
    return;
  }

  // 1. The diagonal blocks' inverses, thread c's column in registers (w[r]:
  // row b0 + r), stored once every thread has read its block's L.
  {
    const int c = tid < N ? tid : N - 1, b0 = c & ~(kBlock - 1), cr = c - b0;
    T w[kBlock];
#pragma unroll
    for (int r = 0; r < kBlock; ++r) {
      const T* const lr = s + row_at(b0 + r) + b0;
      T acc = T(0);
#pragma unroll
      for (int k = 0; k < r; ++k)
        if (k >= cr) acc += lr[k] * w[k];
      w[r] = r < cr ? T(0) : r == cr ? dinv[c] : -acc * dinv[b0 + r];
    }
    __syncthreads();
    if (tid < N) {
#pragma unroll
      for (int r = 0; r < kBlock; ++r)
        if (r >= cr) s[row_at(b0 + r) + c] = w[r];
    }
  }
  __syncthreads();

  // 2. The block columns, W21 = -(W22 L21) W11, in 2 x 4 tiles.
  for (int b0 = N - 2 * kBlock; b0 >= 0; b0 -= kBlock) {
    const int r0 = b0 + kBlock, tiles = (N - r0) / 2 * (kBlock / 4);
    const bool active = tid < tiles;
    const int i0 = r0 + 2 * (tid / (kBlock / 4)), c0 = b0 + 4 * (tid % (kBlock / 4));
    T* const x0 = s + row_at(i0);
    T* const x1 = s + row_at(i0 + 1);
    T x[2][4] = {};
    if (active) {
      // W22's rows end at their diagonal.
#pragma unroll 4
      for (int k = r0; k <= i0 + 1; ++k) {
        const T w0 = k <= i0 ? x0[k] : T(0), w1 = x1[k];
        const T* const lk = s + row_at(k) + c0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          x[0][b] += w0 * lk[b];
          x[1][b] += w1 * lk[b];
        }
      }
    }
    __syncthreads();  // every read of L21 before it is overwritten
    if (active) put_tile(x0, x1, c0, x);
    __syncthreads();
    T y[2][4] = {};
    if (active) {
      // W11's columns start at their diagonal.
#pragma unroll 4
      for (int k = c0; k < b0 + kBlock; ++k) {
        const T v0 = x0[k], v1 = x1[k];
        const T* const wk = s + row_at(k) + c0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const T w = c0 + b <= k ? wk[b] : T(0);
          y[0][b] -= v0 * w;
          y[1][b] -= v1 * w;
        }
      }
    }
    __syncthreads();
    if (active) put_tile(x0, x1, c0, y);
    __syncthreads();
  }

  // 3. inv(A) = W^T W, the lower triangle's 4 x 4 tiles in row order (the
  // longest first), stored from the registers. Tile J of row block I has the
  // rows 4I..4I+3 and the columns J + q (I + 1), q = 0..3, of the 4I + 4
  // up to the row block's diagonal: the neighbouring tiles of a warp read
  // neighbouring elements (no bank conflicts) and store them.
  const int rows4 = N / 4, tiles = rows4 * (rows4 + 1) / 2;
  for (int round = 0; round * kThreads < tiles; ++round) {
    const int t = round * kThreads + (round % 2 == 0 ? tid : kThreads - 1 - tid);
    if (t >= tiles) continue;
    int I = int((sqrtf(8.0f * float(t) + 1.0f) - 1.0f) * 0.5f);
    while (I * (I + 1) / 2 > t) --I;
    while ((I + 1) * (I + 2) / 2 <= t) ++I;
    const int i0 = 4 * I, j0 = t - I * (I + 1) / 2, js = I + 1;
    T acc[4][4] = {};
    // W(k, i) is zero for k < i: the first three rows of W read only the
    // elements on and below their diagonal.
#pragma unroll
    for (int k = i0; k < i0 + 3; ++k) {
      const T* const wk = s + row_at(k);
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const int j = j0 + b * js;
          if (i0 + q <= k && j <= k) acc[q][b] += wk[i0 + q] * wk[j];
        }
    }
#pragma unroll 2
    for (int k = i0 + 3; k < N; ++k) {
      const T* const wk = s + row_at(k);
      T wi[4], wj[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        wi[q] = wk[i0 + q];
        wj[q] = wk[j0 + q * js];
      }
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int b = 0; b < 4; ++b) acc[q][b] += wi[q] * wj[b];
    }
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int b = 0; b < 4; ++b) {
        const int i = i0 + q, j = j0 + b * js;
        if (i >= n || j > i) continue;
        a[i * p.a_rs + j * p.a_cs] = acc[q][b];
        if (p.mirror && j < i) a[j * p.a_rs + i * p.a_cs] = acc[q][b];
      }
  }
  if (tid == 0) p.info[std::int64_t(blockIdx.x) * p.info_s] = 0;
}

// Runs the blocked potri on every matrix of p (1 <= p.n <= 128) on `stream`.
template <class T>
void launch_potri_blocked(const Problem<T>& p, cudaStream_t stream) {
  const std::size_t shm = potri_blocked_detail::shared_bytes<T>(p.n);
  allow_shared(&potri_blocked_kernel<T>, shm, "potri_blocked_kernel shared memory");
  launch_grids(p.batch, "potri_blocked_kernel launch", [&](unsigned nb, std::int64_t b0) {
    Problem<T> q = p;
    q.a += b0 * p.a_bs;
    q.info += b0 * p.info_s;
    q.batch = p.batch - b0;
    potri_blocked_kernel<T><<<nb, potri_blocked_detail::kThreads, shm, stream>>>(q);
  });
}

}  // namespace batchol::cuda

#endif
