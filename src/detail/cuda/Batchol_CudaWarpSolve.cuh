// Forward and backward substitution of one system by one warp, on a factor
// held in shared memory as a packed lower triangle ((r,c) at r(r+1)/2 + c:
// forward_packed, backward_packed, solve_all) or read where it lies through
// an accessor (forward, backward: Batchol_CudaStridedSolve.cuh).
//
// Why a warp: a triangular solve with one right-hand side has one column (or
// row) of work per step and n dependent steps, so more than one warp only adds
// barriers. Lane l owns rows l, l+32, ... of the vector in registers (MW of
// them, MW compile-time, so no register array is indexed at run time); the
// finished element of each step reaches the warp by one shuffle, and the
// reads of L do not depend on it, so they run ahead of the chain.
#ifndef BATCHOL_CUDA_WARP_SOLVE_CUH
#define BATCHOL_CUDA_WARP_SOLVE_CUH

#include "Batchol_CudaCommon.cuh"

#include <type_traits>

namespace batchol::cuda {
namespace solve_detail {

// A lower triangle held by rows in shared memory: row r (its r + 1 entries)
// starts at row_start<E>(r), each row padded to a multiple of E elements.
// E = 1 is the packed triangle, (r, c) at r (r + 1) / 2 + c. E = 16 bytes /
// sizeof(T) starts every row on 16 bytes, as a bulk (TMA) copy of the row
// needs (Batchol_CudaStagedSolve.cuh).
template <int E>
__host__ __device__ constexpr int row_start(int r) {
  static_assert(E == 1 || E == 2 || E == 4,
                "E = 1 (packed) or 16 bytes / sizeof(T) (rows on 16 bytes)");
  // sum over j = 1 .. r of E ceil(j / E): r (r + 1) / 2 plus the padding
  if constexpr (E == 1) return r * (r + 1) / 2;
  if constexpr (E == 2) return r * (r + 1) / 2 + (r + 1) / 2;
  return r * (r + 1) / 2 + 6 * (r / 4) + (r % 4 == 0 ? 0 : r % 4 == 1 ? 3 : r % 4 == 2 ? 5 : 6);
}
__host__ __device__ constexpr int packed_size(int n) {
  return row_start<1>(n);
}
// Elements past the last row that WarpSolve's row forms may read (and
// ignore).
inline constexpr int packed_slack = 32;
__device__ __forceinline__ int packed(int r, int c) {
  return row_start<1>(r) + c;
}

// The factor is all there (forward_packed's `wait`, for a factor that
// arrives in column panels: Batchol_CudaStagedSolve.cuh).
struct NoWait {
  __device__ void operator()(int) const {}
};

// L(r, c), r >= c, of a triangle held by rows (row_start<E>).
template <class T, int E = 1>
struct Packed {
  const T* p;
  __device__ __forceinline__ T operator()(int r, int c) const { return p[row_start<E>(r) + c]; }
};

// Runs step(s, l) for s = 0 .. count-1 (count warp-uniform), where
// load(s, l) reads into l the entries of L that step s needs (zeros, and no
// memory access, for s >= count). The reads of the next U steps are issued
// before the current U steps run: they do not depend on the solution, so a
// warp keeps U rows of L in flight instead of meeting the memory latency at
// every link of its dependent chain. U = 1 reads one step ahead.
template <int U, class T, int MW, class Load, class Step>
__device__ __forceinline__ void pipelined(int count, const Load& load, const Step& step) {
  T cur[U][MW], nxt[U][MW];
#pragma unroll
  for (int u = 0; u < U; ++u) load(u, cur[u]);
  constexpr int kUnroll = U == 1 ? 4 : 1;
#pragma unroll kUnroll
  for (int s0 = 0; s0 < count; s0 += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) load(s0 + U + u, nxt[u]);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (s0 + u < count) step(s0 + u, cur[u]);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int m = 0; m < MW; ++m) cur[u][m] = nxt[u][m];
  }
}

}  // namespace solve_detail

// NP: largest order handled (MW = ceil(NP/32) rows per lane).
template <class T, int NP>
struct WarpSolve {
  static constexpr int MW = (NP + 31) / 32;
  static constexpr unsigned kFull = 0xffffffffu;
  // The packed forms' step (forward_packed): reads one step ahead and a
  // chain without multiply from MW = 3 up.
  static constexpr bool kAhead = MW >= 3;

