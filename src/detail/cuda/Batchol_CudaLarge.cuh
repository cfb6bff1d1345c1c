// One large matrix on the whole device (double, a batch of one, n above the
// tables): a blocked right-looking factorization whose updates run on the
// tensor cores' double-precision MMA (mma.sync m16n8k4, sm_90 and newer), in
// the spirit of Dong et al. 2014's blocked Cholesky built from batched pieces.
//
// Columns go in groups of G (512, 1024 from n = 24576), each group in blocks
// of 64. For block c of the group that starts at k0 (left-looking inside the
// group, right-looking across groups):
//   1. leaf: the tile kernel factors A(c, c) (Batchol_CudaTileKernel.cuh,
//      16 x 16 threads of 4 x 4 elements), writing its own info cell;
//   2. rows: a thread block per 64 rows below takes the left update
//      A(rows, c) -= A(rows, k0:c) A(c, k0:c)^T (before the leaf has
//      finished: it reads nothing the leaf writes), solves its rows against
//      L(c, c) (two threads per row), and, where its rows are a later
//      diagonal block of the group, updates that block with the columns it
//      just solved, so that the leaf of that block finds it ready.
// After the group, one launch updates the whole trailing matrix with the
// group's columns (SYRK, a 64 x 64 tile per thread block, lower tiles only;
// for one matrix cuBLAS's dsyrk where the build has it, Batchol_CudaBlas.cuh).
// The 64-wide blocks keep the one-block steps short, the deep groups keep the
// trailing update's traffic low. The launches form a chain of programmatic
// dependent launches (launch_chained): each starts while its predecessor
// finishes.
//
// The matrix is the lower triangle with a unit stride: along its rows
// (row-major lower, or column-major upper through the Problem's swap; CM
// false) or along its columns (column-major lower, row-major upper; CM
// true). The product tiles are staged in shared memory k-fastest for the
// first and row-fastest for the second, so that both read global memory in
// whole contiguous runs and feed the MMA without bank conflicts; the other
// accesses go through at<CM>. Failure contract as everywhere: the first failing
// pivot's column in info, the columns before it complete. Each leaf writes
// its own cell of a scratch array (stream-ordered allocation, no host
// synchronization); the rows launch after it moves a failure into info, and
// every later launch returns at once when info names a column at or before
// the first it would write (leaves and cuBLAS's updates run regardless, on
// values no one reads).
#ifndef BATCHOL_CUDA_LARGE_CUH
#define BATCHOL_CUDA_LARGE_CUH

#include "Batchol_CudaBlas.cuh"
#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaTileKernel.cuh"

#include <type_traits>

