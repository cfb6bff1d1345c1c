// One kernel family for every operation at small and middle sizes: a group of
// G consecutive lanes owns one matrix, thread t of the group holds rows
// t, t+G, t+2G, ... of the lower triangle in registers (row block m of a
// thread spans columns 0 .. (m+1)G-1, so every register index is a
// compile-time constant). G = 1 is the thread-per-matrix kernel.
//
// Why this shape: on the GPU the cost of a batched factorization is the number
// of warp instructions issued per matrix. With rows spread cyclically, every
// lane of a group stays busy until the last column (only the G x G diagonal
// blocks carry idle work), the matrix is read and written exactly once, and the
// only communication is one shuffle (the pivot) and one shared-memory broadcast
// (the scaled column) per step. Kurzak et al. pad the matrix to a compile-time
// size and avoid `if`s inside the factorization; so does this kernel: padded
// rows are the identity, all loops unroll, and bounds are tested only on the
// final stores.
//
// The factorization is right-looking, so element (i,j) receives its updates in
// the order k = 0, 1, ... exactly as the left-looking reference does; only the
// division by the pivot is a multiplication by its reciprocal.
#ifndef BATCHOL_CUDA_GROUP_KERNEL_CUH
#define BATCHOL_CUDA_GROUP_KERNEL_CUH

#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaLogdet.cuh"
#include "Batchol_CudaShift.cuh"

#include <algorithm>
#include <type_traits>

namespace batchol::cuda {
namespace group_detail {

// 16-byte shared-memory vectors: the broadcast column is read with the widest load.
template <class T>
struct Vec16;
template <>
struct Vec16<double> {
  using type = double2;
  static constexpr int len = 2;
  __device__ static void unpack(type v, double* out) {
    out[0] = v.x;
    out[1] = v.y;
  }
};
template <>
struct Vec16<float> {
  using type = float4;
  static constexpr int len = 4;
  __device__ static void unpack(type v, float* out) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
  }
};

// Value of lane `src` of this thread's group of G lanes (G = 1: its own).
template <int G, class T>
__device__ __forceinline__ T group_shfl(T v, int src) {
  if constexpr (G == 1)
    return v;
  else
    return __shfl_sync(0xffffffffu, v, src, G);
}

// Sum over the group; the butterfly leaves the same bits in every lane.
template <int G, class T>
__device__ __forceinline__ T group_sum(T v) {
  if constexpr (G > 1) {
#pragma unroll
    for (int off = G / 2; off > 0; off /= 2) v += __shfl_xor_sync(0xffffffffu, v, off, G);
  }
  return v;
}

// Column K of the right-looking factorization, then columns K+1.. . Written as
// a compile-time recursion rather than a loop: nvcc stops unrolling large
// loop nests, and a register array indexed at run time would go to local memory.
// `buf` is this group's column buffer; BUFSTEP separates the two buffers that
// alternate between columns, so one __syncwarp per column suffices.
// LD: also sum the logarithms of the pivots' roots (the factor's diagonal)
// into `ld`; every lane of the group holds each root, so this costs no
// communication, and the plain kernel (LD false) is compiled without it.
template <class T, int NP, int G, int BUFSTEP, int K, bool LD>
struct FactorStep {
  static constexpr int M = NP / G;
  static constexpr int V = Vec16<T>::len;