  // dl[m] = 1 / L(r,r) for the lane's rows r < n (1 beyond).
  template <class Acc>
  __device__ static void diag_inv(const Acc& L, int n, int lane, T (&dl)[MW]) {
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      dl[m] = r < n ? recip(L(r, r)) : T(1);
    }
  }

  // y <- L^{-1} y, column by column: y_k is final once rows above are applied.
  // L(r, c) reads the factor (strided in global memory:
  // Batchol_CudaStridedSolve.cuh); U steps' reads are issued ahead
  // (solve_detail::pipelined). NR right-hand sides at once: each read of L
  // serves all of them, and their chains interleave. Finished rows keep their
  // value by a select, so an Inf or NaN reaching y_k cannot turn them into NaN
  // through a multiplication by zero.
  template <int U = 1, int NR = 1, class Acc>
  __device__ static void forward(const Acc& L, int n, int lane, const T (&dl)[MW], T (&y)[NR][MW]) {
#pragma unroll
    for (int m0 = 0; m0 < MW; ++m0) {
      const int kend = n - 32 * m0 < 32 ? n - 32 * m0 : 32;
      solve_detail::pipelined<U, T, MW>(
          kend,
          [&](int s, T(&l)[MW]) {
            const int k = 32 * m0 + s;
#pragma unroll
            for (int m = 0; m < MW; ++m) {
              const int r = lane + 32 * m;
              l[m] = m >= m0 && s < kend && r > k && r < n ? L(r, k) : T(0);
            }
          },
          [&](int s, const T(&l)[MW]) {
            const int k = 32 * m0 + s;
#pragma unroll
            for (int q = 0; q < NR; ++q) {
              const T yk = __shfl_sync(kFull, y[q][m0] * dl[m0], s);
#pragma unroll
              for (int m = m0; m < MW; ++m) {
                const int r = lane + 32 * m;
                if (m == m0)
                  y[q][m] = lane == s ? yk : (r > k && r < n ? y[q][m] - l[m] * yk : y[q][m]);
                else
                  y[q][m] -= l[m] * yk;
              }
            }
          });
    }
  }

  // y <- L^{-T} y, row by row from the bottom: x_k is final once the rows
  // below have been subtracted, then row k of L updates the entries left of k.
  template <int U = 1, int NR = 1, class Acc>
  __device__ static void backward(const Acc& L, int n, int lane, const T (&dl)[MW],
                                  T (&y)[NR][MW]) {
#pragma unroll
    for (int m0 = MW - 1; m0 >= 0; --m0) {
      const int kend = n - 32 * m0 < 32 ? n - 32 * m0 : 32;
      // Step s finishes row k = 32 m0 + kend - 1 - s.
      solve_detail::pipelined<U, T, MW>(
          kend,
          [&](int s, T(&l)[MW]) {
            const int k = 32 * m0 + kend - 1 - s;
#pragma unroll
            for (int m = 0; m < MW; ++m) {
              const int c = lane + 32 * m;
              l[m] = m <= m0 && s < kend && c < k ? L(k, c) : T(0);
            }
          },
          [&](int s, const T(&l)[MW]) {
            const int kk = kend - 1 - s, k = 32 * m0 + kk;
#pragma unroll
            for (int q = 0; q < NR; ++q) {
              const T xk = __shfl_sync(kFull, y[q][m0] * dl[m0], kk);
#pragma unroll
              for (int m = 0; m <= m0; ++m) {
                const int c = lane + 32 * m;
                if (m == m0)
                  y[q][m] = lane == kk ? xk : (c < k ? y[q][m] - l[m] * xk : y[q][m]);
                else
                  y[q][m] -= l[m] * xk;
              }
            }
          });
    }
  }

  // The two substitutions on a triangle held by rows in shared memory
  // (row_start<E>), with every step's k a compile-time constant (the 32
  // steps of each of the MW row blocks unrolled): a read of L is then a
  // per-lane base plus an immediate offset. Why: the generic forms above
  // spend about 68 instructions per step on run-time indices and predicates
  // (ncu, H100, n = 100 staged: 13.7 thousand per system).
  //
  // A step has one of two forms, by MW, because what bounds it differs:
  // - MW <= 2 (n <= 64): many warps share a scheduler, so the fewest
  //   instructions win. The step reads its own L, shuffles y_k scaled by
  //   1/L(k,k), and rows it must not touch keep their value by a predicate;
  //   the block's rows are scaled once at its end.
  //   (The MW >= 3 form measured up to 9 % slower at n = 40-48, -1 to 9 %,
  //   on the H100.)
  // - MW >= 3: shared memory leaves a few warps per SM, so each warp's chain
  //   sets the time (forward_blocked, backward_blocked below).
  // Neither multiplies a row it must leave by zero, so an Inf or NaN element
  // stays where substitution puts it. Reads, used or not: up to the element
  // after the last row in the forward substitution (up to 2 BLK elements
  // past it at MW >= 3), up to 31 elements past it in the backward one; the
  // caller's shared memory must hold packed_slack elements after the
  // triangle.
  //
  // The forward substitution reads the factor column panel by column panel
  // (columns 32 P .. 32 P + 31 in row block P): wait(P) returns once panel P
  // is in shared memory, and is called before its first read, for every P
  // with 32 P < n, so that a factor copied panel by panel is solved while
  // the later panels arrive. With `fill`, dl[P] is computed from panel P
  // once it is there.
  template <int E = 1, int BLK = 1, class Wait = solve_detail::NoWait>
  __device__ static void forward_packed(const T* tri, int n, int lane, T (&dl)[MW], T (&y)[MW],
                                        bool fill = false, const Wait& wait = {}) {
    if constexpr (kAhead) {
      forward_blocked<E, BLK>(tri, n, lane, dl, y, fill, wait);
    } else {
      const T* row[MW];  // row r = lane + 32 m; row 0 for padded rows (never stored)
#pragma unroll
      for (int m = 0; m < MW; ++m) {
        const int r = lane + 32 * m;
        row[m] = tri + (r < n ? solve_detail::row_start<E>(r) : 0);
      }
#pragma unroll
      for (int m0 = 0; m0 < MW; ++m0) {
        if (32 * m0 < n) wait(m0);
        if (fill) {
          const int r = lane + 32 * m0;
          dl[m0] = r < n ? recip(row[m0][r]) : T(1);
        }
#pragma unroll
        for (int s = 0; s < 32; ++s) {
          const int k = 32 * m0 + s;
          if (k >= n) break;
          T l[MW];
#pragma unroll
          for (int m = m0; m < MW; ++m) l[m] = row[m][k];
          const T yk = __shfl_sync(kFull, y[m0] * dl[m0], s);
          if (lane > s) y[m0] -= l[m0] * yk;
#pragma unroll
          for (int m = m0 + 1; m < MW; ++m) y[m] -= l[m] * yk;
        }
        y[m0] *= dl[m0];
      }
    }
  }
  template <int E = 1, int BLK = 1>
  __device__ static void backward_packed(const T* tri, int n, int lane, const T (&dl)[MW],
                                         T (&y)[MW]) {
    if constexpr (kAhead) {
      backward_blocked<E, BLK>(tri, n, lane, dl, y);
    } else {
#pragma unroll
      for (int m0 = MW - 1; m0 >= 0; --m0) {
#pragma unroll
        for (int s = 31; s >= 0; --s) {
          const int k = 32 * m0 + s;
          if (k >= n) continue;
          const T* const rk = tri + solve_detail::row_start<E>(k) + lane;
          T l[MW];
#pragma unroll
          for (int m = 0; m <= m0; ++m) l[m] = rk[32 * m];
          const T xk = __shfl_sync(kFull, y[m0] * dl[m0], s);
          if (lane < s) y[m0] -= l[m0] * xk;
#pragma unroll
          for (int m = 0; m < m0; ++m) y[m] -= l[m] * xk;
        }
        y[m0] *= dl[m0];
      }
    }
  }

  // One block of B steps of the blocked chain, from the block's rows of L
  // held in cur[i][m0]: ld[i] = cur[i][m0] d, this lane's multipliers; z[i],
  // the block's B chain values, which lane src(i) starts (its y) and every
  // lane finishes from the block's diagonal part of L (lane src(i)'s ld[j],
  // j < i, shuffled), counting step j only where live(j); the lane src(i)
  // keeps z[i] in done.
  template <int B, class Src, class Live>
  __device__ __forceinline__ static void chain_block(const T (&cur)[B][MW], int m0, T d, T y,
                                                     int lane, T (&ld)[B], T (&z)[B], T& done,
                                                     const Src& src, const Live& live) {
    T c[B][B];
#pragma unroll
    for (int i = 0; i < B; ++i) ld[i] = cur[i][m0] * d;
#pragma unroll
    for (int i = 1; i < B; ++i)
#pragma unroll
      for (int j = 0; j < i; ++j) c[i][j] = __shfl_sync(kFull, ld[j], src(i));
#pragma unroll
    for (int i = 0; i < B; ++i) z[i] = __shfl_sync(kFull, y, src(i));
#pragma unroll
    for (int i = 0; i < B; ++i) {
#pragma unroll
      for (int j = 0; j < i; ++j)
        if (live(j)) z[i] -= c[i][j] * z[j];
      if (lane == src(i)) done = z[i];
    }
  }

  // MW >= 3: the steps go by blocks of B (forward_packed's BLK, 1 unless
  // the caller asks). Each step of a block reads the next block's L; the
  // rows of the diagonal block m0 are held scaled by 1/L(r,r), so that the
  // chain has no multiply; and each lane keeps its value when its own step
  // comes (`done`), so that no predicate sits on the chain: its y is never
  // read again. H100, double n = 100, one warp alone: 112 -> 79 cycles per
  // forward step with B = 1 (the bare chain of multiply, shuffle and FMA
  // takes 43).
  // With B > 1 the B values of a block's chain reach every lane by B
  // independent shuffles, and every lane finishes them itself from the
  // block's diagonal part of L, which it gets by shuffles too (lane s holds
  // row s's entries, scaled): one shuffle and B fused multiply-adds on the
  // chain per block instead of B shuffles and B FMAs, for B (B - 1) / 2
  // shuffles more and the registers of B steps' reads. Every element gets
  // the same operations in the same order as with B = 1: the results are
  // the same bit for bit. What it saves is less than the shuffles' latency
  // suggested (H100, double n = 100, one warp alone: 101 -> 86 cycles per
  // step with B = 2; instruction fetch and the FMAs' latency are the rest),
  // so only the staged
  // kernels at MW = 4 take it (Batchol_CudaStagedSolve.cuh).
  template <int E, int B, class Wait>
  __device__ static void forward_blocked(const T* tri, int n, int lane, T (&dl)[MW], T (&y)[MW],
                                         bool fill, const Wait& wait) {
    static_assert(32 % B == 0 && 2 * B <= solve_detail::packed_slack,
                  "the blocks tile the 32 steps of a row block, and read 2 B past its end");
    const T* row[MW];  // row r = lane + 32 m; row 0 for padded rows (never stored)
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      row[m] = tri + (r < n ? solve_detail::row_start<E>(r) : 0);
    }
    wait(0);
    T cur[B][MW];  // L(r, k0 + i) of the current block, rows of blocks m0 and later
