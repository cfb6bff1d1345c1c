// The triangular solves of one large matrix with one right-hand side
// (Batchol_CudaLargeSolve.cuh takes more): one launch per sweep, a thread
// block per block of 64 rows, each passing its solved block to the later
// ones through a flag in global memory instead of through a launch boundary.
//
// Thread blocks take their block in the order they start (a ticket from an
// atomic counter), so a block only ever waits for blocks that are already
// running: no deadlock whatever the number of blocks resident. Forward
// (L y = b), block t reads its rows of L tile by tile, each tile before it
// waits for the flag of the block it multiplies, accumulates per lane and
// reduces once at the end, then one warp solves the diagonal block (a
// shuffle per column), stores y_t, and releases its flag. Backward
// (L^T x = y) goes from the last block up, reading the rows of L below its
// block (the columns of L^T) the same way. The right-hand side's solved
// values are read past L1 (__ldcg), after an acquire of their flag.
#ifndef BATCHOL_CUDA_LARGE_SOLVE_ONE_CUH
#define BATCHOL_CUDA_LARGE_SOLVE_ONE_CUH

#include "Batchol_CudaCommon.cuh"

namespace batchol::cuda {
namespace large_one_detail {

inline constexpr int NB = 64;
inline constexpr int DS = NB + 1;  // stride of the staged diagonal block

__device__ __forceinline__ int load_acquire(const int* p) {
  int v = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#else
  v = *reinterpret_cast<const volatile int*>(p);
#endif
  return v;
}
__device__ __forceinline__ void store_release(int* p, int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.release.gpu.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  __threadfence();
  *reinterpret_cast<volatile int*>(p) = v;
#endif
}

// Two consecutive elements of a row of L (W = 2: one 16-byte load).
template <int W>
__device__ __forceinline__ double2 pair(const double* p) {
  if constexpr (W == 2) return *reinterpret_cast<const double2*>(p);
  return make_double2(p[0], p[1]);
}

// Stages the diagonal block of rows [r0, r0 + h) (lower part) and returns
// after the barrier that makes it visible.
__device__ __forceinline__ void stage_diagonal(const double* L, std::int64_t ld, int r0, int h,
                                               double* D, double* dinv) {
  for (int e = threadIdx.x; e < NB * NB; e += 128) {
    const int i = e / NB, j = e % NB;
    D[i * DS + j] = i < h && j <= i ? L[(r0 + i) * ld + r0 + j] : 0.0;
  }
  __syncthreads();
  if (threadIdx.x < NB) dinv[threadIdx.x] = 1.0 / D[threadIdx.x * DS + threadIdx.x];
}

// Warp 0 publishes the block's solution: every lane's stores, a fence by
// each, then the release of the flag.
__device__ __forceinline__ void publish(double* b, std::int64_t bs, int r0, int h, double x0,
                                        double x1, int* flag) {
  const int lane = threadIdx.x % 32;
  if (lane < h) b[(r0 + lane) * bs] = x0;
  if (lane + 32 < h) b[(r0 + lane + 32) * bs] = x1;
  __threadfence();
  __syncwarp();
  if (lane == 0) store_release(flag, 1);
}

template <int W>
__global__ void __launch_bounds__(128)
    forward_one(const double* L, std::int64_t ld, int n, double* b, std::int64_t bs, int* flags,
                int* ticket, const int* skip) {
  __shared__ int tk;
  __shared__ double D[NB * DS], rhs[NB], dinv[NB];
  if (skip != nullptr && *skip != 0) return;  // posv: a failed factorization
  if (threadIdx.x == 0) tk = atomicAdd(ticket, 1);
  __syncthreads();
  const int t = tk, r0 = t * NB, h = min(NB, n - r0);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  stage_diagonal(L, ld, r0, h, D, dinv);
  double acc[16][2];
#pragma unroll
  for (int i = 0; i < 16; ++i) acc[i][0] = acc[i][1] = 0.0;
  for (int jb = 0; jb < t; ++jb) {  // every earlier block is whole
    const int c0 = jb * NB;
    double2 l[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int r = warp * 16 + i;
      l[i] = r < h ? pair<W>(L + (r0 + r) * ld + c0 + 2 * lane) : make_double2(0.0, 0.0);
    }
    while (load_acquire(flags + jb) == 0) {
    }
    const double y0 = __ldcg(b + (c0 + 2 * lane) * bs), y1 = __ldcg(b + (c0 + 2 * lane + 1) * bs);
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      acc[i][0] += l[i].x * y0;
      acc[i][1] += l[i].y * y1;
    }
  }
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    double v = acc[i][0] + acc[i][1];
#pragma unroll
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    const int r = warp * 16 + i;
    if (lane == 0) rhs[r] = r < h ? b[(r0 + r) * bs] - v : 0.0;
  }
  __syncthreads();
  if (warp != 0) return;
  double x0 = rhs[lane], x1 = rhs[lane + 32];
  for (int j = 0; j < h; ++j) {
    const double xj = __shfl_sync(0xffffffffu, j < 32 ? x0 : x1, j % 32) * dinv[j];
    if (lane == j) x0 = xj;
    if (lane + 32 == j) x1 = xj;
    if (lane > j) x0 -= D[lane * DS + j] * xj;
    if (lane + 32 > j) x1 -= D[(lane + 32) * DS + j] * xj;
  }
  publish(b, bs, r0, h, x0, x1, flags + t);
}

