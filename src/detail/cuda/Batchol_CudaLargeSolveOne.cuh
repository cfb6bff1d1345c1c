// The triangular solves of one large matrix with one right-hand side
// (Batchol_CudaLargeSolve.cuh takes more): one launch per sweep, a thread
// block per block of 64 rows, each passing its solved block to the later
// ones through a flag in global memory instead of through a launch boundary.
//
// Thread blocks take their block in the order they start (a ticket from an
// atomic counter), so a block only ever waits for blocks that are already
// running: no deadlock whatever the number of blocks resident. Each block
// first inverts its diagonal block (a thread per column of the inverse),
// while the blocks before it are still solving: the step that every later
// block waits for is then a product with the inverse (two threads per row),
// not a substitution of 64 dependent columns. Forward (L y = b), block t
// reads its rows of L tile by tile, each tile before it waits for the flag
// of the block it multiplies (gather), multiplies what remains by the
// inverse, stores y_t, and releases its flag. Backward (L^T x = y) goes
// from the last block up, reading the rows of L below its block (the
// columns of L^T) the same way, with the inverse transposed. The right-hand
// side's solved values are read past L1 (__ldcg), after an acquire of their
// flag. Inverting a 64 x 64 block of a Cholesky factor and multiplying is
// the diagonal step of cuBLAS's and MAGMA's triangular solves too; the
// error bound grows with the block's condition number, not the matrix's.
#ifndef BATCHOL_CUDA_LARGE_SOLVE_ONE_CUH
#define BATCHOL_CUDA_LARGE_SOLVE_ONE_CUH

#include "Batchol_CudaLarge.cuh"

