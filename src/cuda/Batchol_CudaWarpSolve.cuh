// Forward and backward substitution of one system by one warp, on a factor
// held in shared memory as a packed lower triangle ((r,c) at r(r+1)/2 + c).
//
// Why a warp: a triangular solve with one right-hand side has one column (or
// row) of work per step and n dependent steps, so more than one warp only adds
// barriers. Lane l owns rows l, l+32, ... of the vector in registers (MW of
// them, MW compile-time, so no register array is indexed at run time); the
// finished element of each step reaches the warp by one shuffle, and the
// reads of L do not depend on it, so they run ahead of the chain.
#ifndef BATCHOL_CUDA_WARP_SOLVE_CUH
#define BATCHOL_CUDA_WARP_SOLVE_CUH

#include "Batchol_CudaBatch.cuh"

namespace batchol::cuda {
namespace solve_detail {

__device__ __forceinline__ double recip(double x) {
  return __drcp_rn(x);
}
__device__ __forceinline__ float recip(float x) {
  return __frcp_rn(x);
}

__host__ __device__ constexpr int packed_size(int n) {
  return n * (n + 1) / 2;
}
__device__ __forceinline__ int packed(int r, int c) {
  return r * (r + 1) / 2 + c;
}

}  // namespace solve_detail

// NP: largest order handled (MW = ceil(NP/32) rows per lane).
template <class T, int NP>
struct WarpSolve {
  static constexpr int MW = (NP + 31) / 32;
  static constexpr unsigned kFull = 0xffffffffu;

  // dl[m] = 1 / L(r,r) for the lane's rows r < n (1 beyond).
  __device__ static void diag_inv(const T* Lp, int n, int lane, T (&dl)[MW]) {
    using namespace solve_detail;
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      dl[m] = r < n ? recip(Lp[packed(r, r)]) : T(1);
    }
  }

  // y <- L^{-1} y, column by column: y_k is final once rows above are applied.
  __device__ static void forward(const T* Lp, int n, int lane, const T (&dl)[MW], T (&y)[MW]) {
    using namespace solve_detail;
#pragma unroll
    for (int m0 = 0; m0 < MW; ++m0) {
      const int kend = n - 32 * m0 < 32 ? n - 32 * m0 : 32;
#pragma unroll 4
      for (int kk = 0; kk < kend; ++kk) {
        const int k = 32 * m0 + kk;
        const T yk = __shfl_sync(kFull, y[m0] * dl[m0], kk);
#pragma unroll
        for (int m = m0; m < MW; ++m) {
          const int r = lane + 32 * m;
          const bool below = r > k && r < n;
          const T l = below ? Lp[packed(r, k)] : T(0);
          if (m == m0)
            y[m] = lane == kk ? yk : (below ? y[m] - l * yk : y[m]);
          else
            y[m] -= l * yk;
        }
      }
    }
  }

  // y <- L^{-T} y, row by row from the bottom: x_k is final once the rows
  // below have been subtracted, then row k of L updates the entries left of k.
  __device__ static void backward(const T* Lp, int n, int lane, const T (&dl)[MW], T (&y)[MW]) {
    using namespace solve_detail;
#pragma unroll
    for (int m0 = MW - 1; m0 >= 0; --m0) {
      const int kend = n - 32 * m0 < 32 ? n - 32 * m0 : 32;
#pragma unroll 4
      for (int kk = kend - 1; kk >= 0; --kk) {
        const int k = 32 * m0 + kk;
        const T xk = __shfl_sync(kFull, y[m0] * dl[m0], kk);
        const int base = packed(k, 0);
#pragma unroll
        for (int m = 0; m <= m0; ++m) {
          const int c = lane + 32 * m;
          const bool left = c < k;
          const T l = left ? Lp[base + c] : T(0);
          if (m == m0)
            y[m] = lane == kk ? xk : (left ? y[m] - l * xk : y[m]);
          else
            y[m] -= l * xk;
        }
      }
    }
  }

  // B(:, q) <- A^{-1} B(:, q) for every q, with A = L L^T; the matrix's B at Bm.
  template <bool FWD, bool BWD>
  __device__ static void solve_all(const T* Lp, int n, int lane, T* Bm, std::int64_t b_rs,
                                   std::int64_t b_cs, int nrhs) {
    T dl[MW];
    diag_inv(Lp, n, lane, dl);
    for (int q = 0; q < nrhs; ++q) {
      T* const Bq = Bm + q * b_cs;
      T y[MW];
#pragma unroll
      for (int m = 0; m < MW; ++m) {
        const int r = lane + 32 * m;
        y[m] = r < n ? Bq[r * b_rs] : T(0);
      }
      if constexpr (FWD) forward(Lp, n, lane, dl, y);
      if constexpr (BWD) backward(Lp, n, lane, dl, y);
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