namespace batchol::cuda {
namespace large_detail {

inline constexpr int NB = 64;       // block: leaf order, tile edge
inline constexpr int BK = 16;       // k per staged slab
inline constexpr int LDS = BK + 4;  // slab row stride: conflict-free fragment loads
inline constexpr int LDK = NB + 4;  // slab k stride, staged row-fastest (CM): the same
inline constexpr int LT = NB + 2;   // stride of the staged leaf factor (even: 16-byte loads)
inline constexpr int XL = NB + 4;   // stride of the staged rows being solved

// The offset of element (r, c) of a matrix with leading dimension ld, stored
// column-major (CM) or row-major.
template <bool CM>
__host__ __device__ __forceinline__ std::int64_t at(std::int64_t ld, std::int64_t r,
                                                    std::int64_t c) {
  return CM ? r + c * ld : r * ld + c;
}

// Thread e's element (i, j) of a 64 x 64 tile walked by consecutive e: j
// fastest for row-major storage, i fastest for column-major, so that
// consecutive threads read consecutive addresses.
template <bool CM>
__device__ __forceinline__ void tile_element(int e, int& i, int& j) {
  i = CM ? e % NB : e / NB;
  j = CM ? e / NB : e % NB;
}

// Accumulators of a 64 x 64 tile: 4 warps of 32 x 32, each 2 x 4 MMA tiles
// of 16 x 8 (4 doubles per thread each).
struct Acc {
  double v[2][4][4];
};

// Copies the first `bytes` (0 to SIZE) of the SIZE bytes at g to s and
// zero-fills the rest, asynchronously (cp.async; s and g SIZE-aligned).
template <int SIZE>
__device__ __forceinline__ void copy_async(double* s, const double* g, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned sa = unsigned(__cvta_generic_to_shared(s));
  if constexpr (SIZE == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(g), "r"(bytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(sa), "l"(g), "r"(bytes));
#else
  for (int i = 0; i < SIZE / 8; ++i) s[i] = 8 * i < bytes ? g[i] : 0.0;
#endif
}
__device__ __forceinline__ void copy_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.commit_group;\n");
#endif
}
template <int N>
__device__ __forceinline__ void copy_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}
// c += a b for one 16 x 8 x 4 step: a0 = A(g, q), a1 = A(g + 8, q),
// b = B(q, g), c = C(g, 2q..2q+1) and C(g + 8, 2q..2q+1), where g = lane / 4
// and q = lane % 4.
__device__ __forceinline__ void mma(double (&c)[4], double a0, double a1, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
      "{%0,%1,%2,%3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a0), "d"(a1), "d"(b));
#endif
}

// acc(r, c) += sum_{k < K} A(r, k) B(c, k) over this warp's 32 x 32 part of
// a 64 x 64 tile, A and B in shared memory: A(r, k) at as[r lda + k ka],
// B(c, k) at bs[c ldb + k kb].
template <int K>
__device__ __forceinline__ void mma_steps(Acc& acc, const double* as, int lda, int ka,
                                          const double* bs, int ldb, int kb) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
#pragma unroll
  for (int kq = 0; kq < K; kq += 4) {
    double a[2][2], b[4];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      a[i][0] = as[(wr + i * 16 + g) * lda + (kq + q) * ka];
      a[i][1] = as[(wr + i * 16 + g + 8) * lda + (kq + q) * ka];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) b[j] = bs[(wc + j * 8 + g) * ldb + (kq + q) * kb];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) mma(acc.v[i][j], a[i][0], a[i][1], b[j]);
  }
}

// acc(r, c) += sum_{k < nk} A(r, k) B(c, k) for r < na, c < nb (A(r, k) at
// A + at<CM>(ld, r, k), B likewise), 128 threads, STAGES slabs in flight
// through sm (STAGES * 2 * 64 * LDS doubles), W doubles per copy (2 where ld
// and the matrix's address allow 16-byte copies: 8 % faster updates), along
// k (row-major) or along the rows (CM).
template <int STAGES, int W, bool CM>
__device__ __forceinline__ void tile_product(Acc& acc, const double* A, int na, const double* B,
                                             int nb, std::int64_t ld, int nk, double* sm) {
  static_assert(BK * LDK <= NB * LDS, "a staged slab fits either way");
  auto load = [&](int stage, int k0) {
    double* as = sm + stage * 2 * NB * LDS;
    double* bs = as + NB * LDS;
    for (int e = threadIdx.x; e < NB * BK / W; e += 128) {
      if constexpr (CM) {  // W rows of column k per copy, staged at [k LDK + r]
        const int kk = e / (NB / W), r = W * (e % (NB / W)), k = k0 + kk;
        const int ba = k < nk ? 8 * max(0, min(W, na - r)) : 0;
        const int bb = k < nk ? 8 * max(0, min(W, nb - r)) : 0;
        copy_async<8 * W>(as + kk * LDK + r, A + (ba ? at<CM>(ld, r, k) : 0), ba);
        copy_async<8 * W>(bs + kk * LDK + r, B + (bb ? at<CM>(ld, r, k) : 0), bb);
      } else {  // W columns of row r per copy, staged at [r LDS + k]
        const int r = e / (BK / W), kk = W * (e % (BK / W)), k = k0 + kk;
        const int bytes = 8 * max(0, min(W, nk - k));
        const int ba = r < na ? bytes : 0, bb = r < nb ? bytes : 0;
        copy_async<8 * W>(as + r * LDS + kk, A + (ba ? at<CM>(ld, r, k) : 0), ba);
        copy_async<8 * W>(bs + r * LDS + kk, B + (bb ? at<CM>(ld, r, k) : 0), bb);
      }
    }
  };
  const int slabs = (nk + BK - 1) / BK;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < slabs) load(s, s * BK);
    copy_commit();
  }
  for (int s = 0; s < slabs; ++s) {
    copy_wait<STAGES - 2>();
    __syncthreads();
    if (s + STAGES - 1 < slabs) load((s + STAGES - 1) % STAGES, (s + STAGES - 1) * BK);
    copy_commit();
    const double* as = sm + (s % STAGES) * 2 * NB * LDS;
    if constexpr (CM)
      mma_steps<BK>(acc, as, 1, LDK, as + NB * LDS, 1, LDK);
    else
      mma_steps<BK>(acc, as, LDS, 1, as + NB * LDS, LDS, 1);
  }
  copy_wait<0>();
  __syncthreads();
}