  __device__ __forceinline__ static void run(T (&r)[M][NP], T (&dinv)[M], T* buf, int t, int n,
                                             bool fast, int& fail, LogSum<T>& ld) {
    if constexpr (K < NP) {
      constexpr int mk = K / G, tk = K % G;
      const T d = group_shfl<G>(r[mk][K], tk);
      if (K < n && fail == 0 && !pivot_ok(d, fast)) fail = K + 1;
      T s, rs;
      pivot_roots(d, fast, s, rs);
      // Padded columns' roots are 1 only up to the rounding of the fast root.
      if constexpr (LD) {
        if (K < n) ld.add(s);
      }
      // Column K: the owner's pivot becomes s, rows below are scaled.
#pragma unroll
      for (int m = mk; m < M; ++m) {
        if (m == mk) {
          r[m][K] = (t == tk) ? s : r[m][K] * rs;
          dinv[m] = (t == tk) ? rs : dinv[m];
        } else {
          r[m][K] *= rs;
        }
      }
      if constexpr (K + 1 < NP) {
        // Broadcast column K to the group, then the rank-1 update of the
        // rest, one 16-byte chunk of the column at a time (few registers live).
        constexpr int step = G > 1 ? V : 1;
        T* const col = buf + (K & 1) * BUFSTEP;
        if constexpr (G > 1) {
#pragma unroll
          for (int m = mk; m < M; ++m) col[t + m * G] = r[m][K];
          __syncwarp();
        }
#pragma unroll
        for (int j0 = ((K + 1) / step) * step; j0 < NP; j0 += step) {
          T l[step];
          if constexpr (G > 1)
            Vec16<T>::unpack(*reinterpret_cast<const typename Vec16<T>::type*>(col + j0), l);
          else
            l[0] = r[j0][K];
#pragma unroll
          for (int j = j0 < K + 1 ? K + 1 : j0; j < j0 + step; ++j) {
#pragma unroll
            for (int m = mk; m < M; ++m)
              if (j < (m + 1) * G) r[m][j] -= r[m][K] * l[j - j0];
          }
        }
      }
      FactorStep<T, NP, G, BUFSTEP, K + 1, LD>::run(r, dinv, buf, t, n, fast, fail, ld);
    }
  }
};

// How the kernel moves its matrices between memory and registers:
//   Row staging (a_cs == 1: each matrix's rows contiguous, LayoutRight,
//     Lower). A lane's own row is far from its neighbours' (other rows or
//     matrices), so the warp copies the 32 rows of each row block through
//     shared memory, consecutive lanes along each row.
//   Whole staging (contiguous n x n matrices, a_bs == n^2: Whole::Columns
//     with a_rs == 1 and a_cs == n, an Upper factor on LayoutRight seen as
//     the lower triangle of the transpose; Whole::Rows with a_rs == n and
//     a_cs == 1 and one lane per matrix). The warp copies its 32/G
//     matrices whole, one run of consecutive elements, loading and storing
//     only the triangle. With
//     a_rs == 1 the rows are strided and cannot be row-staged; with one
//     lane per matrix row staging copies a warp's rows of one row block at
//     a time, a few elements each, and measured slower than this (H100).
//   Otherwise each lane reads and writes its own rows (on LayoutLeft, where
//     the batch index is fastest, those loads coalesce without help).
enum class Whole { No, Columns, Rows };

template <class T, int NP, int G, int WARPS, Op OP>
struct GroupShape {
  static constexpr int V = Vec16<T>::len;
  static constexpr int STRIDE = NP + V;  // per-group column buffer, shifted by 16 B to spread banks
  static constexpr int MPB = WARPS * 32 / G;
  static constexpr bool kShared = factors(OP) && G > 1;
  static constexpr std::size_t kColBytes = kShared ? 2 * MPB * STRIDE * sizeof(T) : 0;
  static constexpr std::size_t kLimit = 48 * 1024;
  static constexpr int SROW = NP + 1;  // staged row stride (odd: spreads the banks)
  static constexpr bool kRows = WARPS * 32 * SROW * sizeof(T) + kColBytes <= kLimit;
  // Whole: a warp's matrices, each padded to a stride < n^2 + 2G
  // (whole_stride). Only for one or two lanes per matrix: with four, a
  // group's own loads (four contiguous elements of a column) share their
  // sectors well enough, and staging whole was no better overall (H100,
  // float Upper on LayoutRight: 0.87 / 1.33 / 0.99x the time of the lanes'
  // own loads at n = 12 / 13 / 16).
  static constexpr int WARP_WHOLE = (32 / G) * (NP * NP + 2 * G);
  static constexpr std::size_t kWholeBytes = WARPS * WARP_WHOLE * sizeof(T);
  static constexpr bool kWhole = NP >= 2 && G <= 2 && kWholeBytes + kColBytes <= kLimit;

