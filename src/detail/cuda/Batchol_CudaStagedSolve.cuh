// The solve-only modes (potrs, trsv) with the factor copied once into shared
// memory, then the substitutions by one warp per system from there, column by
// column of the right-hand sides.
//
// Why: the strided warp solve (Batchol_CudaStridedSolve.cuh) reads L from
// global memory twice, once per substitution. With tens of thousands of
// warps in flight the second read comes from DRAM again (ncu, H100, n = 100:
// 1.9x the bytes needed), and neither capping the resident warps nor a
// blocked forward substitution moved it. Here a block of 128
// threads copies the triangles of its 1, 2 or 4 systems (all four warps
// copy), then warp w < mpb solves system w with WarpSolve's packed forms,
// whose steps have compile-time indices. A system holds its shared memory
// through both chains, so the number in flight per SM is what limits large
// n (5 at n = 100 in double).
//
// Two copies, two kernels (BULK, chosen per table row: Kernel::Staged or
// Kernel::StagedBulk):
// - element copies (asynchronous, 4 or 8 bytes each) into a packed
//   triangle: LayoutRight rows along the rows, an Upper factor on
//   LayoutRight (columns contiguous) along the columns, and on LayoutLeft
//   for consecutive systems (lane l for system l % mpb), so that mpb = 4
//   doubles fill a 32-byte sector;
// - where the rows are contiguous and start on 16 bytes (staged_bulk_rows:
//   LayoutRight with n even in double, a multiple of 4 in float), one bulk
//   (TMA) copy per row into rows padded to 16 bytes. The padding costs
//   2-way (double) or 4-way (float) bank conflicts in the forward
//   substitution's column reads, so the tables take it only where it wins:
//   on sm_90 double LayoutRight with one right-hand side. With one system per block
//   (MW != 3, with a forward substitution) the rows go by column panels of
//   32, each on an mbarrier of its own, and the forward substitution starts
//   once the first panel is there.
#ifndef BATCHOL_CUDA_STAGED_SOLVE_CUH
#define BATCHOL_CUDA_STAGED_SOLVE_CUH

#include "Batchol_CudaWarpSolve.cuh"

#include <cuda_pipeline_primitives.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace batchol::cuda {

// Threads per block: all of them copy, warp w < mpb then solves system w.
inline constexpr int staged_threads = 128;

// The staged triangle's rows (solve_detail::row_start): packed, or each on
// 16 bytes for bulk copies.
template <class T, bool BULK>
inline constexpr int staged_row_align = BULK ? 16 / int(sizeof(T)) : 1;
template <class T, bool BULK>
__host__ __device__ constexpr int staged_size(int n) {
  return solve_detail::row_start<staged_row_align<T, BULK>>(n);
}

// Whether the rows of every factor of `p` can be copied by bulk copies: rows
// contiguous, and every row's first element on 16 bytes.
template <class T>
bool staged_bulk_rows(const Problem<T>& p) {
  return p.a_cs == 1 && (p.a_rs * sizeof(T)) % 16 == 0 && (p.a_bs * sizeof(T)) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(p.a) % 16 == 0;
}

namespace staged_detail {

// Bulk copies and the mbarrier's transaction count are sm_90's: the
// launcher takes them only there, and other targets compile none of it.
// Initialises the mbarrier at shared address `bar` for `count` arrivals.
__device__ __forceinline__ void init(unsigned bar, unsigned count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count));
#else
  (void)bar, (void)count;
#endif
}
// Makes the initialisations visible (before the block barrier that lets
// the copies start).
__device__ __forceinline__ void fence_init() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
// One arrival on the mbarrier at `bar` that also expects `bytes` of bulk
// copies.
__device__ __forceinline__ void arrive_expect(unsigned bar, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
#else
  (void)bar, (void)bytes;
#endif
}
// One arrival on the mbarrier at `bar` once this thread's asynchronous
// element copies issued so far have landed (counted in its init count).
__device__ __forceinline__ void arrive_after_copies(unsigned bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(bar) : "memory");
#else
  (void)bar;
#endif
}

// A bulk (TMA) copy of `bytes` (a multiple of 16) from global to shared
// memory that completes on the mbarrier at shared address `bar`.
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, unsigned bytes,
                                          unsigned bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(d),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