// f(r, c, value) for every accumulator of the tile.
template <class F>
__device__ __forceinline__ void for_each(const Acc& acc, F f) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int h = 0; h < 4; ++h)
        f(wr + i * 16 + g + (h / 2) * 8, wc + j * 8 + 2 * q + h % 2, acc.v[i][j][h]);
}

__device__ __forceinline__ void clear(Acc& acc) {
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int h = 0; h < 4; ++h) acc.v[i][j][h] = 0.0;
}

// Whether info (the first failing column + 1, or 0) stops a launch whose
// first written column is `col`.
__device__ __forceinline__ bool stopped(const int* info, int col) {
  const int f = *info;
  return f != 0 && f - 1 <= col;
}

inline constexpr std::size_t update_smem = 2 * 2 * NB * LDS * sizeof(double);

// The trailing update (SYRK): M(r0 + r, r0 + c) -= sum_{k < nk}
// M(r0 + r, k0 + k) M(r0 + c, k0 + k) for c <= r < nr, a 64 x 64 lower tile
// per thread block (blockIdx.x enumerates them row by row).
template <class T, int W, bool CM>
__global__ void __launch_bounds__(128)
    update_kernel(T* M, std::int64_t ld, std::int64_t bs, int r0, int nr, int k0, int nk,
                  const int* info, std::int64_t info_s) {
  static_assert(std::is_same_v<T, double>, "the double-precision MMA");
  M += blockIdx.y * bs;  // a matrix per blockIdx.y
  info += blockIdx.y * info_s;
  chain_start();
  if (stopped(info, r0)) return;
  extern __shared__ __align__(16) double sm[];
  const int t = blockIdx.x;
  int bi = int((sqrt(8.0 * t + 1) - 1) / 2);
  while (bi * (bi + 1) / 2 > t) --bi;
  while ((bi + 1) * (bi + 2) / 2 <= t) ++bi;
  const int bj = t - bi * (bi + 1) / 2;
  const int ra = r0 + bi * NB, rb = r0 + bj * NB;
  const int na = min(NB, r0 + nr - ra), nb = min(NB, r0 + nr - rb);
  Acc acc;
  clear(acc);
  tile_product<2, W, CM>(acc, M + at<CM>(ld, ra, k0), na, M + at<CM>(ld, rb, k0), nb, ld, nk, sm);
  for_each(acc, [&](int r, int c, double v) {
    if (r < na && c < nb && (bi != bj || c <= r)) M[at<CM>(ld, ra + r, rb + c)] -= v;
  });
}

