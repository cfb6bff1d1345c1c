// Middle sizes (about 25 < n <= 128): a B x B thread block per matrix holds
// the whole lower triangle in registers as 2D block-cyclic tiles. Thread
// (tx,ty) owns the elements (tx + B*i, ty + B*j), i >= j, of a matrix padded
// to NP = B*M with the identity; every index is a compile-time constant, the
// steps are unrolled, and bounds are tested only on loads and stores.
//
// This is Kurzak et al.'s panel factorization with the panel as wide as the
// matrix (their best choice up to n = 24 on Kepler; Hopper's 64K registers per
// SM hold several matrices of n = 100 in double, so nothing is streamed back
// from memory: each element is read once and written once).
//
// Algorithm: right-looking, unblocked, on the unscaled form
//   a(r,c) -= a(r,k) * a(c,k) / d_k   for r >= c > k,   d_k = a(k,k),
// and only at the end L(r,c) = a(r,c) / sqrt(d_c), L(c,c) = sqrt(d_c).
// The column of step k+1 is published through shared memory by its owners
// (the B threads with ty = (k+1) % B) together with 1/d_{k+1}, computed by the
// diagonal's owner; one __syncthreads per column. No thread waits on a
// square root inside the loop, which keeps the dependent chain per column to
// load, multiply, fused multiply-add, store and barrier.
//
// Failure contract (as the reference): the first column c < n whose pivot
// fails pivot_ok gives info = c+1; columns before it hold the factor and are
// the only ones stored. A subnormal pivot whose reciprocal overflows (exact
// mode) comes before: nothing is stored and one thread factors the matrix
// (Batchol_CudaFirstEvent.cuh). Columns already finished are protected by a select,
// not by multiplying with zero, so a NaN or Inf reaching the update later
// cannot leak into them.
//
// Posv: the factor goes to shared memory (packed), then one warp per matrix
// runs both substitutions (Batchol_CudaWarpSolve.cuh). Or (REG, the table's
// PosvSolve::Registers) the substitutions run on the factor where the
// factorization leaves it, in the register tiles, tile by tile
// (tile_detail::RegSolve): no copy of L, no warp-solve code. The tuning
// tool times it as the `POSV=reg` twin of every tile candidate; no row of
// the sm_90 table takes it yet.
//
// SH: potrf_shifted's factorization (Problem::shift), which retries a failed
// matrix after the block's stores (Batchol_CudaShift.cuh).
#ifndef BATCHOL_CUDA_TILE_KERNEL_CUH
#define BATCHOL_CUDA_TILE_KERNEL_CUH

#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaFirstEvent.cuh"
#include "Batchol_CudaLogdet.cuh"
#include "Batchol_CudaShift.cuh"
#include "Batchol_CudaWarpSolve.cuh"

#include <algorithm>
#include <climits>