#else
  (void)dst, (void)src, (void)bytes, (void)bar;
#endif
}
__device__ __forceinline__ void wait_phase0(unsigned bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred q; mbarrier.try_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
        : "=r"(done)
        : "r"(bar)
        : "memory");
#else
  (void)bar;
#endif
}

}  // namespace staged_detail

// The substitutions' block of steps (WarpSolve::forward_packed's BLK): at
// MW = 4, 2 with bulk copies in double and 4 with element copies. H100,
// batch 10^4, against one step at a time (tune_solve, two runs each): double
// LayoutRight n = 100 / 128 (bulk copies) 25.1 -> 24.2 / 40.8 -> 38.9 ns
// with 2 (with 4 it spilled); LayoutLeft 37.4 -> 34.6 / 74.8 -> 72.2 with 4;
// float LayoutLeft 22.3 -> 20.4 / 49.0 -> 43.5, float LayoutRight 15.5 ->
// 15.9 / 24.2 -> 23.2. At MW = 3 the registers it takes cost more blocks per
// SM than it saves (n = 72 / 96 12.6 -> 13.8 / 20.6 -> 21.9 with 2), and
// float with bulk copies (not in the tables) spilled.
template <class T, int MW, bool BULK>
inline constexpr int staged_block = MW != 4          ? 1
                                    : !BULK          ? 4
                                    : sizeof(T) == 8 ? 2
                                                     : 1;

// Blocks per SM the registers must allow (__launch_bounds__): below shared
// memory's bound at the smallest order of each MW, so that registers never
// set it. Why: at 58 registers, double n = 72 kept 8 blocks resident where
// shared memory holds 10, and took 12 % longer (H100, batchol_bench).
// MW = 4 in double: shared memory holds 5 from n = 97 (94-96 registers with
// staged_block); in float 8 with element copies (64 registers), and with
// bulk copies by panels uncapped (the panel waits and the diagonal's
// reciprocals in the forward substitution: 63 registers).
template <class T, int MW, bool BULK>
inline constexpr int staged_min_blocks = MW <= 2          ? 12
                                         : MW == 3        ? 10
                                         : sizeof(T) == 8 ? 5
                                         : !BULK          ? 8
                                                          : 1;