// Solves the 64 rows of X (stride XL) in place against a staged triangular
// factor, over its first `count` columns: forward, x L^T = row with Lt(j, .)
// column j of L; backward, x L = row with Lt(j, .) row j of L (last column
// first). Two threads per row: thread h of a pair holds the row's columns
// 2i + h, so both have work until the last column, and Lt(j, 32 h + i) holds
// the multiplier of column 2i + h, so each thread's multipliers are
// contiguous (16-byte loads). Only the columns after j (before it, backward)
// take x_j: a NaN or Inf in x_j (a defect of that row) must not reach the
// others. Ends with X updated and visible to the whole block.
template <bool Forward>
__device__ __forceinline__ void substitute(double* X, const double* Lt, const double* dinv,
                                           int count) {
  const int r = threadIdx.x / 2, h = threadIdx.x % 2, lane = threadIdx.x % 32;
  double x[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) x[i] = X[r * XL + 2 * i + h];
  const double* lt = Lt + h * 32;
#pragma unroll
  for (int jj = 0; jj < NB; ++jj) {
    const int j = Forward ? jj : NB - 1 - jj;
    if (j < count) {
      const double xo = x[j / 2] * dinv[j];  // meaningful in the owner, h == j % 2
      const double xj = __shfl_sync(0xffffffffu, xo, (lane & ~1) | (j % 2));
      if (h == j % 2) x[j / 2] = xj;
#pragma unroll
      for (int i = 0; i < 32; i += 2) {
        if (Forward ? (i + 1 < j / 2) : (i > j / 2 + 1)) continue;  // no column of this pair
        const double2 l = *reinterpret_cast<const double2*>(lt + j * LT + i);
        if (Forward ? 2 * i + h > j : 2 * i + h < j) x[i] -= xj * l.x;
        if (Forward ? 2 * i + 2 + h > j : 2 * i + 2 + h < j) x[i + 1] -= xj * l.y;
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 32; ++i) X[r * XL + 2 * i + h] = x[i];
  __syncthreads();
}

// Shared memory of rows_kernel with S slabs in flight: the slabs of the left
// update, and after it, in the same space, the rows it solves and the
// factor it solves them with (three thread blocks per SM with S = 2, where
// separate spaces left two).
constexpr std::size_t rows_smem(int S) {
  const int slabs = S * 2 * NB * LDS, solve = NB * XL + NB * LT + NB;
  return (slabs > solve ? slabs : solve) * sizeof(double);
}

// Rows [r0, r0 + nr) of block column c (w columns, group start k0): each
// thread block takes 64 rows, subtracts M(rows, k0:c) M(c:c+w, k0:c)^T and
// solves them against the leaf's factor L = M(c:c+w, c:c+w): X L^T = rows.
// The first block also moves the leaf's failure (cell) into info; a failed
// leaf's rows are solved for the columns before its failing one. S slabs of
// the left update in flight (rows_smem(S)); a matrix per blockIdx.y (matrix
// stride bs, its info at info_s, its cells at cells_s).
template <class T, int W, bool CM, int S>
__global__ void __launch_bounds__(128)
    rows_kernel(T* M, std::int64_t ld, std::int64_t bs, int r0, int nr, int k0, int k1, int c,
                int w, int* info, std::int64_t info_s, const int* cell, int cells_s) {
  static_assert(std::is_same_v<T, double>, "the double-precision MMA");
  M += blockIdx.y * bs;
  info += blockIdx.y * info_s;
  cell += blockIdx.y * cells_s;
  extern __shared__ __align__(16) double sm[];
  double* X = sm;            // over the slabs, once the left update is done
  double* Lt = X + NB * XL;  // L transposed, columns permuted
  double* dinv = Lt + NB * LT;
  const int rb = r0 + blockIdx.x * NB, na = min(NB, r0 + nr - rb);
  // The left update and the rows it updates are final before the leaf's
  // launch started (and info, which only earlier rows launches set): they
  // are worked on while the leaf factors.
  const bool stop = stopped(info, c);
  if (!stop && nr > 0) {
    Acc acc;
    clear(acc);
    tile_product<S, W, CM>(acc, M + at<CM>(ld, rb, k0), na, M + at<CM>(ld, c, k0), w, ld, c - k0,
                           sm);
    for_each(acc, [&](int r, int col, double v) {
      X[r * XL + col] = r < na && col < w ? M[at<CM>(ld, rb + r, c + col)] - v : 0.0;
    });
  }
  chain_start();
  if (stop) return;
  const int leaf = *cell;
  if (leaf != 0 && blockIdx.x == 0 && threadIdx.x == 0) atomicCAS(info, 0, c + leaf);
  const int wl = leaf != 0 ? leaf - 1 : w;  // columns to solve
  if (wl <= 0 || nr <= 0) return;
  // The factor staged for substitute<true>: Lt(j, 32 h + i) = L(2i + h, j).
  {
    double v[NB * NB / 128];
#pragma unroll
    for (int e = 0; e < NB * NB / 128; ++e) {
      int k, j;
      tile_element<CM>(threadIdx.x + 128 * e, k, j);
      v[e] = k < w && j <= k ? M[at<CM>(ld, c + k, c + j)] : 0.0;
    }
#pragma unroll
    for (int e = 0; e < NB * NB / 128; ++e) {
      int k, j;
      tile_element<CM>(threadIdx.x + 128 * e, k, j);
      Lt[j * LT + (k % 2) * 32 + k / 2] = v[e];
      if (j == k) dinv[j] = 1.0 / v[e];
    }
  }
  __syncthreads();
  substitute<true>(X, Lt, dinv, wl);
  for (int e = threadIdx.x; e < NB * NB; e += 128) {
    int rr, col;
    tile_element<CM>(e, rr, col);
    if (rr < na && col < wl) M[at<CM>(ld, rb + rr, c + col)] = X[rr * XL + col];
  }
  // Rows that are a later diagonal block of this group take their update
  // from these columns now, M(rows, rows) -= X X^T (right-looking on the
  // diagonal blocks): the leaf then factors its block as it is.
  if (rb < k1 && wl == w) {
    Acc acc;
    clear(acc);
    const int warp = threadIdx.x / 32;
    if (warp != 1)  // warp 1's 32 x 32 part lies above the diagonal
      for (int kq = 0; kq < w; kq += 4) mma_steps<4>(acc, X + kq, XL, 1, X + kq, XL, 1);
    for_each(acc, [&](int rr, int col, double v) {
      if (rr < na && col <= rr) M[at<CM>(ld, rb + rr, rb + col)] -= v;
    });
  }
}

// The matrices a factorization launch works on: `count` matrices from M on,
// matrix m at M + m bs (leading dimension ld), its info at info + m info_s,
// its leaves' cells at cells + m cells_s.
struct Set {
  double* M;
  std::int64_t ld, bs;
  int count;
  int* info;
  std::int64_t info_s;
  int* cells;
  int cells_s;
};

template <int W, bool CM>
void update(cudaStream_t s, const Set& m, int r0, int nr, int k0, int nk) {
  if (nr <= 0 || nk <= 0) return;
  const int br = (nr + NB - 1) / NB;
  launch_chained(&update_kernel<double, W, CM>, dim3(br * (br + 1) / 2, m.count), 128, update_smem,
                 s, "large update launch", m.M, m.ld, m.bs, r0, nr, k0, nk,
                 static_cast<const int*>(m.info), m.info_s);
}

// Columns per group, the trailing update's depth: deeper groups mean fewer
// passes over the trailing matrix but longer left updates in the rows
// launches. Measured on an H200: 512 is best from n = 2048 to 16384 (8.99
// against 10.06 ms for 256 at n = 8192), 1024 at 32768 (386 against 400 ms);
// with cuBLAS's update (`blas`) 1024 from 16384 (40.7 against 42.0 ms).
inline int group_depth(int n, bool blas) {
  return n >= (blas ? 16384 : 24576) ? 16 * NB : 8 * NB;
}

// The factorization of the matrices of m (order n), with W doubles per copy
// into shared memory, groups of G columns (a multiple of NB) and S slabs in
// flight in the rows launches: four for one matrix (its launches are short
// of thread blocks, and deeper copies hide more of each block's latency),
// two for several, so that three thread blocks fit on an SM.
// With `blas` (one matrix, Batchol_CudaBlas.cuh), the trailing updates go to
// cuBLAS; where it cannot take one, the library's kernel does.
template <int W, bool CM, int S>
void factor(const Problem<double>& p, const Set& m, cudaStream_t stream, int G, bool blas) {
  const int n = p.n;
  auto* rows = &rows_kernel<double, W, CM, S>;
  allow_shared(&update_kernel<double, W, CM>, update_smem, "large update shared memory");
  allow_shared(rows, rows_smem(S), "large rows shared memory");
  // The leaf: the tile kernel of 16 x 16 threads, 4 x 4 elements each, one
  // matrix per block (as launch_tile<double, 16, 4, 1, Op::Potrf> with one
  // matrix per block, launched here as a step of the chain).
  auto* leaf = &tile_kernel<double, 16, 4, tile_maxt_v<16>, 1, Op::Potrf>;
  const std::size_t leaf_smem = tile_detail::TileSmem<double, 16, 4, Op::Potrf, false>::bytes(1);
  allow_shared(leaf, leaf_smem, "large leaf shared memory");
  for (int k0 = 0; k0 < n; k0 += G) {
    const int k1 = std::min(n, k0 + G);
    for (int c = k0; c < k1; c += NB) {
      const int w = std::min(NB, n - c), below = n - c - w;
      Problem<double> d;
      d.batch = m.count;
      d.n = w;
      d.a = m.M + at<CM>(m.ld, c, c);
      d.src = d.a;
      d.a_bs = m.bs;
      d.a_rs = CM ? 1 : m.ld;
      d.a_cs = CM ? m.ld : 1;
      d.info = m.cells + c / NB;
      d.info_s = m.cells_s;
      d.fast_math = p.fast_math;
      launch_chained(leaf, m.count, 256, leaf_smem, stream, "large leaf launch", d, std::int64_t(0),
                     1);
      launch_chained(rows, dim3(std::max(1, (below + NB - 1) / NB), m.count), 128, rows_smem(S),
                     stream, "large rows launch", m.M, m.ld, m.bs, c + w, below, k0, k1, c, w,
                     m.info, m.info_s, static_cast<const int*>(m.cells + c / NB), m.cells_s);
    }
    if (!blas || !blas_update<CM>(stream, m.M, m.ld, k1, n - k1, k0, k1 - k0))
      update<W, CM>(stream, m, k1, n - k1, k0, k1 - k0);
  }
}

// info[m info_s] = 0 for m < count (a template: defined in every
// translation unit that includes it, as a kernel must be).
template <class I>
__global__ void __launch_bounds__(256) clear_info(I* info, std::int64_t info_s, int count) {
  const int m = blockIdx.x * 256 + threadIdx.x;
  if (m < count) info[std::int64_t(m) * info_s] = 0;
}

// The factorization of every matrix of p, stored column-major (CM) or
// row-major with leading dimension ld.
template <bool CM>
void factor_all(const Problem<double>& p, std::int64_t ld, cudaStream_t stream) {
  const int blocks = (p.n + NB - 1) / NB;
  const bool blas = has_blas && p.batch == 1;
  const int G = group_depth(p.n, blas);
  // blockIdx.y takes the matrix: at most 65535 per launch.
  const int chunk = int(std::min<std::int64_t>(p.batch, 65535));
  int* cells = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&cells), sizeof(int) * blocks * chunk, stream),
        "large: cudaMallocAsync");
  const bool vec = ld % 2 == 0 && (p.batch == 1 || p.a_bs % 2 == 0) &&
                   reinterpret_cast<std::uintptr_t>(p.a) % 16 == 0;
  for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
    const int count = int(std::min<std::int64_t>(chunk, p.batch - b0));
    const Set m{p.a + b0 * p.a_bs,      ld,       p.a_bs, count,
                p.info + b0 * p.info_s, p.info_s, cells,  blocks};
    check(cudaMemsetAsync(cells, 0, sizeof(int) * blocks * count, stream),
          "large: cudaMemsetAsync");
    clear_info<<<(count + 255) / 256, 256, 0, stream>>>(m.info, m.info_s, count);
    check(cudaGetLastError(), "large info launch");
    if (p.batch == 1) {
      if (vec)
        factor<2, CM, 4>(p, m, stream, G, blas);
      else
        factor<1, CM, 4>(p, m, stream, G, blas);
    } else {
      if (vec)
        factor<2, CM, 2>(p, m, stream, G, false);
      else
        factor<1, CM, 2>(p, m, stream, G, false);
    }
  }
  check(cudaFreeAsync(cells, stream), "large: cudaFreeAsync");
}

}  // namespace large_detail