  static Whole whole(const Problem<T>& p) {
    if (!kWhole || p.n < 2 || p.a_bs != std::int64_t(p.n) * p.n) return Whole::No;
    if (p.a_rs == 1 && p.a_cs == p.n) return Whole::Columns;
    if (G == 1 && p.a_rs == p.n && p.a_cs == 1) return Whole::Rows;
    return Whole::No;
  }
};

// Stride of one staged whole matrix of nn = n^2 elements: the smallest
// s >= nn with s = G (mod 2G). Then s/G is odd, and group g's lane t
// (address g s + t + const) hits bank (g s + t) mod 32, distinct over the
// warp for 4-byte and over each half-warp for 8-byte elements.
template <int G>
__device__ __forceinline__ int whole_stride(int nn) {
  return nn + ((G - nn % (2 * G)) + 2 * G) % (2 * G);
}

// *dst = *src, memory to shared memory without a register (cp.async, sm_80
// and later; a plain copy before). Written in PTX rather than through
// <cuda_pipeline.h>, which would bring a global namespace ::cuda into every
// file that includes this library.
template <class T>
__device__ __forceinline__ void copy_to_shared(T* dst, const T* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cp.async copies 4 or 8 bytes here");
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(src), "n"(sizeof(T))
               : "memory");
#else
  *dst = *src;
#endif
}
// Waits for this thread's copy_to_shared.
__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// e / d for the small e of one warp's staging (e (d - 1) < 2^32) and d >= 2,
// by one multiply-high: the magic m = ceil(2^32 / d).
struct SmallDiv {
  unsigned m;
  __device__ explicit SmallDiv(unsigned d) : m(0xffffffffu / d + 1u) {}
  __device__ unsigned operator()(unsigned e) const { return __umulhi(e, m); }
};

}  // namespace group_detail

// NP: padded order (a multiple of G, and of 16 bytes' worth of T when G > 1).
// WARPS: warps per block; a block holds 32*WARPS/G matrices. W: staged
// whole (GroupShape), a kernel of its own so that its registers do not
// weigh on the others, with its buffer in dynamic shared memory
// (GroupShape::kWholeBytes); with Whole::No rows are staged where a_cs == 1.
// LD: a factorization that also writes the log-determinant (Problem::out),
// a kernel of its own for the same reason. SH: potrf_shifted's factorization
// (Problem::shift), which retries a failed matrix after its stores
// (Batchol_CudaShift.cuh).
template <class T, int NP, int G, int WARPS, Op OP, group_detail::Whole W, int NR = 1,
          bool LD = false, bool SH = false>