template <class T, int MW, Op OP, bool BULK>
__global__ void __launch_bounds__(staged_threads, (staged_min_blocks<T, MW, BULK>))
    staged_solve_kernel(const Problem<T> p, const std::int64_t first, const int mpb) {
  static_assert(OP == Op::Potrs || OP == Op::TrsvN || OP == Op::TrsvT,
                "solve-only modes: the factor is read, never written");
  constexpr int E = staged_row_align<T, BULK>;
  extern __shared__ __align__(16) unsigned char staged_bytes[];
  T* const tri = reinterpret_cast<T*>(staged_bytes);
  const int n = p.n;
  const int size = staged_size<T, BULK>(n);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s0 = first + std::int64_t(blockIdx.x) * mpb;
  const int here = int(p.batch - s0 < mpb ? p.batch - s0 : mpb);  // systems of this block
  // An element by an asynchronous copy of its own.
  const auto copy = [&](int sys, int r, int c) {
    __pipeline_memcpy_async(tri + sys * size + solve_detail::row_start<E>(r) + c,
                            p.a + (s0 + sys) * p.a_bs + r * p.a_rs + c * p.a_cs, sizeof(T));
  };
  constexpr bool FWD = OP != Op::TrsvT, BWD = OP != Op::TrsvN;
  // The split posv: a system whose factorization failed keeps B. Its warp
  // still waits for the copies (the block must not end with copies into
  // its shared memory in flight).
  const bool skip = warp < here && p.skip_failed && p.info[(s0 + warp) * p.info_s] != 0;
  // Warp w solves system w (w < here).
  const auto solve = [&](const auto& wait) {
    const std::int64_t s = s0 + warp;
    WarpSolve<T, 32 * MW>::template solve_all<FWD, BWD, E, staged_block<T, MW, BULK>>(
        tri + warp * size, n, lane, p.b + s * p.b_bs, p.b_rs, p.b_cs, p.nrhs, wait);
  };
  if constexpr (BULK) {
    // Rows contiguous and aligned: each row's part in column panel P
    // (columns 32 P .. 32 P + 31) by one bulk copy, all rows' panel 0 first;
    // the last entries of a row (fewer than E) by element copies. Panel P
    // completes on mbarrier P, and the forward substitution waits for each
    // panel only when it reaches it, so that it runs while the later panels
    // arrive.
    // Why bulk copies: with element copies (8 or 4 bytes each, through L1)
    // a block's copy took three times as long in the whole kernel as alone,
    // and the memory ran at half its rate; bulk copies took double n = 100
    // from 27.0 to 24.3 ns per system (H100, batch 10^4).
    // Why panels: a system holds its shared memory from its copy to its
    // last step, and shared memory bounds the systems in flight per SM.
    __shared__ __align__(8) unsigned long long bars[4];  // n <= 128
    const auto bar0 = static_cast<unsigned>(__cvta_generic_to_shared(bars));
    // Panels of 32 columns for one system per block; with more, at MW = 3,
    // and without a forward substitution (TrsvT: nothing to overlap), one
    // panel of whole rows. H100, double, batch 10^4: by panels n = 56-64 and
    // 100-128 took 0.91-0.95 times as long, n = 72-96 1.03-1.15 times (64
    // registers where the whole rows take 48), with two or four systems per
    // block up to 1.5 times, and TrsvT at n = 100 1.25 times.
    constexpr bool PANELS = FWD && MW != 3;
    const int pw = PANELS && mpb == 1 ? 32 : 128, np = PANELS ? (n + pw - 1) / pw : 1;
    if (t == 0) {
      for (int P = 0; P < np; ++P) {
        // rows pw P + pw - 1 .. n - 1 bring pw entries, rows pw P + j - 1
        // (j = 1 .. m) E floor(j / E) by bulk copies
        const int m = n - pw * P < pw - 1 ? n - pw * P : pw - 1, q = m / E, rm = m % E;
        const int part = m * (m + 1) / 2 - q * E * (E - 1) / 2 - rm * (rm + 1) / 2;
        const int full = n - pw * P - pw + 1 > 0 ? n - pw * P - pw + 1 : 0;
        // every thread's element copies, and this arrival
        staged_detail::init(bar0 + 8 * P, staged_threads + 1);
        staged_detail::fence_init();
        staged_detail::arrive_expect(bar0 + 8 * P,
                                     unsigned((pw * full + part) * sizeof(T)) * unsigned(here));
      }
    }
    __syncthreads();
    for (int P = 0; P < np; ++P) {
      for (int i = t; i < here * n; i += staged_threads) {
        const int sys = i / n, r = i % n, c0 = pw * P;
        if (r < c0) continue;
        const int len = r + 1 - c0 < pw ? r + 1 - c0 : pw, whole = len / E * E;
        if (whole > 0)
          staged_detail::bulk_copy(tri + sys * size + solve_detail::row_start<E>(r) + c0,
                                   p.a + (s0 + sys) * p.a_bs + r * p.a_rs + c0,
                                   unsigned(whole * sizeof(T)), bar0 + 8 * P);
        for (int c = c0 + whole; c < c0 + len; ++c) copy(sys, r, c);
      }
      staged_detail::arrive_after_copies(bar0 + 8 * P);
    }
    __pipeline_commit();
    if constexpr (PANELS) {
      // No block barrier: the solving warps wait on the panels' mbarriers.
      if (warp >= here || skip) {  // the whole warp
        __pipeline_wait_prior(0);
        if (skip)
          for (int P = 0; P < np; ++P) staged_detail::wait_phase0(bar0 + 8 * P);
        return;
      }
      solve([np, pw, bar0](int P) {
        const int Q = 32 * P / pw;
        if (Q < np) staged_detail::wait_phase0(bar0 + 8 * Q);
      });
      return;
    }
    // Whole rows: the same ending as the element copies'. (With the panel
    // form's ending instead, MW = 3 took 16 more registers.)
    __pipeline_wait_prior(0);
    staged_detail::wait_phase0(bar0);
  } else {
    // The copy goes row by row (column by column), the lanes along it, so
    // that a thread's next element is a fixed step away. Why: a walk over
    // the packed order element by element cost a thread about 200 cycles per
    // element in its row arithmetic alone (H100, n = 100: 8.4 of the 8.9
    // thousand cycles of the copy phase were the same with no global read).
    if (p.a_bs == 1) {
      // LayoutLeft: lane l copies for system l % mpb, so that consecutive
      // systems' elements (adjacent in memory) share a sector; the warps
      // take every fourth row.
      const int sys = lane % mpb, step = 32 / mpb, c0 = lane / mpb;
      if (c0 < step && sys < here)
        for (int r = warp; r < n; r += 4)
          for (int c = c0; c <= r; c += step) copy(sys, r, c);
    } else if (n < 64) {
      // Short rows: `per` threads per system walk its packed order, element
      // e = k, k + per, ..., so that every lane of a copy has an element
      // (H100, n = 40-56: faster than by rows, where lanes past a row's end
      // idle); along the columns where those are contiguous (an Upper factor
      // on LayoutRight, read transposed).
      const int per = staged_threads / mpb, sys = t / per, k = t % per;
      if (sys < here) {
        if (p.a_cs != 1) {
          int c = 0, i = k;  // element (c + i, c)
          for (int f = k; f < size; f += per) {
            while (i >= n - c) i -= n - c++;
            copy(sys, c + i, c);
            i += per;
          }
        } else {
          int r = 0, c = k;  // element e is (r, c), walked row by row
          for (int e = k; e < size; e += per) {
            while (c > r) c -= ++r;
            copy(sys, r, c);
            c += per;
          }
        }
      }
    } else {
      // A system per 4 / mpb warps, which take every (4 / mpb)-th row, or
      // column where the columns are contiguous (an Upper factor on
      // LayoutRight, read transposed).
      const int wps = 4 / mpb, sys = warp / wps, w = warp % wps;
      if (sys < here) {
        if (p.a_cs == 1) {
          for (int r = w; r < n; r += wps)
            for (int c = lane; c <= r; c += 32) copy(sys, r, c);
        } else {
          for (int c = w; c < n; c += wps)
            for (int r = c + lane; r < n; r += 32) copy(sys, r, c);
        }
      }
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __syncthreads();
  if (warp >= here || skip) return;  // the whole warp
  solve(solve_detail::NoWait{});
}

// Systems per block: `mpb` (at most 4, a warp each of the kernel's 128
// threads), or as many as the device's opt-in shared memory holds if fewer
// (at least 1: an order up to 128 fits 66 KB in double).
template <class T, bool BULK>
int staged_solve_mpb(int n, int mpb) {
  const std::size_t one = std::size_t(staged_size<T, BULK>(n)) * sizeof(T);
  const std::size_t slack = std::size_t(solve_detail::packed_slack) * sizeof(T);
  const auto fit = static_cast<int>((std::size_t(current_device().smem_optin) - slack) / one);
  return std::max(1, std::min({mpb, fit, 4}));
}

// OP over the whole batch on `stream` (n <= 32 MW), mpb (1 to 4) systems
// per block; `bulk`: by bulk copies where staged_bulk_rows allows them (and
// the device is sm_90 or later), else element copies.
template <class T, int MW, Op OP>
void launch_staged_solve(const Problem<T>& p, cudaStream_t stream, int mpb, bool bulk = false) {
  if (p.batch < 1 || p.nrhs < 1) return;
  const auto launch = [&](auto bulk_c) {
    constexpr bool B = decltype(bulk_c)::value;
    const int m = staged_solve_mpb<T, B>(p.n, mpb);
    const std::size_t shm =
        (std::size_t(m) * staged_size<T, B>(p.n) + solve_detail::packed_slack) * sizeof(T);
    auto* kern = &staged_solve_kernel<T, MW, OP, B>;
    allow_shared(kern, shm, "staged_solve_kernel shared memory");
    launch_grids((p.batch + m - 1) / m, "staged_solve_kernel launch",
                 [&](unsigned nb, std::int64_t b0) {
                   kern<<<nb, staged_threads, shm, stream>>>(p, b0 * m, m);
                 });
  };
  if (bulk && current_device().major >= 9 && staged_bulk_rows(p))
    launch(std::true_type{});
  else
    launch(std::false_type{});
}

}  // namespace batchol::cuda

#endif
