// Triangular solves with a factor already in memory (potrs, trsv), a group
// of G lanes per system (G = 1: a thread per system), 32 / G systems per
// warp: for LayoutLeft, where the batch index is the contiguous one.
//
// Why: on LayoutLeft, element (r, c) of neighbouring systems lies side by
// side, so a warp whose lanes hold 32 / G >= 4 (double) or 8 (float) of them
// reads whole 32-byte sectors. The kernels with a warp per system read 8
// bytes of each sector and leave the rest to other warps (through L1 or L2),
// and a block that holds a sector's systems in shared memory holds their
// whole triangles, which caps occupancy (Nsight Compute, H100). Here potrs reads L
// twice, once per substitution: the triangles of the systems in flight
// between the two are far more than L2 holds. The strided solve trades the
// same way on LayoutRight. G > 1 is for batches too small to fill the GPU
// with 32 systems per warp (10^4 systems are 313 warps for 132 SMs): on the
// H100, G = 2-4 took 0.70-0.81x the time of G = 1 at n = 56-128.
//
// Each substitution goes by blocks of R rows: R accumulators per right-hand
// side, a run of R independent loads per column of L, lane g of the group
// taking the columns (rows, backward) j = g mod G; a butterfly sums the
// group's parts, and the R x R diagonal block follows. The vector being
// solved lives in shared memory, a column of it per system, because its
// order is only known at run time; it is read once per R multiply-adds. On
// other layouts the kernel is correct but each lane reads its own sectors.
#ifndef BATCHOL_CUDA_LANE_SOLVE_CUH
#define BATCHOL_CUDA_LANE_SOLVE_CUH

#include "Batchol_CudaCommon.cuh"