namespace batchol::cuda {
namespace large_one_detail {

inline constexpr int NB = large_detail::NB;
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

// Two consecutive elements of a row of L, in double (W = 2: one load of
// both).
template <int W>
__device__ __forceinline__ double2 pair(const double* p) {
  if constexpr (W == 2) return *reinterpret_cast<const double2*>(p);
  return make_double2(p[0], p[1]);
}
template <int W>
__device__ __forceinline__ double2 pair(const float* p) {
  if constexpr (W == 2) {
    const float2 v = *reinterpret_cast<const float2*>(p);
    return make_double2(v.x, v.y);
  }
  return make_double2(p[0], p[1]);
}

// Shared memory of a sweep's thread block: the diagonal block, its inverse
// (both with stride DS), the remaining right-hand side, the four warps'
// partial sums and the pivots' reciprocals.
inline constexpr std::size_t sweep_smem = (2 * NB * DS + NB + 4 * NB + NB) * sizeof(double);

// Stages the diagonal block D of rows [r0, r0 + h) (lower part) and
// computes its inverse into Inv (lower, zero above the diagonal and from row
// or column h): thread j < h solves D z = e_j row by row into column j of
// Inv, which no other thread reads or writes until the barrier this returns
// after.
template <bool CM, class TL>
__device__ __forceinline__ void stage_inverse(const TL* L, std::int64_t ld, int r0, int h,
                                              double* D, double* Inv, double* dinv) {
  for (int e = threadIdx.x; e < NB * NB; e += 128) {
    int i, j;
    large_detail::tile_element<CM>(e, i, j);
    D[i * DS + j] = i < h && j <= i ? double(L[large_detail::at<CM>(ld, r0 + i, r0 + j)]) : 0.0;
    Inv[i * DS + j] = 0.0;
  }
  __syncthreads();
  if (threadIdx.x < h) dinv[threadIdx.x] = 1.0 / D[threadIdx.x * DS + threadIdx.x];
  __syncthreads();
  const int j = threadIdx.x;
  if (j < h) {
    Inv[j * DS + j] = dinv[j];
    for (int i = j + 1; i < h; ++i) {
      double s0 = 0.0, s1 = 0.0;  // two chains of dependent additions
      int k = j;
      for (; k + 1 < i; k += 2) {
        s0 += D[i * DS + k] * Inv[k * DS + j];
        s1 += D[i * DS + k + 1] * Inv[(k + 1) * DS + j];
      }
      if (k < i) s0 += D[i * DS + k] * Inv[k * DS + j];
      Inv[i * DS + j] = -(s0 + s1) * dinv[i];
    }
  }
  __syncthreads();
}

// x(i) = sum_k Inv(i, k) rest(k) over k <= i (Forward), or sum_k Inv(k, i)
// rest(k) over k >= i (Inv^T): two threads per row i = threadIdx.x / 2, each
// over half of the columns, both returning the sum. Only the nonzero part of
// Inv is read, so that a NaN or Inf in rest reaches only the rows that
// depend on it.
template <bool Forward>
__device__ __forceinline__ double apply_inverse(const double* Inv, const double* rest) {
  const int i = threadIdx.x / 2, k0 = (threadIdx.x % 2) * (NB / 2);
  double s0 = 0.0, s1 = 0.0;
#pragma unroll
  for (int m = 0; m < NB / 2; m += 2) {
    const int k = k0 + m;
    if (Forward ? k <= i : k >= i) s0 += Inv[Forward ? i * DS + k : k * DS + i] * rest[k];
    if (Forward ? k + 1 <= i : k + 1 >= i)
      s1 += Inv[Forward ? i * DS + k + 1 : (k + 1) * DS + i] * rest[k + 1];
  }
  const double x = s0 + s1;
  return x + __shfl_xor_sync(0xffffffffu, x, 1);
}

// rest[r] = b(r0 + r) - sum_jb sum_k T(r, k) x(64 jb + k) for r < h (0
// beyond), over the blocks jb solved before this one: T(r, k) = L(r0 + r,
// 64 jb + k) forward (every block before r0's), L(64 jb + k, r0 + r)
// backward (every block after it). Each tile is read before the wait for its
// block's flag. A tile is walked along its unit stride: along k (row-major
// forward, column-major backward) a warp takes 16 rows and each lane two
// consecutive k, the sums reduced across the lanes at the end; along r each
// lane takes two consecutive rows and a warp 16 k, the four warps' sums added
// at the end. Returns after the barrier that makes rest visible.
template <bool Forward, bool CM, int W, class TL>
__device__ __forceinline__ void gather(const TL* L, std::int64_t ld, int n, const double* b,
                                       std::int64_t bs, const int* flags, int r0, int h,
                                       double* rest, double (*part)[NB]) {
  constexpr bool along_k = Forward != CM;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int nb = (n + NB - 1) / NB, t = r0 / NB;
  const int sources = Forward ? t : nb - 1 - t;
  const auto tile = [&](int c0, int r, int k) {
    return L + (Forward ? large_detail::at<CM>(ld, r0 + r, c0 + k)
                        : large_detail::at<CM>(ld, c0 + k, r0 + r));
  };
  double acc[16][2];
#pragma unroll
  for (int i = 0; i < 16; ++i) acc[i][0] = acc[i][1] = 0.0;
  for (int s = 0; s < sources; ++s) {
    const int jb = Forward ? s : nb - 1 - s, c0 = jb * NB, hk = min(NB, n - c0);
    double2 l[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int r = along_k ? warp * 16 + i : 2 * lane, k = along_k ? 2 * lane : warp * 16 + i;
      l[i] = r < h && k < hk ? pair<W>(tile(c0, r, k)) : make_double2(0.0, 0.0);
      if (along_k ? k + 1 >= hk : r + 1 >= h) l[i].y = 0.0;
    }
    while (load_acquire(flags + jb) == 0) {
    }
    if constexpr (along_k) {
      const int k = 2 * lane;
      const double x0 = k < hk ? __ldcg(b + (c0 + k) * bs) : 0.0;
      const double x1 = k + 1 < hk ? __ldcg(b + (c0 + k + 1) * bs) : 0.0;
#pragma unroll
      for (int i = 0; i < 16; ++i) {
        acc[i][0] += l[i].x * x0;
        acc[i][1] += l[i].y * x1;
      }
    } else {
#pragma unroll
      for (int i = 0; i < 16; ++i) {
        const int k = warp * 16 + i;
        const double xk = k < hk ? __ldcg(b + (c0 + k) * bs) : 0.0;
        acc[0][0] += l[i].x * xk;
        acc[0][1] += l[i].y * xk;
      }
    }
  }
  if constexpr (along_k) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      double v = acc[i][0] + acc[i][1];
#pragma unroll
      for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
      const int r = warp * 16 + i;
      if (lane == 0) rest[r] = r < h ? b[(r0 + r) * bs] - v : 0.0;
    }
  } else {
    part[warp][2 * lane] = acc[0][0];
    part[warp][2 * lane + 1] = acc[0][1];
    __syncthreads();
    if (threadIdx.x < NB) {
      const int r = threadIdx.x;
      rest[r] =
          r < h ? b[(r0 + r) * bs] - (part[0][r] + part[1][r] + part[2][r] + part[3][r]) : 0.0;
    }
  }
  __syncthreads();
}

// The block publishes its solution x (row threadIdx.x / 2): the stores,
// a fence by each thread, a barrier, then the release of the flag.
__device__ __forceinline__ void publish(double* b, std::int64_t bs, int r0, int h, double x,
                                        int* flag) {
  const int i = threadIdx.x / 2;
  if (threadIdx.x % 2 == 0 && i < h) b[(r0 + i) * bs] = x;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) store_release(flag, 1);
}