namespace batchol::cuda {
namespace tile_detail {

// Per-matrix shared memory, in elements of T: two column buffers, pivots d_k,
// 1/d_k, sqrt(d_k), 1/sqrt(d_k), then (posv) the packed factor, or EXTRA
// elements (RegSolve's) at the same place.
template <class T, int NP, bool SOLVE, int EXTRA = 0>
struct Smem {
  static constexpr int kPiv = 2 * NP;
  static constexpr int kPinv = 3 * NP;
  static constexpr int kSqrt = 4 * NP;
  static constexpr int kRsqrt = 5 * NP;
  static constexpr int kL = 6 * NP;
  static constexpr int kW = 6 * NP;  // RegSolve's (EXTRA elements)
  static constexpr int kSize = 6 * NP + (SOLVE ? solve_detail::packed_size(NP) : EXTRA);
  // Elements after the mpb matrices: those the backward solve may read past
  // the last packed factor (WarpSolve::backward_packed).
  static constexpr int kSlack = SOLVE ? solve_detail::packed_slack : 0;
  // Bytes per block for mpb matrices (the first-failure words go last).
  static constexpr std::size_t bytes(int mpb) {
    return (std::size_t(mpb) * kSize + kSlack) * sizeof(T) + std::size_t(mpb) * sizeof(int);
  }
  // Column K's buffer. The steps read it through this function, not the
  // same expression written in place: with the address inline, the run-time
  // step loop (NP >= 72) compiled to 27-80 more registers per thread (ptxas,
  // CUDA 13.0: double NP = 88 227 -> 200, NP = 96 and 104 spilling at 255 ->
  // 222 and 245; float NP = 88 / 104 / 112 185 / 225 / 240 -> 114 / 146 /
  // 167), i.e. fewer matrices per SM.
  __device__ static T* column(T* sh, int K) { return sh + (K & 1) * NP; }
};

// Owners of column K publish it (all rows of tiles j1.., values above the
// diagonal are never read) and its pivot d_K with 1/d_K. (Column 0 only; the
// steps publish the next column themselves.)
template <class T, int B, int M, int K>
__device__ __forceinline__ void publish(const T (&r)[M][M], T* sh, int tx, int ty) {
  constexpr int NP = B * M, j1 = K / B, t1 = K % B;
  if (ty == t1) {
    T* const col = Smem<T, NP, false>::column(sh, K);
#pragma unroll
    for (int i = j1; i < M; ++i) col[tx + B * i] = r[i][j1];
    if (tx == t1) {
      const T d = r[j1][j1];
      sh[Smem<T, NP, false>::kPiv + K] = d;
      sh[Smem<T, NP, false>::kPinv + K] = recip(d);
    }
  }
}

// Fused multiply-adds per thread of the whole factorization, B*M(M+1)(M+2)/6:
// up to about 1000 the steps are unrolled completely, beyond that the code
// would spill out of the instruction cache (measured: 2x slower at NP = 80 in
// float, where the run-time loop below is 1.7x faster than full unrolling;
// at NP <= 64 full unrolling was 5-20% faster than the loop).
template <int B, int M>
inline constexpr int tile_unroll_v = B* M*(M + 1) * (M + 2) / 6 <= 1000 ? B : 1;

// The steps K = B*JK .. B*JK+B-1 (K < NP-1) of tile column JK: rank-1 update
// with column K, then the owners publish column K+1 and one barrier. Within a
// tile column every step runs the same code (only the lane tests depend on
// K), so large tiles run it as a loop; tile columns are a compile-time
// recursion so that every register index stays a constant.
template <class T, int B, int M, int JK>
struct TileColumn {
  static constexpr int NP = B * M;
  __device__ __forceinline__ static void run(T (&r)[M][M], T* sh, int tx, int ty) {
    if constexpr (JK < M) {
      constexpr int kend = JK == M - 1 ? B - 1 : B;
      constexpr int kUnroll = tile_unroll_v<B, M>;
#pragma unroll kUnroll
      for (int kk = 0; kk < kend; ++kk) {
        const int K = B * JK + kk;
        const T* const col = Smem<T, NP, false>::column(sh, K);
        const T dinv = sh[Smem<T, NP, false>::kPinv + K];
        T u[M], v[M];
#pragma unroll
        for (int i = JK; i < M; ++i) {
          u[i] = col[tx + B * i] * dinv;
          v[i] = col[ty + B * i];
        }
        // Columns <= K of tile column JK are finished: keep them (a select,
        // so that NaN * 0 cannot reach them); rows <= K only meet the unused
        // upper part.
        const bool open = ty > kk;
#pragma unroll
        for (int j = JK; j < M; ++j) {
#pragma unroll
          for (int i = j; i < M; ++i) {
            if (j == JK)
              r[i][j] = open ? r[i][j] - u[i] * v[j] : r[i][j];
            else
              r[i][j] -= u[i] * v[j];
          }
        }
        // Publish column K+1: still in tile column JK, or the first of JK+1
        // (whose rows start at tile JK+1; tile JK's rows are not read then).
        const bool next = kk == B - 1;
        const int t1 = next ? 0 : kk + 1;
        if (ty == t1) {
          T* const c1 = Smem<T, NP, false>::column(sh, K + 1);
#pragma unroll
          for (int i = JK; i < M; ++i) {
            T x = r[i][JK];
            if constexpr (JK + 1 < M) {
              if (i > JK) x = next ? r[i][JK + 1] : x;
            }
            c1[tx + B * i] = x;
          }
          if (tx == t1) {
            T d = r[JK][JK];
            if constexpr (JK + 1 < M) d = next ? r[JK + 1][JK + 1] : d;
            sh[Smem<T, NP, false>::kPiv + K + 1] = d;
            sh[Smem<T, NP, false>::kPinv + K + 1] = recip(d);
          }
        }
        __syncthreads();
      }
      TileColumn<T, B, M, JK + 1>::run(r, sh, tx, ty);
    }
  }
};

// posv with the factor where the factorization leaves it, in the register
// tiles (tile_kernel's REG): both substitutions tile by tile. Step J of the
// forward one: each thread sums its tile row J against the finished y of
// the tile columns before J (y in shared memory), the B partial sums of
// each row meet in shared memory, and B lanes of the first warp finish the
// B rows of tile J with the diagonal block, one shuffle per row. Backward the
// same on L^T, tile columns from the last. Two barriers per tile and
// right-hand side; no copy of L and no warp-solve code.
template <class T, int B, int M>
struct RegSolve {
  static constexpr int NP = B * M;
  // Shared memory per matrix, in elements of T: the vector, B x B partial
  // sums, the B x B diagonal block.
  static constexpr int kVec = 0, kRed = NP, kDiag = NP + B * B, kSize = NP + 2 * B * B;