namespace batchol::cuda {
namespace lane_detail {

// One system as a group of G lanes sees it: lane g of the group takes the
// columns (forward) or rows (backward) j = g, g + G, ... of each block's
// update, and of the vector only the entries i = g mod G, which it alone
// reads and writes (so the group needs no barrier).
template <class T, int G>
struct System {
  const T* a;  // L(r, c) at a[r * rs + c * cs]
  std::int64_t rs, cs;
  T* v;  // entry i of right-hand side q at v[(q * n + i) * (32 / G)]
  int n;
  int g;  // this lane's place in its group
  __device__ __forceinline__ T L(int r, int c) const { return __ldg(a + r * rs + c * cs); }
  __device__ __forceinline__ T& V(int q, int i) const { return v[(q * n + i) * (32 / G)]; }
  __device__ __forceinline__ bool owns(int i) const { return i % G == g; }
  // Row i exists (always, in a block of whole rows).
  template <bool FULL>
  __device__ __forceinline__ bool has(int i) const {
    return FULL || i < n;
  }
};

// Sum over the group (partners differ in g, so in the same system); the
// butterfly leaves the same bits in every lane of the group.
template <int G, class T>
__device__ __forceinline__ T group_sum(T v, unsigned mask) {
#pragma unroll
  for (int off = 32 / 2; off >= 32 / G; off /= 2) v += __shfl_xor_sync(mask, v, off);
  return v;
}

// The block's rows of the vector where this lane owns them, zeros elsewhere
// (the group's sum then starts from the vector's entry once).
template <bool FULL, class T, int G, int NR, int R>
__device__ void own_entries(const System<T, G>& s, int i0, T (&acc)[NR][R]) {
#pragma unroll
  for (int k = 0; k < R; ++k)
#pragma unroll
    for (int q = 0; q < NR; ++q)
      acc[q][k] = s.template has<FULL>(i0 + k) && s.owns(i0 + k) ? s.V(q, i0 + k) : T(0);
}

template <int G, class T, int NR, int R>
__device__ void sum_over_group(T (&acc)[NR][R], unsigned mask) {
#pragma unroll
  for (int k = 0; k < R; ++k)
#pragma unroll
    for (int q = 0; q < NR; ++q) acc[q][k] = group_sum<G>(acc[q][k], mask);
}

// The R x R diagonal block of rows i0 .. i0 + R - 1 (those below n) after the
// group's sums; every lane of the group computes it, the owners store it.
// FORWARD: y <- L^{-1} y, else x <- L^{-T} x.
template <bool FORWARD, int R, int NR, bool FULL, class T, int G>
__device__ void diagonal_block(const System<T, G>& s, int i0, T (&acc)[NR][R]) {
  auto live = [&](int k) { return s.template has<FULL>(i0 + k); };
#pragma unroll
  for (int step = 0; step < R; ++step) {
    const int k = FORWARD ? step : R - 1 - step;
    if (!live(k)) continue;  // n is the same for every lane
    T l[R];
#pragma unroll
    for (int m = 0; m < R; ++m)
      if (FORWARD ? m < k : m > k)
        l[m] = !live(m) ? T(0) : FORWARD ? s.L(i0 + k, i0 + m) : s.L(i0 + m, i0 + k);
    const T d = recip(s.L(i0 + k, i0 + k));
#pragma unroll
    for (int q = 0; q < NR; ++q) {
#pragma unroll
      for (int m = 0; m < R; ++m)
        if (FORWARD ? m < k : m > k) acc[q][k] -= l[m] * acc[q][m];
      acc[q][k] *= d;
      if (s.owns(i0 + k)) s.V(q, i0 + k) = acc[q][k];
    }
  }
}

// Rows i0 .. i0 + R - 1 of y <- L^{-1} y (those below n; all of them when
// FULL), given rows 0 .. i0 - 1 solved.
template <int R, int NR, bool FULL, class T, int G>
__device__ void forward_block(const System<T, G>& s, int i0, unsigned mask) {
  auto live = [&](int k) { return s.template has<FULL>(i0 + k); };
  T acc[NR][R];
  own_entries<FULL>(s, i0, acc);
#pragma unroll 4
  for (int j = s.g; j < i0; j += G) {
    T l[R];
#pragma unroll
    for (int k = 0; k < R; ++k) l[k] = live(k) ? s.L(i0 + k, j) : T(0);
#pragma unroll
    for (int q = 0; q < NR; ++q) {
      const T y = s.V(q, j);
#pragma unroll
      for (int k = 0; k < R; ++k) acc[q][k] -= l[k] * y;
    }
  }
  sum_over_group<G>(acc, mask);
  diagonal_block<true, R, NR, FULL>(s, i0, acc);
}

// Rows i0 .. i0 + R - 1 of x <- L^{-T} x (those below n), given rows
// i0 + R .. n - 1 solved.
template <int R, int NR, bool FULL, class T, int G>
__device__ void backward_block(const System<T, G>& s, int i0, unsigned mask) {
  T acc[NR][R];
  own_entries<FULL>(s, i0, acc);
  // Only the last block is partial, and nothing lies below it.
  if constexpr (FULL) {
#pragma unroll 4
    for (int j = i0 + R + s.g; j < s.n; j += G) {
      T l[R];
#pragma unroll
      for (int k = 0; k < R; ++k) l[k] = s.L(j, i0 + k);
#pragma unroll
      for (int q = 0; q < NR; ++q) {
        const T x = s.V(q, j);
#pragma unroll
        for (int k = 0; k < R; ++k) acc[q][k] -= l[k] * x;
      }
    }
  }
  sum_over_group<G>(acc, mask);
  diagonal_block<false, R, NR, FULL>(s, i0, acc);
}

}  // namespace lane_detail

// Block b = first + blockIdx.x (one warp) solves columns NR j .. NR j + NR - 1
// (those below nrhs) of systems S (b / c) .. S (b / c) + S - 1, S = 32 / G,
// j = b % c, c = rhs_groups<NR>(nrhs): the warps of the same systems are
// neighbours, so their reads of L after the first come from L2. Lane
// g S + t is lane g of system t's group. A group talks only within itself, so
// a group past the batch simply leaves. MINB blocks per SM bound the
// registers: at 1 ptxas issues more of the loads ahead (up to ~250
// registers), at 16 it keeps 128 and more warps run.
template <class T, int NR, int R, int G, int MINB, Op OP>
__global__ void __launch_bounds__(32, MINB)
    lane_solve_kernel(const Problem<T> p, const std::int64_t first) {
  using namespace lane_detail;
  static_assert(OP == Op::Potrs || OP == Op::TrsvN || OP == Op::TrsvT,
                "solve-only modes: the factor is read, never written");
  static_assert(NR >= 1 && R >= 1 && G >= 1 && 32 % G == 0 && R % G == 0,
                "a shape of the lane solve: G lanes per system, blocks of R rows, G | R");
  constexpr int S = 32 / G;
  extern __shared__ __align__(16) unsigned char lane_bytes[];
  const int t = threadIdx.x % S, g = threadIdx.x / S;
  const std::int64_t b = first + blockIdx.x;
  const std::int64_t c = rhs_groups<NR>(p.nrhs);
  const std::int64_t sys = b / c * S + t;
  // After posv's factorization (a split posv): a failed system keeps its B.
  const bool live = sys < p.batch && !(p.skip_failed && p.info[sys * p.info_s] != 0);
  const unsigned mask = __ballot_sync(0xffffffffu, live);
  if (!live) return;
  const int q0 = int(b % c) * NR, n = p.n;
  const System<T, G> s{
      p.a + sys * p.a_bs, p.a_rs, p.a_cs, reinterpret_cast<T*>(lane_bytes) + t, n, g};
  T* const B = p.b + sys * p.b_bs;
  for (int i = g; i < n; i += G)
#pragma unroll
    for (int q = 0; q < NR; ++q)
      s.V(q, i) = q0 + q < p.nrhs ? B[i * p.b_rs + (q0 + q) * p.b_cs] : T(0);
  const int full = n / R * R;  // rows in whole blocks
  if constexpr (OP != Op::TrsvT) {
    for (int i0 = 0; i0 < full; i0 += R) forward_block<R, NR, true>(s, i0, mask);
    if (full < n) forward_block<R, NR, false>(s, full, mask);
  }
  if constexpr (OP != Op::TrsvN) {
    if (full < n) backward_block<R, NR, false>(s, full, mask);
    for (int i0 = full - R; i0 >= 0; i0 -= R) backward_block<R, NR, true>(s, i0, mask);
  }
  for (int i = g; i < n; i += G)
#pragma unroll
    for (int q = 0; q < NR; ++q)
      if (q0 + q < p.nrhs) B[i * p.b_rs + (q0 + q) * p.b_cs] = s.V(q, i);
}

// Shared memory of one block: NR columns of n entries for 32 / G systems.
template <class T, int NR, int G>
std::size_t lane_solve_shared(int n) {
  return std::size_t(NR) * std::size_t(n) * (32 / G) * sizeof(T);
}

// Launches the kernel over the whole batch on `stream` (several launches when
// the grid would exceed 2^30 blocks): G lanes per system, NR right-hand
// sides per lane, blocks of R rows, at least MINB blocks per SM. Any n the shared memory holds
// (every n <= 128 at NR <= 4 in double).
template <class T, int NR, int R, int G, int MINB, Op OP>
void launch_lane_solve(const Problem<T>& p, cudaStream_t stream) {
  if (p.nrhs < 1 || p.batch < 1 || p.n < 1) return;
  constexpr int S = 32 / G;
  const std::int64_t blocks = (p.batch + S - 1) / S * rhs_groups<NR>(p.nrhs);
  const std::size_t shm = lane_solve_shared<T, NR, G>(p.n);
  auto* kern = lane_solve_kernel<T, NR, R, G, MINB, OP>;
  allow_shared(kern, shm, "lane_solve_kernel shared memory");
  launch_grids(blocks, "lane_solve_kernel launch",
               [&](unsigned nb, std::int64_t b0) { kern<<<nb, 32, shm, stream>>>(p, b0); });
}

}  // namespace batchol::cuda

#endif