__global__ void __launch_bounds__(WARPS * 32)
    group_kernel(const Problem<T> p, const std::int64_t first) {
  using namespace group_detail;
  using Shape = GroupShape<T, NP, G, WARPS, OP>;
  static_assert(G == 1 || G == 2 || G == 4 || G == 8 || G == 16 || G == 32, "G: 1..32, power of 2");
  static_assert(NP % G == 0, "NP must be a multiple of G");
  constexpr int M = NP / G;  // row blocks per thread
  constexpr int MPB = Shape::MPB;
  constexpr int V = Shape::V;
  static_assert(G == 1 || NP % V == 0, "NP must hold whole 16-byte vectors");
  constexpr int STRIDE = Shape::STRIDE;
  __shared__ __align__(16) T colbuf[Shape::kShared ? 2 * MPB * STRIDE : 1];
  constexpr bool whole = W != Whole::No;
  __shared__ __align__(16) T stage[(!whole && Shape::kRows) ? WARPS * 32 * Shape::SROW : 1];
  extern __shared__ __align__(16) unsigned char whole_stage[];

  const int t = threadIdx.x % G;
  const int g = threadIdx.x / G;
  const std::int64_t mat = first + std::int64_t(blockIdx.x) * MPB + g;
  // Groups past the end still compute (shuffles need the whole warp) on the
  // last matrix, and store nothing.
  const bool live = mat < p.batch;
  const std::int64_t mi = live ? mat : p.batch - 1;
  const int n = p.n;

  T* const A = p.a + mi * p.a_bs;
  // Where the input is read: p.src (p.a in place; set by the launcher, as a
  // select here would cost registers).
  const T* const src = p.src;
  const T* const S = src + mi * p.a_bs;
  T r[M][NP];  // r[m][c] = element (t + m*G, c); only c < (m+1)*G is touched
  T dinv[M];   // 1 / diagonal of the owned rows

  constexpr int SROW = Shape::SROW;
  static_assert(!whole || Shape::kWhole, "whole staging does not fit this shape");
  const bool rows = !whole && Shape::kRows && p.a_cs == 1;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  T* const wstage = stage + warp * 32 * SROW;
  // Matrix of warp row R (= lane R's matrix) and its first element.
  const std::int64_t warp_mat = mat - lane / G;
  auto stage_offset = [&](int R) {
    const std::int64_t m = warp_mat + R / G;
    return (m < p.batch ? m : p.batch - 1) * p.a_bs;
  };
  // Whole: this warp's 32/G matrices, matrix k at wwhole + k*ws; element e
  // of the warp's run is matrix e / nn's at offset e % nn, row + c*n where
  // the columns are contiguous (cm), row*n + c where the rows are.
  const int nn = n * n;
  constexpr bool cm = W == Whole::Columns;
  const int wrs = cm ? 1 : n, wcs = cm ? n : 1;
  const int ws = whole_stride<G>(nn);
  T* const wwhole = reinterpret_cast<T*>(whole_stage) + warp * Shape::WARP_WHOLE;
  T* const own = wwhole + (lane / G) * ws;  // this group's matrix
  const T* const run = src + warp_mat * nn;
  const std::int64_t left = p.batch - warp_mat;  // live matrices from the warp's first
  const int run_len = int(left < 32 / G ? left : 32 / G) * nn;
  constexpr int QW = NP * NP / G;  // bound on the run's elements per lane
  auto whole_index = [&](int e, int& k, int& off, int& row, int& c) {
    k = int(SmallDiv(unsigned(nn))(unsigned(e)));
    off = e - k * nn;
    const int q = int(SmallDiv(unsigned(n))(unsigned(off)));
    row = cm ? off - q * n : q;
    c = cm ? q : off - q * n;
  };

  // Staged: every global load is issued before the first is used (one round
  // trip to memory, not M), then the values go through shared memory.
  T tmp[M][NP];  // tmp[m][q] = element q*32 + lane of row block m (q < (m+1)G)
  if (Shape::kRows && rows) {
#pragma unroll
    for (int m = 0; m < M; ++m) {
#pragma unroll
      for (int q = 0; q < (m + 1) * G; ++q) {
        const int NC = (m + 1) * G;
        const int e = lane + 32 * q, R = e / NC, c = e % NC;
        const int row = R % G + m * G;
        tmp[m][q] =
            (row < n && c <= row) ? src[stage_offset(R) + std::int64_t(row) * p.a_rs + c] : T(0);
      }
    }
  }
  if constexpr (whole) {
    // Straight from memory into shared memory: no register holds
    // the run, and every copy is in flight before the first is waited for.
    // The tail's missing matrices are zeros (their groups store nothing).
#pragma unroll
    for (int q = 0; q < QW; ++q) {
      const int e = lane + 32 * q;
      int k, off, row, c;
      whole_index(e, k, off, row, c);
      if (e < run_len && c <= row)
        copy_to_shared(wwhole + k * ws + off, run + e);
      else if (e < 32 / G * nn && c <= row)
        wwhole[k * ws + off] = T(0);
    }
    wait_copies();
    __syncwarp();
  }

  // Load the owned rows of the lower triangle; padding is the identity.
#pragma unroll
  for (int m = 0; m < M; ++m) {
    const int i = t + m * G;
    const bool row_ok = i < n;
    const T* rowp = S + std::int64_t(row_ok ? i : 0) * p.a_rs;
    if (Shape::kRows && rows) {
      const int NC = (m + 1) * G;  // columns of row block m
#pragma unroll
      for (int q = 0; q < NC; ++q) {
        const int e = lane + 32 * q, R = e / NC, c = e % NC;
        wstage[R * SROW + c] = tmp[m][q];
      }
      __syncwarp();
    }
    // One loop per source, the source chosen once per row block (and below,
    // one loop per kind of store): chosen per element, it compiled (with some
    // layouts of Problem) to a branch per element, and this kernel, tens of KB
    // of unrolled code, then stalled on its instruction cache (H200, potrf
    // double LayoutRight n = 24: 5.48 ns per matrix, 3.03 with the loops).
    T diag = T(1);
    const auto take = [&](const auto& read) {
#pragma unroll
      for (int c = 0; c < (m + 1) * G; ++c) {
        T v = (i == c) ? T(1) : T(0);
        if (row_ok && c <= i) v = read(c);
        r[m][c] = v;
        if (c >= m * G && !factors(OP)) diag = (i == c) ? v : diag;
      }
    };
    if constexpr (whole)
      take([&](int c) { return own[i * wrs + c * wcs]; });
    else if (Shape::kRows && rows)
      take([&](int c) { return wstage[lane * SROW + c]; });
    else
      take([&](int c) { return rowp[c * p.a_cs]; });
    if constexpr (!factors(OP)) dinv[m] = T(1) / diag;
    if (Shape::kRows && rows) __syncwarp();
  }

  int fail = 0;  // first failing column, 1-based (uniform over the group)
  // The split posv's solve: a system whose factorization failed keeps B.
  if constexpr (!factors(OP)) {
    if (p.skip_failed && live && p.info[mat * p.info_s] != 0) fail = 1;
  }
  if constexpr (factors(OP)) {
    T* const buf = colbuf + g * STRIDE;
    LogSum<T> ld;
    FactorStep<T, NP, G, MPB * STRIDE, 0, LD>::run(r, dinv, buf, t, n, p.fast_math, fail, ld);

    // Store: columns before a failing pivot hold the factor, the rest of the
    // matrix keeps its input (as the reference leaves it).
    const int ncol = fail ? fail - 1 : n;
    const bool mirror = p.mirror && fail == 0;
    if (Shape::kRows && rows) {
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const int NC = (m + 1) * G;
#pragma unroll
        for (int c = 0; c < NC; ++c) wstage[lane * SROW + c] = r[m][c];
        __syncwarp();
#pragma unroll
        for (int q = 0; q < NC; ++q) {
          const int e = lane + 32 * q, R = e / NC, c = e % NC;
          const int row = R % G + m * G;
          const int ncol_r = __shfl_sync(0xffffffffu, ncol, R - R % G);
          const bool live_r = warp_mat + R / G < p.batch;
          if (live_r && row < n && c <= row && c < ncol_r)
            p.a[stage_offset(R) + std::int64_t(row) * p.a_rs + c] = wstage[R * SROW + c];
        }
        __syncwarp();
      }
    }
    if constexpr (whole) {
      // Each lane overwrites only the elements it read itself.
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const int i = t + m * G;
#pragma unroll
        for (int c = 0; c < (m + 1) * G; ++c)
          if (i < n && c <= i) own[i * wrs + c * wcs] = r[m][c];
      }
      __syncwarp();
      // The same indices as the loads', recomputed: kept from there, they
      // would hold registers through the whole factorization.
      const int lane_s = int(opaque(lane));
      T* const run_s = p.a + opaque(warp_mat) * nn;
#pragma unroll
      for (int q = 0; q < QW; ++q) {
        const int e = lane_s + 32 * q;
        int k, off, row, c;
        whole_index(e, k, off, row, c);
        const int ncol_k = __shfl_sync(0xffffffffu, ncol, (k < 32 / G ? k : 32 / G - 1) * G);
        if (e < run_len && c <= row && c < ncol_k) run_s[e] = wwhole[k * ws + off];
      }
    }
    if (live) {
      if (!rows && !whole) {
#pragma unroll
        for (int m = 0; m < M; ++m) {
          const int i = t + m * G;
          if (i >= n) continue;
          T* rowp = A + std::int64_t(i) * p.a_rs;
#pragma unroll
          for (int c = 0; c < (m + 1) * G; ++c)
            if (c <= i && c < ncol) rowp[c * p.a_cs] = r[m][c];
        }
      }
      if (mirror) {
#pragma unroll
        for (int m = 0; m < M; ++m) {
          const int i = t + m * G;
          if (i >= n) continue;
#pragma unroll
          for (int c = 0; c < (m + 1) * G; ++c)
            if (c < i) A[c * p.a_rs + std::int64_t(i) * p.a_cs] = r[m][c];
        }
      }
      if (t == 0) p.info[mat * p.info_s] = fail;
      if constexpr (LD) {
        if (t == 0) store_logdet(p, mat, fail, ld.value());
      }
    }
    if constexpr (SH) {
      __syncwarp();  // the warp's stores come before a retry's rewrite of L
      if (live && t == 0) finish_shifted(p, mat, S, A, n, fail);
    }
  }

  if constexpr (solves_forward(OP) || solves_backward(OP)) {
    // A failed posv leaves B as it was; the solve still runs (lockstep shuffles).
    // NR right-hand sides at a time: their substitutions share the steps'
    // shuffles and latencies, and where B's rows are contiguous (b_cs == 1)
    // each row's NR values come from one run of memory.
    const bool store = live && fail == 0;
    for (int q0 = 0; q0 < p.nrhs; q0 += NR) {
      T* const B0 = p.b + mi * p.b_bs + q0 * p.b_cs;
      const int nr = p.nrhs - q0 < NR ? p.nrhs - q0 : NR;
      T y[M][NR];
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const int i = t + m * G;
#pragma unroll
        for (int c = 0; c < NR; ++c)
          y[m][c] = (i < n && c < nr) ? B0[std::int64_t(i) * p.b_rs + c * p.b_cs] : T(0);
      }
      if constexpr (solves_forward(OP)) {
        // L y = b, right-looking: y_k is final once rows above are applied.
#pragma unroll
        for (int k = 0; k < NP; ++k) {
          const int mk = k / G, tk = k % G;
          T yk[NR];
#pragma unroll
          for (int c = 0; c < NR; ++c) yk[c] = group_shfl<G>(y[mk][c] * dinv[mk], tk);
#pragma unroll
          for (int m = mk; m < M; ++m) {
#pragma unroll
            for (int c = 0; c < NR; ++c) {
              if (m == mk)
                y[m][c] = (t > tk) ? y[m][c] - r[m][k] * yk[c] : (t == tk ? yk[c] : y[m][c]);
              else
                y[m][c] -= r[m][k] * yk[c];
            }
          }
        }
      }
      if constexpr (solves_backward(OP)) {
        // L^T x = y: x_k needs the finished x below it, summed over the group.
#pragma unroll
        for (int k = NP - 1; k >= 0; --k) {
          const int mk = k / G, tk = k % G;
          T part[NR];
#pragma unroll
          for (int c = 0; c < NR; ++c) part[c] = T(0);
#pragma unroll
          for (int m = M - 1; m >= mk; --m) {
#pragma unroll
            for (int c = 0; c < NR; ++c) {
              if (m == mk)
                part[c] += (t > tk) ? r[m][k] * y[m][c] : T(0);
              else
                part[c] += r[m][k] * y[m][c];
            }
          }
#pragma unroll
          for (int c = 0; c < NR; ++c) {
            const T tot = group_sum<G>(part[c]);
            if (t == tk) y[mk][c] = (y[mk][c] - tot) * dinv[mk];
          }
        }
      }
      if (store) {
#pragma unroll
        for (int m = 0; m < M; ++m) {
          const int i = t + m * G;
#pragma unroll
          for (int c = 0; c < NR; ++c)
            if (i < n && c < nr) B0[std::int64_t(i) * p.b_rs + c * p.b_cs] = y[m][c];
        }
      }
    }
  }
}

