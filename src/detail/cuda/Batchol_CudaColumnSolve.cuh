// potrs with several right-hand sides at small orders: a thread per
// right-hand side, the factor staged once per system in shared memory.
//
// Why: the group kernel holds a system's factor in registers across a group
// of lanes and solves its right-hand sides one at a time, reading each
// column of B with a stride of nrhs (on LayoutRight 20-42 % of the roofline
// at n = 4-32 with eight); the staged solve gives each right-hand side a
// whole warp. Here a warp holds S = 32 / G systems, G lanes each, and lane
// t of a system owns its columns t, t + G, ...: one column in NP registers
// at a time. Both substitutions are column-oriented (the forward one by
// columns of L, the backward one by rows), so each step's updates are
// independent multiply-adds and the dependent chain is n steps long. A
// system's lanes read the same shared-memory address (a broadcast); the
// systems of a warp sit at an odd stride, so in different banks. On B with
// rows contiguous (LayoutRight) the G lanes of a system read and write G
// consecutive values of each row.
//
// The factor's lower triangle is copied by the whole warp into a packed
// triangle (row r from r (r + 1) / 2), along L's contiguous direction, by
// asynchronous copies; each diagonal element is then replaced by its
// reciprocal (the substitutions multiply by it, as the other solve kernels
// do), and the rows from n to NP are zero. Every warp works on its own
// systems: no block barrier.
#ifndef BATCHOL_CUDA_COLUMN_SOLVE_CUH
#define BATCHOL_CUDA_COLUMN_SOLVE_CUH

#include "Batchol_CudaCommon.cuh"

#include <cuda_pipeline_primitives.h>

#include <cstddef>
#include <cstdint>