  // The matrix's threads lid = 0..B-1 (one warp: row k is lane base +
  // step*k) finish tile J's B rows, row = lid: lower diagonal block
  // (forward) or its transpose (backward).
  template <bool FWD>
  __device__ __noinline__ static void diag_block(T* w, const T* rl, int J, int lid, int base,
                                                 int step) {
    if (lid < B) {
      unsigned mask = 0;
#pragma unroll
      for (int k = 0; k < B; ++k) mask |= 1u << (base + step * k);
      T t = T(0);
#pragma unroll
      for (int k = 0; k < B; ++k) t += w[kRed + lid * B + k];
      T x = w[kVec + B * J + lid] - t;
#pragma unroll 1
      for (int s = 0; s < B; ++s) {
        const int k = FWD ? s : B - 1 - s;
        const T xk = __shfl_sync(mask, x * rl[B * J + k], base + step * k);
        if (lid == k) x = xk;
        const T lk = FWD ? w[kDiag + lid * B + k] : w[kDiag + k * B + lid];
        if (FWD ? lid > k : lid < k) x -= lk * xk;
      }
      w[kVec + B * J + lid] = x;
    }
  }

  // The vector at w (zero beyond n) <- A^{-1} vector; r holds L (2D
  // block-cyclic, as tile_kernel), thread (tx, ty) = lid; diag_block's lanes
  // as there.
  // rl: 1 / L(c, c) (the factorization's 1/sqrt(d_c)).
  __device__ static void solve(const T (&r)[M][M], T* w, const T* rl, int tx, int ty, int lid,
                               int base, int step) {
#pragma unroll
    for (int J = 0; J < M; ++J) {
      T part = T(0);
#pragma unroll
      for (int j = 0; j < J; ++j) part += r[J][j] * w[kVec + ty + B * j];
      w[kRed + tx * B + ty] = part;
      w[kDiag + tx * B + ty] = r[J][J];
      __syncthreads();
      diag_block<true>(w, rl, J, lid, base, step);
      __syncthreads();
    }
#pragma unroll
    for (int J = M - 1; J >= 0; --J) {
      T part = T(0);
#pragma unroll
      for (int i = J + 1; i < M; ++i) part += r[i][J] * w[kVec + tx + B * i];
      w[kRed + ty * B + tx] = part;
      w[kDiag + tx * B + ty] = r[J][J];
      __syncthreads();
      diag_block<false>(w, rl, J, lid, base, step);
      __syncthreads();
    }
  }
};

// The shared memory of tile_kernel<T, B, M, ..., OP, REG> (the kernel and
// its launcher both read it).
template <class T, int B, int M, Op OP, bool REG>
using TileSmem = Smem<T, B * M, OP == Op::Posv && !REG, REG ? RegSolve<T, B, M>::kSize : 0>;

}  // namespace tile_detail

// B: threads per tile dimension (B*B per matrix); M: tiles per dimension
// (NP = B*M); MAXT: most threads per block (mpb * B*B <= MAXT); MINB: blocks
// of MAXT threads per SM the compiler must leave room for (a register cap:
// unbounded, ptxas spends registers on early loads and halves the occupancy).
// mpb matrices per block at run time: with the batch index fastest (a_bs == 1,
// LayoutLeft) a warp's lanes take neighbouring matrices, so each load fills
// more of a 32-byte sector.
template <class T, int B, int M, int MAXT, int MINB, Op OP, bool REG = false, bool SH = false>
__global__ void __launch_bounds__(MAXT, MINB)
    tile_kernel(const Problem<T> p, const std::int64_t first, const int mpb) {
  using namespace tile_detail;
  static_assert(OP == Op::Potrf || OP == Op::Posv, "tile_kernel factors");
  static_assert(!REG || OP == Op::Posv, "REG: posv from the register tiles");
  static_assert(!SH || OP == Op::Potrf, "SH: potrf_shifted's factorization");
  constexpr int NP = B * M, NT = B * B;
  constexpr bool kSolve = OP == Op::Posv && !REG;
  using S = TileSmem<T, B, M, OP, REG>;
  extern __shared__ __align__(16) unsigned char tile_smem[];
  chain_start();  // a step of a chained launch (one large matrix's leaves)

  const bool inter = mpb > 1 && p.a_bs == 1;
  const int sub = inter ? int(threadIdx.x) % mpb : int(threadIdx.x) / NT;
  const int lid = inter ? int(threadIdx.x) / mpb : int(threadIdx.x) % NT;
  // Rows contiguous (LayoutRight): consecutive threads walk along a row.
  const bool colfast = p.a_cs == 1;
  const int tx = colfast ? lid / B : lid % B;
  const int ty = colfast ? lid % B : lid / B;

  T* const sh = reinterpret_cast<T*>(tile_smem) + sub * S::kSize;
  int* const fails =
      reinterpret_cast<int*>(reinterpret_cast<T*>(tile_smem) + mpb * S::kSize + S::kSlack);

  const std::int64_t mat = first + std::int64_t(blockIdx.x) * mpb + sub;
  // Matrices past the end compute on the last one (barriers need every
  // thread) and store nothing.
  const bool live = mat < p.batch;
  const std::int64_t mi = live ? mat : p.batch - 1;
  const int n = p.n;
  // Where the input is read: p.src (p.a in place; set by the launcher, as a
  // select here would cost registers).
  const T* const A = p.src + mi * p.a_bs;

  // Load the owned elements of the lower triangle, all issued before any use;
  // padding is the identity, the unused upper part of diagonal tiles zero.
  T r[M][M];
#pragma unroll
  for (int i = 0; i < M; ++i) {
#pragma unroll
    for (int j = 0; j <= i; ++j) {
      const int row = tx + B * i, c = ty + B * j;
      T v = row == c ? T(1) : T(0);
      if (row < n && c <= row) v = A[row * p.a_rs + c * p.a_cs];
      r[i][j] = v;
    }
  }

  if (lid == 0) fails[sub] = FirstEvent::kNone;
  publish<T, B, M, 0>(r, sh, tx, ty);
  __syncthreads();
  TileColumn<T, B, M, 0>::run(r, sh, tx, ty);

  // Pivot test, square roots and their reciprocals, shared by the matrix's threads.
  for (int c = lid; c < NP; c += NT) {
    const T d = sh[S::kPiv + c];
    const int e = FirstEvent::of(d, sh[S::kPinv + c], c, p.fast_math);
    if (c < n && e != FirstEvent::kNone) atomicMin(&fails[sub], e);
    T s, rs;
    pivot_roots(d, p.fast_math, s, rs);
    sh[S::kSqrt + c] = s;
    sh[S::kRsqrt + c] = rs;
    // The pivot's slot is this thread's alone, and read no more.
    if (p.out != nullptr) sh[S::kPiv + c] = log(s);
  }
  __syncthreads();
  const int event = fails[sub];
  const bool tiny = FirstEvent::is_tiny(event);

  // Store: columns before a failing pivot hold the factor, the rest of the
  // matrix keeps its input (as the reference leaves it).
  const int ncol = tiny ? 0 : FirstEvent::before(event, n);
  const std::int64_t a_rs = opaque(p.a_rs), a_cs = opaque(p.a_cs);
  T* const As = p.a + opaque(mi * p.a_bs);
  const bool mirror = p.mirror && event == FirstEvent::kNone;
  T* const Lp = sh + S::kL;
#pragma unroll
  for (int j = 0; j < M; ++j) {
    const int c = ty + B * j;
    const T rs = sh[S::kRsqrt + c];
    const T s = sh[S::kSqrt + c];
#pragma unroll
    for (int i = j; i < M; ++i) {
      const int row = tx + B * i;
      const T l = (i == j && row == c) ? s : r[i][j] * rs;
      if constexpr (REG) r[i][j] = c <= row ? l : T(0);
      if (row < n && c <= row) {
        if (live && c < ncol) As[row * a_rs + c * a_cs] = l;
        if (live && mirror && c < row) As[c * a_rs + row * a_cs] = l;
        if constexpr (kSolve) {
          if (!tiny) Lp[solve_detail::packed(row, c)] = l;
        }
      }
    }
  }
  int info = FirstEvent::info(event);
  if (tiny && live && lid == 0) {
    // The input is still whole: nothing was stored. (The matrix's shared
    // word stays: its other threads may still be reading it.)
    // (The input's address recomputed: kept from the loads, it would hold
    // registers through the whole factorization.)
    if (p.src != p.a) copy_lower_from(p.src + opaque(mi * p.a_bs), As, a_rs, a_cs, n, 0);
    info = serial_potrf_tail(As, a_rs, a_cs, n, 0, p.mirror);
    if constexpr (kSolve) {
      for (int c = 0; c < n; ++c)
        for (int row = c; row < n; ++row)
          Lp[solve_detail::packed(row, c)] = As[row * a_rs + c * a_cs];
    }
    // The logarithms of this factor's roots in place of the failed pass's.
    if (p.out != nullptr)
      for (int c = 0; c < n; ++c) sh[S::kPiv + c] = log(As[c * (a_rs + a_cs)]);
  }
  if (live && lid == 0) p.info[mat * p.info_s] = info;
  if constexpr (SH) {
    __syncthreads();  // the block's stores come before a retry's rewrite of L
    if (live && lid == 0) finish_shifted(p, mat, p.src + opaque(mi * p.a_bs), As, n, info);
  }
  if (p.out != nullptr) {
    // The logarithms of the roots the factor holds (potrf_shifted has no
    // logdet output, so no retry rewrites them). The column buffers are
    // free now.
    __syncthreads();  // a tiny event's logarithms are in place
    T part = T(0);
    for (int c = lid; c < n; c += NT) part += sh[S::kPiv + c];
    const T sum = block_sum(part, n, lid, NT, sh);
    if (live && lid == 0) store_logdet(p, mat, info, sum);
  }

  if constexpr (REG) {
    // Every thread of the block runs the barriers; only a factored matrix
    // (or a tiny event's, solved serially) writes B.
    T* const w = sh + S::kW;
    T* const Bm = p.b + mi * p.b_bs;
    const bool write = live && event == FirstEvent::kNone;
    // Lanes of the matrix's threads lid = 0..B-1 (launch_tile keeps them in one warp).
    const int base = inter ? sub : (sub * NT) % 32, step = inter ? mpb : 1;
#pragma unroll 1
    for (int q = 0; q < p.nrhs; ++q) {
      for (int c = lid; c < NP; c += NT)
        w[RegSolve<T, B, M>::kVec + c] = c < n ? Bm[c * p.b_rs + q * p.b_cs] : T(0);
      __syncthreads();
      RegSolve<T, B, M>::solve(r, w, sh + S::kRsqrt, tx, ty, lid, base, step);
      if (write)
        for (int c = lid; c < n; c += NT)
          Bm[c * p.b_rs + q * p.b_cs] = w[RegSolve<T, B, M>::kVec + c];
      __syncthreads();
    }
    if (tiny && live && lid == 0 && info == 0)
      serial_solve(As, a_rs, a_cs, n, Bm, p.b_rs, p.b_cs, p.nrhs);
  }

  if constexpr (kSolve) {
    // One warp per matrix of the block; a failed posv leaves B as it was.
    __syncthreads();
    const int lane = int(threadIdx.x) % 32, nwarps = int(blockDim.x) / 32;
    for (int w = int(threadIdx.x) / 32; w < mpb; w += nwarps) {
      const std::int64_t mw = first + std::int64_t(blockIdx.x) * mpb + w;
      // A tiny event's outcome is in info (written before the barrier).
      const int ew = fails[w];
      if (mw < p.batch &&
          (ew == FirstEvent::kNone || (FirstEvent::is_tiny(ew) && p.info[mw * p.info_s] == 0))) {
        const T* const Lw = reinterpret_cast<const T*>(tile_smem) + w * S::kSize + S::kL;
        WarpSolve<T, NP>::template solve_all<true, true>(Lw, n, lane, p.b + mw * p.b_bs, p.b_rs,
                                                         p.b_cs, p.nrhs);
      }
    }
  }
}

// Most threads per block of a tile kernel: up to 256 / (B*B) matrices.
template <int B>
inline constexpr int tile_maxt_v = B* B >= 256 ? B* B : 256;

// Launches the kernel over the whole batch on `stream` with mpb matrices per
// block (clamped to what MAXT allows); registers capped at 64K / (MINB*MAXT).
// The caller guarantees 1 <= n <= B*M.
template <class T, int B, int M, int MINB, Op OP, bool REG = false>
void launch_tile(const Problem<T>& p, cudaStream_t stream, int mpb) {
  constexpr int NT = B * B;
  constexpr int MAXT = tile_maxt_v<B>;
  static_assert(NT % 32 == 0 || 32 % NT == 0, "B*B must tile warps");
  mpb = std::max(1, std::min(mpb, MAXT / NT));
  // REG: the first B threads of a matrix share a warp also when interleaved.
  if constexpr (REG) mpb = std::min(mpb, std::max(1, 32 / B));
  if (mpb * NT < 32) mpb = 32 / NT;  // whole warps: shuffles in the solve need them
  using S = tile_detail::TileSmem<T, B, M, OP, REG>;
  const std::size_t shm = S::bytes(mpb);
  auto* kern = &tile_kernel<T, B, M, MAXT, MINB, OP, REG>;
  if constexpr (OP == Op::Potrf) {
    if (p.shift != nullptr) kern = &tile_kernel<T, B, M, MAXT, MINB, OP, REG, true>;
  }
  allow_shared(kern, shm, "tile_kernel shared memory");
  launch_grids((p.batch + mpb - 1) / mpb, "tile_kernel launch", [&](unsigned nb, std::int64_t b0) {
    kern<<<nb, mpb * NT, shm, stream>>>(with_source(p), b0 * mpb, mpb);
  });
}

}  // namespace batchol::cuda

#endif