namespace group_detail {

// Right-hand sides per pass of potrs: several where B's rows are contiguous
// (LayoutRight B with more than one column), in float at the orders where
// the group kernel's registers have room for them; one otherwise (and always
// on LayoutLeft, where one column's loads already coalesce across the
// matrices). On an H200, potrs with 8 right-hand sides on LayoutRight: float
// 1.1-1.6x faster at n = 4-16 and 32, the same at 24; double slower at n = 8
// and 16 (0.84-0.89x), so it keeps one per pass, as posv does.
inline constexpr int rhs_per_pass = 4;
template <class T, Op OP, int NP>
inline constexpr bool multi_rhs = (OP == Op::Potrs) && NP <= 32 && std::is_same_v<T, float>;

// One launch of group_kernel with staging W, choosing the right-hand sides
// per pass for p.
template <class T, int NP, int G, int WARPS, Op OP, Whole W>
void launch_group_grid(const Problem<T>& p, cudaStream_t stream, unsigned nb, std::int64_t first,
                       std::size_t shm) {
  if constexpr (OP == Op::Potrf) {
    if (p.shift != nullptr) {
      group_kernel<T, NP, G, WARPS, OP, W, 1, false, true>
          <<<nb, WARPS * 32, shm, stream>>>(p, first);
      return;
    }
  }
  if constexpr (factors(OP)) {
    if (p.out != nullptr) {
      group_kernel<T, NP, G, WARPS, OP, W, 1, true><<<nb, WARPS * 32, shm, stream>>>(p, first);
      return;
    }
  }
  if constexpr (multi_rhs<T, OP, NP>) {
    if (p.nrhs > 1 && p.b_cs == 1) {
      group_kernel<T, NP, G, WARPS, OP, W, rhs_per_pass><<<nb, WARPS * 32, shm, stream>>>(p, first);
      return;
    }
  }
  group_kernel<T, NP, G, WARPS, OP, W><<<nb, WARPS * 32, shm, stream>>>(p, first);
}

}  // namespace group_detail

