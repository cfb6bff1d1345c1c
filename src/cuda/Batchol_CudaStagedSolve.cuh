// The solve-only modes (potrs, trsv) with the factor copied once into shared
// memory, then the substitutions by one warp per system from there, column by
// column of the right-hand sides.
//
// Why: the strided warp solve (Batchol_CudaStridedSolve.cuh) reads L from
// global memory twice, once per substitution. With tens of thousands of
// warps in flight the second read comes from DRAM again (ncu, H100, n = 100:
// 1.9x the bytes needed), and neither capping the resident warps (the first
// read then stays in L2, but the warps are too few to hide the latency of
// their chains) nor shortening the forward chain (32-row blocks) moved it
// (perf_tests/results/h100-2026-11-23-stagedsolve/). Here each block copies
// its systems' triangles with asynchronous copies (many in flight per
// thread, no registers held), and the solve reads shared memory.
//
// That measured slower than the strided solve on LayoutRight (n = 64-128 on
// the H100: a system holds its shared memory through both chains, so few are
// in flight). It wins on LayoutLeft, whose strided reads use 8 bytes of each
// 32-byte sector: a block holds mpb systems, one warp each, and its threads
// copy for consecutive systems (thread t for system t % mpb), so that mpb = 4
// doubles fill a sector (otherwise a warp copies its own system, lanes along
// the rows). The tuning tool times it with the other solves, and the solve
// tables name it where it is fastest.
#ifndef BATCHOL_CUDA_STAGED_SOLVE_CUH
#define BATCHOL_CUDA_STAGED_SOLVE_CUH

#include "Batchol_CudaWarpSolve.cuh"

#include <cuda_pipeline_primitives.h>

#include <algorithm>

namespace batchol::cuda {

template <class T, int MW, Mode MODE>
__global__ void __launch_bounds__(128) staged_solve_kernel(const Batch<T> p, const int mpb) {
  static_assert(MODE == Mode::Potrs || MODE == Mode::TrsvN || MODE == Mode::TrsvT,
                "solve-only modes: the factor is read, never written");
  using solve_detail::packed;
  extern __shared__ __align__(16) unsigned char staged_bytes[];
  T* const tri = reinterpret_cast<T*>(staged_bytes);
  const int n = p.n;
  const int size = solve_detail::packed_size(n);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s0 = std::int64_t(blockIdx.x) * mpb;
  const bool left = p.a_bs == 1;
  const int sys = left ? t % mpb : warp;
  const int k = left ? t / mpb : lane;  // 0 .. 31 either way
  if (s0 + sys < p.batch) {
    const T* const a = p.a + (s0 + sys) * p.a_bs;
    T* const dst = tri + sys * size;
    for (int r = 0; r < n; ++r)
      for (int c = k; c <= r; c += 32)
        __pipeline_memcpy_async(dst + packed(r, c), a + r * p.a_rs + c * p.a_cs, sizeof(T));
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const std::int64_t s = s0 + warp;
  if (s >= p.batch) return;  // the whole warp
  using W = WarpSolve<T, 32 * MW>;
  const solve_detail::Packed<T> L{tri + warp * size};
  T dl[MW];
  W::diag_inv(L, n, lane, dl);
  for (int q = 0; q < p.nrhs; ++q) {
    T* const b = p.b + s * p.b_bs + q * p.b_cs;
    T y[1][MW];
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      y[0][m] = r < n ? b[r * p.b_rs] : T(0);
    }
    if constexpr (MODE != Mode::TrsvT) W::forward(L, n, lane, dl, y);
    if constexpr (MODE != Mode::TrsvN) W::backward(L, n, lane, dl, y);
#pragma unroll
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      if (r < n) b[r * p.b_rs] = y[0][m];
    }
  }
}

// Systems per block: `mpb` (at most 4, the kernel's 128 threads), or as many
// as the device's opt-in shared memory holds if fewer (at least 1: an order
// up to 128 fits 66 KB in double).
template <class T>
int staged_solve_mpb(int n, int mpb) {
  const std::size_t one = std::size_t(solve_detail::packed_size(n)) * sizeof(T);
  const auto fit = static_cast<int>(std::size_t(current_device().smem_optin) / one);
  return std::max(1, std::min({mpb, fit, 4}));
}

// MODE over the whole batch on `stream` (n <= 32 MW), mpb (1 to 4) systems
// per block.
template <class T, int MW, Mode MODE>
void launch_staged_solve(const Batch<T>& p, cudaStream_t stream, int mpb) {
  if (p.batch < 1 || p.nrhs < 1) return;
  mpb = staged_solve_mpb<T>(p.n, mpb);
  const std::size_t shm = std::size_t(mpb) * solve_detail::packed_size(p.n) * sizeof(T);
  auto* kern = &staged_solve_kernel<T, MW, MODE>;
  if (shm > 48 * 1024)
    check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shm)),
          "staged_solve_kernel shared memory");
  constexpr std::int64_t max_blocks = std::int64_t(1) << 30;
  const std::int64_t blocks = (p.batch + mpb - 1) / mpb;
  for (std::int64_t b0 = 0; b0 < blocks; b0 += max_blocks) {
    Batch<T> q = p;
    q.a += b0 * mpb * p.a_bs;
    q.b += b0 * mpb * p.b_bs;
    q.batch = std::min(p.batch - b0 * mpb, max_blocks * mpb);
    const auto nb = static_cast<unsigned>(std::min(blocks - b0, max_blocks));
    kern<<<nb, 32 * mpb, shm, stream>>>(q, mpb);
    check(cudaGetLastError(), "staged_solve_kernel launch");
  }
}

}  // namespace batchol::cuda

#endif
