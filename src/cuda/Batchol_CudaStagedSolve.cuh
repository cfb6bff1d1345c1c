// The solve-only modes (potrs, trsv) with the factor copied once into shared
// memory, then the substitutions by one warp per system from there, column by
// column of the right-hand sides.
//
// Why: the strided warp solve (Batchol_CudaStridedSolve.cuh) reads L from
// global memory twice, once per substitution. With tens of thousands of
// warps in flight the second read comes from DRAM again (ncu, H100, n = 100:
// 1.9x the bytes needed), and neither capping the resident warps nor a
// blocked forward substitution moved it
// (perf_tests/results/h100-2026-11-23-stagedsolve/). Here a block of 128
// threads copies the triangles of its 1, 2 or 4 systems with asynchronous
// copies (all four warps copy; the copy is most of a block's life), then
// warp w < mpb solves system w with WarpSolve's packed forms, whose steps
// have compile-time indices. A system holds its shared memory through both
// chains, so the number in flight per SM is what limits large n (5 at
// n = 100 in double).
//
// LayoutRight rows are copied along the rows, an Upper factor on LayoutRight
// (columns contiguous) along the columns, and on LayoutLeft the threads copy
// for consecutive systems (thread t for system t % mpb), so that mpb = 4
// doubles fill a 32-byte sector. The tuning tool times it with the other
// solves, and the solve tables name it where it is fastest
// (perf_tests/results/h100-2026-11-24-leanstaged/: on sm_90 most rows from
// n = 17 in double and 25 in float up).
#ifndef BATCHOL_CUDA_STAGED_SOLVE_CUH
#define BATCHOL_CUDA_STAGED_SOLVE_CUH

#include "Batchol_CudaWarpSolve.cuh"

#include <cuda_pipeline_primitives.h>

#include <algorithm>

namespace batchol::cuda {

// Threads per block: all of them copy, warp w < mpb then solves system w.
inline constexpr int staged_threads = 128;

template <class T, int MW, Mode MODE>
__global__ void __launch_bounds__(staged_threads)
    staged_solve_kernel(const Batch<T> p, const std::int64_t first, const int mpb) {
  static_assert(MODE == Mode::Potrs || MODE == Mode::TrsvN || MODE == Mode::TrsvT,
                "solve-only modes: the factor is read, never written");
  extern __shared__ __align__(16) unsigned char staged_bytes[];
  T* const tri = reinterpret_cast<T*>(staged_bytes);
  const int n = p.n;
  const int size = solve_detail::packed_size(n);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s0 = first + std::int64_t(blockIdx.x) * mpb;
  // Each system's triangle is copied by `per` threads, element e = k, k + per,
  // ... of the packed order; thread t < per mpb copies for system t % mpb
  // (LayoutLeft: consecutive systems share sectors) or t / per.
  const int per = staged_threads / mpb;
  const bool left = p.a_bs == 1;
  const int sys = left ? t % mpb : t / per;
  const int k = left ? t / mpb : t % per;
  if (t < per * mpb && s0 + sys < p.batch) {
    const T* const a = p.a + (s0 + sys) * p.a_bs;
    T* const dst = tri + sys * size;
    if (!left && p.a_cs != 1) {
      // Columns contiguous (an Upper factor on LayoutRight, read transposed):
      // the threads walk the columns, so that a warp's reads are consecutive.
      int c = 0, i = k;  // element (c + i, c)
      for (int f = k; f < size; f += per) {
        while (i >= n - c) i -= n - c++;
        __pipeline_memcpy_async(dst + solve_detail::packed(c + i, c),
                                a + (c + i) * p.a_rs + c * p.a_cs, sizeof(T));
        i += per;
      }
    } else {
      int r = 0, c = k;  // element e is (r, c), walked row by row
      for (int e = k; e < size; e += per) {
        while (c > r) c -= ++r;
        __pipeline_memcpy_async(dst + e, a + r * p.a_rs + c * p.a_cs, sizeof(T));
        c += per;
      }
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const std::int64_t s = s0 + warp;
  if (warp >= mpb || s >= p.batch) return;  // the whole warp
  WarpSolve<T, 32 * MW>::template solve_all<MODE != Mode::TrsvT, MODE != Mode::TrsvN>(
      tri + warp * size, n, lane, p.b + s * p.b_bs, p.b_rs, p.b_cs, p.nrhs);
}

// Systems per block: `mpb` (at most 4, a warp each of the kernel's 128 threads), or as many
// as the device's opt-in shared memory holds if fewer (at least 1: an order
// up to 128 fits 66 KB in double).
template <class T>
int staged_solve_mpb(int n, int mpb) {
  const std::size_t one = std::size_t(solve_detail::packed_size(n)) * sizeof(T);
  const std::size_t slack = std::size_t(solve_detail::packed_slack) * sizeof(T);
  const auto fit = static_cast<int>((std::size_t(current_device().smem_optin) - slack) / one);
  return std::max(1, std::min({mpb, fit, 4}));
}

// MODE over the whole batch on `stream` (n <= 32 MW), mpb (1 to 4) systems
// per block.
template <class T, int MW, Mode MODE>
void launch_staged_solve(const Batch<T>& p, cudaStream_t stream, int mpb) {
  if (p.batch < 1 || p.nrhs < 1) return;
  mpb = staged_solve_mpb<T>(p.n, mpb);
  const std::size_t shm =
      (std::size_t(mpb) * solve_detail::packed_size(p.n) + solve_detail::packed_slack) * sizeof(T);
  auto* kern = &staged_solve_kernel<T, MW, MODE>;
  allow_shared(kern, shm, "staged_solve_kernel shared memory");
  launch_grids((p.batch + mpb - 1) / mpb, "staged_solve_kernel launch",
               [&](unsigned nb, std::int64_t b0) {
                 kern<<<nb, staged_threads, shm, stream>>>(p, b0 * mpb, mpb);
               });
}

}  // namespace batchol::cuda

#endif