// Launches the kernel over the whole batch on `stream` (several launches when
// the grid would exceed 2^30 blocks). The caller guarantees 1 <= n <= NP.
template <class T, int NP, int G, int WARPS, Op OP>
void launch_group(const Problem<T>& given, cudaStream_t stream) {
  const Problem<T> p = with_source(given);
  constexpr std::int64_t mpb = WARPS * 32 / G;
  using Shape = group_detail::GroupShape<T, NP, G, WARPS, OP>;
  using group_detail::launch_group_grid;
  using group_detail::Whole;
  const Whole whole = Shape::whole(p);
  launch_grids((p.batch + mpb - 1) / mpb, "group_kernel launch", [&](unsigned nb, std::int64_t b0) {
    constexpr std::size_t shm = Shape::kWholeBytes;
    if constexpr (Shape::kWhole) {
      if (whole == Whole::Columns) {
        launch_group_grid<T, NP, G, WARPS, OP, Whole::Columns>(p, stream, nb, b0 * mpb, shm);
        return;
      }
      if constexpr (G == 1) {
        if (whole == Whole::Rows) {
          launch_group_grid<T, NP, G, WARPS, OP, Whole::Rows>(p, stream, nb, b0 * mpb, shm);
          return;
        }
      }
    }
    launch_group_grid<T, NP, G, WARPS, OP, Whole::No>(p, stream, nb, b0 * mpb, 0);
  });
}

}  // namespace batchol::cuda

#endif