#pragma unroll
    for (int i = 0; i < B; ++i)
#pragma unroll
      for (int m = 0; m < MW; ++m) cur[i][m] = row[m][i];
#pragma unroll
    for (int m0 = 0; m0 < MW; ++m0) {
      if (fill) {
        const int r = lane + 32 * m0;
        dl[m0] = r < n ? recip(row[m0][r]) : T(1);
      }
      T done = T(0);
      y[m0] *= dl[m0];
#pragma unroll
      for (int s0 = 0; s0 < 32; s0 += B) {
        const int k0 = 32 * m0 + s0;
        if (k0 >= n) break;
        // the next block's reads are the next panel's in the last block
        if (s0 + B == 32 && k0 + B < n) wait(m0 + 1);
        T nxt[B][MW];
#pragma unroll
        for (int i = 0; i < B; ++i)
#pragma unroll
          for (int m = m0; m < MW; ++m) nxt[i][m] = row[m][k0 + B + i];
        // ld[i]: the lane's L(r, k0 + i) / L(r, r); chain_block's c[i][j] =
        // L(k0 + i, k0 + j) / L(k0 + i, k0 + i), lane s0 + i's ld[j]
        T ld[B], z[B];
        chain_block(
            cur, m0, dl[m0], y[m0], lane, ld, z, done, [&](int i) { return s0 + i; },
            [](int) { return true; });
#pragma unroll
        for (int i = 0; i < B; ++i) {
          y[m0] -= ld[i] * z[i];
#pragma unroll
          for (int m = m0 + 1; m < MW; ++m) y[m] -= cur[i][m] * z[i];
        }
#pragma unroll
        for (int i = 0; i < B; ++i)
#pragma unroll
          for (int m = m0; m < MW; ++m) cur[i][m] = nxt[i][m];
      }
      y[m0] = done;
    }
  }

  template <int E, int B>
  __device__ static void backward_blocked(const T* tri, int n, int lane, const T (&dl)[MW],
                                          T (&y)[MW]) {
    static_assert(32 % B == 0, "the blocks tile the 32 steps of a row block");
    // Block q of row block m0 finishes rows k = 32 m0 + 31 - B q - i, i = 0 ..
    // B - 1 (k descending); rows past n - 1 are skipped, and read as row
    // n - 1.
    const auto row_of = [&](int k) {
      return tri + solve_detail::row_start<E>(k < n ? (k > 0 ? k : 0) : n - 1) + lane;
    };
    // L(k, lane + 32 m) of the current block's rows, columns of blocks m0
    // and before; the first block run is the one holding row n - 1.
    T cur[B][MW];
    {
      const int top = 31 - (n - 1) % 32;
      const int kb = n - 1 + top % B;
#pragma unroll
      for (int i = 0; i < B; ++i) {
        const T* const p = row_of(kb - i);
#pragma unroll
        for (int m = 0; m < MW; ++m) cur[i][m] = p[32 * m];
      }
    }
#pragma unroll
    for (int m0 = MW - 1; m0 >= 0; --m0) {
      T done = T(0);
      y[m0] *= dl[m0];
#pragma unroll
      for (int sb = 31; sb >= 0; sb -= B) {
        const int kb = 32 * m0 + sb;
        if (kb - (B - 1) >= n) continue;
        T nxt[B][MW];
#pragma unroll
        for (int i = 0; i < B; ++i) {
          const T* const p = row_of(kb - B - i);
#pragma unroll
          for (int m = 0; m <= m0; ++m) nxt[i][m] = p[32 * m];
        }
        // ld[i]: L(kb - i, c) / L(c, c) for the lane's column c; chain_block's
        // c[i][j] = L(kb - j, kb - i) / L(kb - i, kb - i), lane sb - i's ld[j]
        T ld[B], z[B];
        chain_block(
            cur, m0, dl[m0], y[m0], lane, ld, z, done, [&](int i) { return sb - i; },
            [&](int j) { return kb - j < n; });
#pragma unroll
        for (int i = 0; i < B; ++i) {
          if (kb - i >= n) continue;
          y[m0] -= ld[i] * z[i];
#pragma unroll
          for (int m = 0; m < m0; ++m) y[m] -= cur[i][m] * z[i];
        }
#pragma unroll
        for (int i = 0; i < B; ++i)
#pragma unroll
          for (int m = 0; m <= m0; ++m) cur[i][m] = nxt[i][m];
      }
      y[m0] = done;
    }
  }

  // B(:, q) <- A^{-1} B(:, q) for every q, with A = L L^T; the matrix's B at Bm
  // (the shared memory after the packed factor holds packed_slack elements).
  // wait: as forward_packed's (the factor arriving in column panels); BLK:
  // as forward_packed's.
  template <bool FWD, bool BWD, int E = 1, int BLK = 1, class Wait = solve_detail::NoWait>
  __device__ static void solve_all(const T* Lp, int n, int lane, T* Bm, std::int64_t b_rs,
                                   std::int64_t b_cs, int nrhs, const Wait& wait = {}) {
    // With panels the forward substitution computes dl panel by panel
    // (else: here, which took fewer registers).
    constexpr bool kPanels = FWD && !std::is_same_v<Wait, solve_detail::NoWait>;
    T dl[MW];
#pragma unroll
    for (int m = 0; m < MW; ++m) dl[m] = T(1);
    if constexpr (!kPanels) {
      for (int P = 0; 32 * P < n; ++P) wait(P);
      diag_inv(solve_detail::Packed<T, E>{Lp}, n, lane, dl);
    }
    for (int q = 0; q < nrhs; ++q) {
      T* const Bq = Bm + q * b_cs;
      T y[MW];
#pragma unroll
      for (int m = 0; m < MW; ++m) {
        const int r = lane + 32 * m;
        y[m] = r < n ? Bq[r * b_rs] : T(0);
      }
      if constexpr (FWD) forward_packed<E, BLK>(Lp, n, lane, dl, y, kPanels && q == 0, wait);
      if constexpr (BWD) backward_packed<E, BLK>(Lp, n, lane, dl, y);
#pragma unroll
      for (int m = 0; m < MW; ++m) {
        const int r = lane + 32 * m;
        if (r < n) Bq[r * b_rs] = y[m];
      }
    }
  }
};

}  // namespace batchol::cuda

#endif
