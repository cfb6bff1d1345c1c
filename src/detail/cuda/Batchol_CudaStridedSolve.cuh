// Triangular solves with a factor already in memory (potrs, trsv) above the
// orders the group kernels hold in registers: one warp per right-hand side,
// reading L straight from global memory through its strides.
//
// The factor is read once per substitution and not reused, so staging it in
// shared memory (as the fused posv does, where the factor is already there)
// would only add a copy. What matters is that a warp's loads are coalesced:
// each substitution is written in the orientation that reads the contiguous
// direction of L. With rows contiguous (LayoutRight Lower, LayoutLeft-like
// Upper), forward substitution goes row by row (lanes split the row's dot
// product, a warp reduction finishes it) and backward substitution column of
// L^T by column, i.e. also along rows of L (the finished x_k is broadcast by one
// shuffle and row k updates the entries left of it). With columns contiguous
// it is the other way round. Lane l owns rows l, l + 32, ... of the vector (MW
// of them, so no register array is indexed at run time), as in WarpSolve.
#ifndef BATCHOL_CUDA_STRIDED_SOLVE_CUH
#define BATCHOL_CUDA_STRIDED_SOLVE_CUH

#include "Batchol_CudaWarpSolve.cuh"

#include <algorithm>

namespace batchol::cuda {
namespace strided_detail {

constexpr unsigned kFull = 0xffffffffu;

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(kFull, v, o);
  return v;
}

// L(r, c) of the lower view of one matrix.
template <class T>
struct Factor {
  const T* a;
  std::int64_t rs, cs;
  __device__ __forceinline__ T operator()(int r, int c) const { return a[r * rs + c * cs]; }
};

// y <- L^{-1} y for NR right-hand sides, one row of L per step (reads rows),
// U rows read ahead.
template <int U, int NR, class T, int MW>
__device__ void forward_rows(const Factor<T>& L, int n, int lane, const T (&dl)[MW],
                             T (&y)[NR][MW]) {
#pragma unroll
  for (int m0 = 0; m0 < MW; ++m0) {
    const int iend = min(n - 32 * m0, 32);
    solve_detail::pipelined<U, T, MW>(
        iend,
        [&](int s, T(&l)[MW]) {
          const int i = 32 * m0 + s;
#pragma unroll
          for (int m = 0; m < MW; ++m) {
            const int c = lane + 32 * m;
            l[m] = m <= m0 && s < iend && c < i ? L(i, c) : T(0);
          }
        },
        [&](int s, const T(&l)[MW]) {
          const int i = 32 * m0 + s;
          T part[NR];
#pragma unroll
          for (int q = 0; q < NR; ++q) {
            part[q] = T(0);
#pragma unroll
            for (int m = 0; m <= m0; ++m) {
              const int c = lane + 32 * m;
              if (c < i) part[q] += l[m] * y[q][m];  // a select: y beyond i may be non-finite
            }
          }
#pragma unroll
          for (int q = 0; q < NR; ++q) {
            const T tot = warp_sum(part[q]);
            if (lane == s) y[q][m0] = (y[q][m0] - tot) * dl[m0];
          }
        });
  }
}

// y <- L^{-T} y for NR right-hand sides, column i of L per step from the
// right (reads columns), U columns read ahead.
template <int U, int NR, class T, int MW>
__device__ void backward_cols(const Factor<T>& L, int n, int lane, const T (&dl)[MW],
                              T (&y)[NR][MW]) {
#pragma unroll
  for (int m0 = MW - 1; m0 >= 0; --m0) {
    const int iend = min(n - 32 * m0, 32);
    // Step s finishes row i = 32 m0 + iend - 1 - s.
    solve_detail::pipelined<U, T, MW>(
        iend,
        [&](int s, T(&l)[MW]) {
          const int i = 32 * m0 + iend - 1 - s;
#pragma unroll
          for (int m = 0; m < MW; ++m) {
            const int r = lane + 32 * m;
            l[m] = m >= m0 && s < iend && r > i && r < n ? L(r, i) : T(0);
          }
        },
        [&](int s, const T(&l)[MW]) {
          const int ii = iend - 1 - s, i = 32 * m0 + ii;
          T part[NR];
#pragma unroll
          for (int q = 0; q < NR; ++q) {
            part[q] = T(0);
#pragma unroll
            for (int m = m0; m < MW; ++m) {
              const int r = lane + 32 * m;
              if (r > i && r < n) part[q] += l[m] * y[q][m];
            }
          }
#pragma unroll
          for (int q = 0; q < NR; ++q) {
            const T tot = warp_sum(part[q]);
            if (lane == ii) y[q][m0] = (y[q][m0] - tot) * dl[m0];
          }
        });
  }
}

}  // namespace strided_detail