// The shared memory of a sweep (sweep_smem).
struct Sweep {
  double *D, *Inv, *rest, (*part)[NB], *dinv;
  __device__ explicit Sweep(double* sm)
      : D(sm),
        Inv(D + NB * DS),
        rest(Inv + NB * DS),
        part(reinterpret_cast<double (*)[NB]>(rest + NB)),
        dinv(rest + 5 * NB) {}
};

template <int W, bool CM, class TL>
__global__ void __launch_bounds__(128)
    forward_one(const TL* L, std::int64_t ld, int n, double* b, std::int64_t bs, int* flags,
                int* ticket, const int* skip) {
  __shared__ int tk;
  extern __shared__ __align__(16) double sm[];
  const Sweep w(sm);
  if (skip != nullptr && *skip != 0) return;  // posv: a failed factorization
  if (threadIdx.x == 0) tk = atomicAdd(ticket, 1);
  __syncthreads();
  const int t = tk, r0 = t * NB, h = min(NB, n - r0);
  stage_inverse<CM>(L, ld, r0, h, w.D, w.Inv, w.dinv);
  gather<true, CM, W>(L, ld, n, b, bs, flags, r0, h, w.rest, w.part);
  publish(b, bs, r0, h, apply_inverse<true>(w.Inv, w.rest), flags + t);
}

template <int W, bool CM, class TL>
__global__ void __launch_bounds__(128)
    backward_one(const TL* L, std::int64_t ld, int n, double* b, std::int64_t bs, int* flags,
                 int* ticket, const int* skip) {
  __shared__ int tk;
  extern __shared__ __align__(16) double sm[];
  const Sweep w(sm);
  if (skip != nullptr && *skip != 0) return;
  if (threadIdx.x == 0) tk = atomicAdd(ticket, 1);
  __syncthreads();
  const int nb = (n + NB - 1) / NB, tb = nb - 1 - tk, r0 = tb * NB, h = min(NB, n - r0);
  stage_inverse<CM>(L, ld, r0, h, w.D, w.Inv, w.dinv);
  gather<false, CM, W>(L, ld, n, b, bs, flags, r0, h, w.rest, w.part);
  publish(b, bs, r0, h, apply_inverse<false>(w.Inv, w.rest), flags + tb);
}

template <int W, bool CM, class TL>
void sweeps(const TL* L, std::int64_t ld, int n, double* b, std::int64_t bs, int* flags,
            const int* skip, cudaStream_t stream) {
  const int nb = (n + NB - 1) / NB;
  allow_shared(&forward_one<W, CM, TL>, sweep_smem, "large solve shared memory");
  allow_shared(&backward_one<W, CM, TL>, sweep_smem, "large solve shared memory");
  forward_one<W, CM, TL>
      <<<nb, 128, sweep_smem, stream>>>(L, ld, n, b, bs, flags, flags + 2 * nb, skip);
  backward_one<W, CM, TL>
      <<<nb, 128, sweep_smem, stream>>>(L, ld, n, b, bs, flags + nb, flags + 2 * nb + 1, skip);
}

}  // namespace large_one_detail

// potrs of the single matrix of p with one right-hand side, b (double, at
// stride bs; p's own for a double matrix, a copy for a float one, whose
// factor is read as it is and converted in registers) on `stream`; with
// p.skip_failed, nothing when the matrix's info is not 0 (read on the
// device).
template <class TL>
void large_potrs_one(const Problem<TL>& p, double* b, std::int64_t bs, cudaStream_t stream) {
  using namespace large_one_detail;
  const int n = p.n, nb = (n + NB - 1) / NB;
  // Flags of both sweeps, then their two tickets: a stream-ordered scratch.
  const std::size_t words = 2 * std::size_t(nb) + 2;
  int* flags = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&flags), sizeof(int) * words, stream),
        "large solve: cudaMallocAsync");
  check(cudaMemsetAsync(flags, 0, sizeof(int) * words, stream), "large solve: cudaMemsetAsync");
  const int* skip = p.skip_failed ? p.info : nullptr;
  const std::int64_t ld = large_ld(p);
  const bool vec = ld % 2 == 0 && reinterpret_cast<std::uintptr_t>(p.a) % (2 * sizeof(TL)) == 0;
  if (large_column_major(p)) {
    if (vec)
      sweeps<2, true>(p.a, ld, n, b, bs, flags, skip, stream);
    else
      sweeps<1, true>(p.a, ld, n, b, bs, flags, skip, stream);
  } else {
    if (vec)
      sweeps<2, false>(p.a, ld, n, b, bs, flags, skip, stream);
    else
      sweeps<1, false>(p.a, ld, n, b, bs, flags, skip, stream);
  }
  check(cudaGetLastError(), "large solve launch");
  check(cudaFreeAsync(flags, stream), "large solve: cudaFreeAsync");
}

}  // namespace batchol::cuda

#endif