// The large path's view of p's matrix: column-major (a_rs == 1) or not, and
// its leading dimension.
template <class T>
bool large_column_major(const Problem<T>& p) {
  return p.a_rs == 1 && p.a_cs != 1;
}
template <class T>
std::int64_t large_ld(const Problem<T>& p) {
  return large_column_major(p) ? p.a_cs : p.a_rs;
}

// Whether the large-matrix factorization can take p (the caller keeps it to
// orders above the tables): matrices with a unit stride along their rows or
// their columns (not interleaved), on a device
// with the m16n8k4 double-precision MMA (compute capability 9.0 or newer;
// older devices take the Blocked path). double takes batches, float one
// matrix, through a double copy (Batchol_CudaLargeFloat.cuh).
template <class T>
bool large_serves(const Problem<T>& p) {
  const bool unit = p.a_cs == 1 || p.a_rs == 1;
  const bool count = std::is_same_v<T, double> || p.batch == 1;
  return count && unit && large_ld(p) >= p.n && (p.batch == 1 || p.a_bs != 1) &&
         current_device().major >= 9;
}

// potrf of every matrix of p (large_serves(p)) on `stream`.
inline void large_potrf(const Problem<double>& p, cudaStream_t stream) {
  if (large_column_major(p))
    large_detail::factor_all<true>(p, large_ld(p), stream);
  else
    large_detail::factor_all<false>(p, large_ld(p), stream);
}

}  // namespace batchol::cuda

#endif