namespace batchol::cuda {

inline constexpr int column_solve_warps = 4;  // warps per block

// The packed triangle of one system, padded to an odd number of elements.
template <int NP>
__host__ __device__ constexpr int column_slot() {
  return (NP * (NP + 1) / 2) | 1;
}
template <class T, int NP, int G>
constexpr std::size_t column_solve_shared() {
  return std::size_t(column_solve_warps) * (32 / G) * column_slot<NP>() * sizeof(T);
}

namespace column_detail {

// Copies the lower triangles of the warp's S systems (s0, s0 + 1, ...;
// those from `batch` on are skipped) into their slots by asynchronous
// element copies, all in flight at once (copies through registers, a load
// then a store, left a warp waiting on each batch of loads: 0.4 TB/s at
// n = 32), row by row where L's columns are not the contiguous direction,
// else column by column, so that consecutive lanes read consecutive
// elements of one row (or column) of one system. Rows and columns at or
// beyond n are written as zeros. Then each diagonal element becomes its
// reciprocal.
template <class T, int NP, int S, bool BY_COLS>
__device__ __forceinline__ void stage(const Problem<T>& p, std::int64_t s0, int lane, T* slots) {
  const int n = p.n;
#pragma unroll
  for (int j = 0; j < NP; ++j) {
    // Line j: row j (elements (j, 0..j)) or column j (elements (j..NP-1, j)).
    const int len = BY_COLS ? NP - j : j + 1;
#pragma unroll
    for (int e0 = 0; e0 < S * NP; e0 += 32) {
      const int e = e0 + lane;
      // e0 < S len is known at compile time: it drops the empty iterations.
      if (e0 < S * len && e < S * len) {
        const int k = e / len, i = e - k * len;
        const int r = BY_COLS ? j + i : j, c = BY_COLS ? j : i;
        const std::int64_t s = s0 + k;
        T* const dst = slots + k * column_slot<NP>() + r * (r + 1) / 2 + c;
        if (r < n && s < p.batch)
          __pipeline_memcpy_async(dst, p.a + s * p.a_bs + r * p.a_rs + c * p.a_cs, sizeof(T));
        else
          *dst = T(0);
      }
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
#pragma unroll
  for (int e0 = 0; e0 < S * NP; e0 += 32) {
    const int e = e0 + lane;
    if (e < S * NP) {
      const int k = e / NP, r = e - k * NP;
      T& d = slots[k * column_slot<NP>() + r * (r + 1) / 2 + r];
      if (r < n) d = recip(d);
    }
  }
  __syncwarp();
}

// x <- L^{-1} x: column c of L updates the rows below it once x_c is final.
// Rows from n on take junk values, which nothing reads.
template <class T, int NP>
__device__ __forceinline__ void forward(const T* L, int n, T (&x)[NP]) {
#pragma unroll
  for (int c = 0; c < NP; ++c) {
    if (c < n) {
      x[c] *= L[c * (c + 1) / 2 + c];
#pragma unroll
      for (int r = c + 1; r < NP; ++r) x[r] -= L[r * (r + 1) / 2 + c] * x[c];
    }
  }
}

// x <- L^{-T} x: row r of L updates the entries left of it once x_r is
// final, from the last row up.
template <class T, int NP>
__device__ __forceinline__ void backward(const T* L, int n, T (&x)[NP]) {
#pragma unroll
  for (int r = NP - 1; r >= 0; --r) {
    if (r < n) {
      x[r] *= L[r * (r + 1) / 2 + r];
#pragma unroll
      for (int c = 0; c < r; ++c) x[c] -= L[r * (r + 1) / 2 + c] * x[r];
    }
  }
}

}  // namespace column_detail

// Warp w = first + blockIdx.x * warps + (warp in block) solves systems
// S w .. S w + S - 1 (those below batch), S = 32 / G; lane t of system k
// solves its right-hand sides t, t + G, ... below nrhs.
template <class T, int NP, int G, Op OP>
__global__ void __launch_bounds__(column_solve_warps * 32)
    column_solve_kernel(const Problem<T> p, const std::int64_t first) {
  using namespace column_detail;
  static_assert(OP == Op::Potrs || OP == Op::TrsvN || OP == Op::TrsvT,
                "solve-only modes: the factor is read, never written");
  static_assert(G >= 1 && 32 % G == 0, "G lanes per system, a divisor of the warp");
  constexpr int S = 32 / G;
  extern __shared__ unsigned char column_shared[];
  const int lane = threadIdx.x % 32, wib = threadIdx.x / 32;
  const std::int64_t s0 = (first + std::int64_t(blockIdx.x) * column_solve_warps + wib) * S;
  if (s0 >= p.batch) return;  // the whole warp: s0 is warp-uniform
  T* const slots = reinterpret_cast<T*>(column_shared) + wib * S * column_slot<NP>();
  // Along the contiguous direction: rows, unless only the columns are.
  if (p.a_rs == 1 && p.a_cs != 1)
    stage<T, NP, S, true>(p, s0, lane, slots);
  else
    stage<T, NP, S, false>(p, s0, lane, slots);
  const int k = lane / G, t = lane % G;
  const std::int64_t s = s0 + k;
  if (s >= p.batch) return;
  // After posv's factorization: a system whose factorization failed keeps
  // its right-hand sides.
  if (p.skip_failed && p.info[s * p.info_s] != 0) return;
  const T* const L = slots + k * column_slot<NP>();
  const int n = p.n;
  T* const B = p.b + s * p.b_bs;
  for (int q = t; q < p.nrhs; q += G) {
    T x[NP];
#pragma unroll
    for (int r = 0; r < NP; ++r) x[r] = r < n ? B[r * p.b_rs + q * p.b_cs] : T(0);
    if constexpr (solves_forward(OP)) forward(L, n, x);
    if constexpr (solves_backward(OP)) backward(L, n, x);
#pragma unroll
    for (int r = 0; r < NP; ++r)
      if (r < n) B[r * p.b_rs + q * p.b_cs] = x[r];
  }
}

// Launches the kernel over the whole batch on `stream` (several launches when
// the grid would exceed 2^30 blocks). The caller guarantees n <= NP.
template <class T, int NP, int G, Op OP>
void launch_column_solve(const Problem<T>& p, cudaStream_t stream) {
  if (p.nrhs < 1) return;
  constexpr int S = 32 / G;
  constexpr std::size_t shm = column_solve_shared<T, NP, G>();
  auto* kern = column_solve_kernel<T, NP, G, OP>;
  allow_shared(kern, shm, "column_solve_kernel shared memory");
  const std::int64_t warps = (p.batch + S - 1) / S;
  const std::int64_t blocks = (warps + column_solve_warps - 1) / column_solve_warps;
  launch_grids(blocks, "column_solve_kernel launch", [&](unsigned nb, std::int64_t b0) {
    kern<<<nb, column_solve_warps * 32, shm, stream>>>(p, b0 * column_solve_warps);
  });
}

}  // namespace batchol::cuda

#endif