inline constexpr int strided_solve_warps = 4;  // warps per block

// One warp per NR right-hand sides: warp w = first + blockIdx.x * warps +
// (warp in block) solves columns NR j .. NR j + NR - 1 (those below nrhs) of
// system w / g, j = w % g, g = ceil(nrhs / NR). Each read of L serves the NR
// columns, and the warps of one system run side by side, so their reads of L
// after the first come from the caches (one warp looping over the columns
// would re-read L from memory nrhs / NR times in sequence).
template <class T, int MW, int U, int NR, Op OP>
__global__ void __launch_bounds__(strided_solve_warps * 32)
    strided_solve_kernel(const Problem<T> p, const std::int64_t first) {
  using namespace strided_detail;
  static_assert(OP == Op::Potrs || OP == Op::TrsvN || OP == Op::TrsvT,
                "solve-only modes: the factor is read, never written");
  constexpr bool kForward = OP != Op::TrsvT;
  constexpr bool kBackward = OP != Op::TrsvN;
  const int lane = threadIdx.x % 32;
  const std::int64_t w = first + std::int64_t(blockIdx.x) * strided_solve_warps + threadIdx.x / 32;
  const std::int64_t g = rhs_groups<NR>(p.nrhs);
  const std::int64_t s = w / g;
  if (s >= p.batch) return;  // the whole warp: w is warp-uniform
  // After posv's factorization (the table's split posv): a system whose
  // factorization failed keeps its right-hand sides.
  if (p.skip_failed && p.info[s * p.info_s] != 0) return;
  const int q0 = int(w % g) * NR;
  const int n = p.n;
  const Factor<T> L{p.a + s * p.a_bs, p.a_rs, p.a_cs};
  // Rows contiguous, or else columns read by the column-wise forms (for
  // LayoutLeft, neither is contiguous and both read 8 bytes per sector).
  const bool rows = p.a_cs == 1;
  // The column-wise forward and row-wise backward forms are the fused posv's.
  using Cols = WarpSolve<T, 32 * MW>;
  T dl[MW];
  Cols::diag_inv(L, n, lane, dl);
  T* const Bs = p.b + s * p.b_bs;
  T y[NR][MW];  // columns past nrhs solve zeros and are not stored
#pragma unroll
  for (int q = 0; q < NR; ++q)
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      y[q][m] = r < n && q0 + q < p.nrhs ? Bs[r * p.b_rs + (q0 + q) * p.b_cs] : T(0);
    }
  if constexpr (kForward) {
    if (rows)
      forward_rows<U, NR>(L, n, lane, dl, y);
    else
      Cols::template forward<U, NR>(L, n, lane, dl, y);
  }
  if constexpr (kBackward) {
    if (rows)
      Cols::template backward<U, NR>(L, n, lane, dl, y);
    else
      backward_cols<U, NR>(L, n, lane, dl, y);
  }
#pragma unroll
  for (int q = 0; q < NR; ++q)
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      if (r < n && q0 + q < p.nrhs) Bs[r * p.b_rs + (q0 + q) * p.b_cs] = y[q][m];
    }
}

// Launches the kernel over the whole batch on `stream` (several launches when
// the grid would exceed 2^30 blocks): U steps of L read ahead, NR right-hand
// sides per warp. The caller guarantees n <= 32 MW. (batch * ceil(nrhs / NR)
// warps: the public layer bounds batch by the View's extent and nrhs by an
// int, so the product fits 64 bits.)
template <class T, int MW, Op OP, int U, int NR>
void launch_strided_solve(const Problem<T>& p, cudaStream_t stream) {
  if (p.nrhs < 1) return;
  const std::int64_t warps = p.batch * rhs_groups<NR>(p.nrhs);
  const std::int64_t blocks = (warps + strided_solve_warps - 1) / strided_solve_warps;
  launch_grids(blocks, "strided_solve_kernel launch", [&](unsigned nb, std::int64_t b0) {
    strided_solve_kernel<T, MW, U, NR, OP>
        <<<nb, strided_solve_warps * 32, 0, stream>>>(p, b0 * strided_solve_warps);
  });
}

}  // namespace batchol::cuda

#endif