template <int W>
__global__ void __launch_bounds__(128)
    backward_one(const double* L, std::int64_t ld, int n, double* b, std::int64_t bs, int* flags,
                 int* ticket, const int* skip) {
  __shared__ int tk;
  __shared__ double D[NB * DS], part[4][NB], dinv[NB];
  if (skip != nullptr && *skip != 0) return;
  if (threadIdx.x == 0) tk = atomicAdd(ticket, 1);
  __syncthreads();
  const int nb = (n + NB - 1) / NB, tb = nb - 1 - tk, r0 = tb * NB, h = min(NB, n - r0);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  stage_diagonal(L, ld, r0, h, D, dinv);
  double a0 = 0.0, a1 = 0.0;              // columns 2 lane and 2 lane + 1 of the block
  for (int jb = nb - 1; jb > tb; --jb) {  // this block is whole here
    const int k0 = jb * NB, hk = min(NB, n - k0);
    double2 l[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int k = warp * 16 + i;
      l[i] = k < hk ? pair<W>(L + (k0 + k) * ld + r0 + 2 * lane) : make_double2(0.0, 0.0);
    }
    while (load_acquire(flags + jb) == 0) {
    }
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int k = warp * 16 + i;
      const double xk = k < hk ? __ldcg(b + (k0 + k) * bs) : 0.0;
      a0 += l[i].x * xk;
      a1 += l[i].y * xk;
    }
  }
  part[warp][2 * lane] = a0;
  part[warp][2 * lane + 1] = a1;
  __syncthreads();
  if (warp != 0) return;
  const auto rest = [&](int r) {
    return r < h ? b[(r0 + r) * bs] - (part[0][r] + part[1][r] + part[2][r] + part[3][r]) : 0.0;
  };
  double x0 = rest(lane), x1 = rest(lane + 32);
  for (int j = h - 1; j >= 0; --j) {
    const double xj = __shfl_sync(0xffffffffu, j < 32 ? x0 : x1, j % 32) * dinv[j];
    if (lane == j) x0 = xj;
    if (lane + 32 == j) x1 = xj;
    if (lane < j) x0 -= D[j * DS + lane] * xj;
    if (lane + 32 < j) x1 -= D[j * DS + lane + 32] * xj;
  }
  publish(b, bs, r0, h, x0, x1, flags + tb);
}

}  // namespace large_one_detail

// potrs of the single matrix of p with one right-hand side (p.nrhs == 1;
// otherwise as large_potrs) on `stream`.
inline void large_potrs_one(const Problem<double>& p, cudaStream_t stream) {
  using namespace large_one_detail;
  const int n = p.n, nb = (n + NB - 1) / NB;
  // Flags of both sweeps, then their two tickets: a stream-ordered scratch.
  const std::size_t words = 2 * std::size_t(nb) + 2;
  int* flags = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&flags), sizeof(int) * words, stream),
        "large solve: cudaMallocAsync");
  check(cudaMemsetAsync(flags, 0, sizeof(int) * words, stream), "large solve: cudaMemsetAsync");
  const int* skip = p.skip_failed ? p.info : nullptr;
  const double* L = p.a;
  const std::int64_t ld = p.a_rs, bs = p.b_rs;
  const bool vec = ld % 2 == 0 && reinterpret_cast<std::uintptr_t>(L) % 16 == 0;
  if (vec) {
    forward_one<2><<<nb, 128, 0, stream>>>(L, ld, n, p.b, bs, flags, flags + 2 * nb, skip);
    backward_one<2>
        <<<nb, 128, 0, stream>>>(L, ld, n, p.b, bs, flags + nb, flags + 2 * nb + 1, skip);
  } else {
    forward_one<1><<<nb, 128, 0, stream>>>(L, ld, n, p.b, bs, flags, flags + 2 * nb, skip);
    backward_one<1>
        <<<nb, 128, 0, stream>>>(L, ld, n, p.b, bs, flags + nb, flags + 2 * nb + 1, skip);
  }
  check(cudaGetLastError(), "large solve launch");
  check(cudaFreeAsync(flags, stream), "large solve: cudaFreeAsync");
}

}  // namespace batchol::cuda

#endif
