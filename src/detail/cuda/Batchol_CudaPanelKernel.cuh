// Kurzak et al.'s non-resident left-looking factorization (their Algorithm 4,
// sections 4-5): a BX x BY thread block per matrix holds one panel of NB
// columns in registers, 2D block-cyclic (thread (tx,ty) owns rows tx + BX*i,
// columns ty + BY*j of the panel), padded with the identity to KP panels of NB
// columns and to a multiple of BX rows. For each panel K:
//   1. load its rows >= K*NB from global memory (the rows above the diagonal
//      block are finished and never touched again: the working set shrinks);
//   2. apply the pending updates of every finished panel L < K, streamed
//      from global memory (the factor this block stored, L1/L2-resident)
//      through shared memory, one panel at a time: a rank-NB update that
//      needs no barrier inside and has (rows x columns) independent fused
//      multiply-adds per step;
//   3. factor the panel right-looking in registers, one column published
//      through shared memory per step, on the unscaled form of the tile kernel
//      (Batchol_CudaTileKernel.cuh: pivots d_k and 1/d_k, no square root in
//      the chain), then scale it by the pivots' roots;
//   4. store it (columns before a failing pivot only, then stop).
// Only NR x NB values of the factor live in registers, so for large n a
// thread holds far fewer than the tile kernel's whole-matrix share, which
// leaves room for more warps per SM. The panel loop is expanded at compile
// time (each panel's row range is a constant), the update's inner loop is a
// run-time loop, every register index a constant, and padding replaces
// conditionals; bounds are tested on global loads and stores only.
//
// Failure contract (as the reference): the first column c < n whose pivot
// fails pivot_ok gives info = c+1; columns before it hold the factor and are
// the only ones stored, the rest keeps the input. The test comes after each
// panel (one atomicMin per failing pivot); a failed matrix keeps computing
// with its block and stores nothing more. A subnormal pivot whose reciprocal
// overflows (exact mode) is such an event too; then one thread factors the
// matrix on from that column (Batchol_CudaFirstEvent.cuh).
//
// potrf only: posv runs it and then the strided solve (a split posv,
// PosvSolve::Split in the table), so that posv's factor is potrf's bit for
// bit.
#ifndef BATCHOL_CUDA_PANEL_KERNEL_CUH
#define BATCHOL_CUDA_PANEL_KERNEL_CUH

#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaFirstEvent.cuh"
#include "Batchol_CudaLogdet.cuh"

#include <algorithm>
#include <climits>

namespace batchol::cuda {
namespace panel_detail {

template <int BX, int BY, int NB, int KP>
struct Shape {
  static_assert(BX >= 1 && BY >= 1 && NB % BY == 0 && KP >= 1, "panel shape");
  static constexpr int NC = NB * KP;                  // padded order
  static constexpr int NR = (NC + BX - 1) / BX * BX;  // rows, a multiple of BX
  static constexpr int MI = NR / BX, MJ = NB / BY;    // register tile
  static constexpr int NT = BX * BY;                  // threads per matrix
};

// Per-matrix shared memory, in elements of T: a finished panel (column-major,
// leading dimension NR+1 so that a warp writing along a row of the panel hits
// distinct banks), two column buffers, then per panel column d, 1/d, sqrt(d),
// 1/sqrt(d).
template <class T, int NR, int NB>
struct Smem {
  static constexpr int kLd = NR + 1;
  static constexpr int kCol = kLd * NB;
  static constexpr int kPiv = kCol + 2 * NR;
  static constexpr int kPinv = kPiv + NB;
  static constexpr int kSqrt = kPinv + NB;
  static constexpr int kRsqrt = kSqrt + NB;
  static constexpr int kSize = kRsqrt + NB;
  static constexpr std::size_t bytes(int mpb) {
    return std::size_t(mpb) * kSize * sizeof(T) + std::size_t(mpb) * sizeof(int);
  }
};

// What one thread needs for a panel: its tile coordinates, its matrix.
template <class T>
struct Ctx {
  T* sh;         // this matrix's shared memory
  int* fail;     // this matrix's FirstEvent
  T* a;          // this matrix in global memory
  const T* src;  // where its input is read (a, or an out-of-place potrf's input)
  std::int64_t rs, cs;
  int n, tx, ty, lid;
  bool live, fast;
};

// Column KK of the panel (local index) to the column buffer, with its pivot
// and 1/pivot; rows of tiles I0.. (the panel's rows).
template <class T, int BX, int BY, int NB, int MI, int MJ, int I0, int C0, int KK>
__device__ __forceinline__ void publish(const T (&r)[MI][MJ], const Ctx<T>& c) {
  using S = Smem<T, MI * BX, NB>;
  constexpr int j = KK / BY;
  if (c.ty == KK % BY) {
    T* const col = c.sh + S::kCol + (KK & 1) * (MI * BX);
#pragma unroll
    for (int i = I0; i < MI; ++i) col[c.tx + BX * i] = r[i][j];
    constexpr int drow = C0 + KK;
    if (c.tx == drow % BX) {
      const T d = r[drow / BX][j];
      c.sh[S::kPiv + KK] = d;
      c.sh[S::kPinv + KK] = recip(d);
    }
  }
}

// The in-panel steps KK = BY*JK .. BY*JK + BY-1 of tile column JK: rank-1
// update with column KK, then column KK+1 is published, one barrier per step.
// Within a tile column every step runs the same code, so it is a run-time
// loop; tile columns are a compile-time recursion (constant register indices).
template <class T, int BX, int BY, int NB, int MI, int MJ, int I0, int C0, int JK>
struct PanelColumn {
  __device__ __forceinline__ static void run(T (&r)[MI][MJ], const Ctx<T>& c) {
    if constexpr (JK < MJ) {
      constexpr int NR = MI * BX;
      using S = Smem<T, NR, NB>;
      constexpr int kend = JK == MJ - 1 ? BY - 1 : BY;
#pragma unroll
      for (int kk = 0; kk < kend; ++kk) {
        const int K = BY * JK + kk;
        const T* const col = c.sh + S::kCol + (K & 1) * NR;
        const T dinv = c.sh[S::kPinv + K];
        T u[MI], v[MJ];
#pragma unroll
        for (int i = I0; i < MI; ++i) u[i] = col[c.tx + BX * i] * dinv;
#pragma unroll
        for (int j = JK; j < MJ; ++j) v[j] = col[C0 + c.ty + BY * j];
        // Columns <= K of this tile column are finished: a select keeps them
        // (NaN * 0 must not reach them).
        const bool open = c.ty > kk;
#pragma unroll
        for (int j = JK; j < MJ; ++j) {
#pragma unroll
          for (int i = I0; i < MI; ++i) {
            if (j == JK)
              r[i][j] = open ? r[i][j] - u[i] * v[j] : r[i][j];
            else
              r[i][j] -= u[i] * v[j];
          }
        }
        // Publish column K+1 (its owners: ty == (K+1) % BY).
        const bool next = kk == BY - 1;
        const int t1 = next ? 0 : kk + 1;
        if (c.ty == t1) {
          T* const c1 = c.sh + S::kCol + ((K + 1) & 1) * NR;
#pragma unroll
          for (int i = I0; i < MI; ++i) {
            T x = r[i][JK];
            if constexpr (JK + 1 < MJ) x = next ? r[i][JK + 1] : x;
            c1[c.tx + BX * i] = x;
          }
          const int drow = C0 + K + 1;
          if (c.tx == drow % BX) {
            // drow / BX is a run-time value: pick the diagonal by a select
            // over the tiles (no dynamically indexed register array).
            T d = T(0);
#pragma unroll
            for (int i = I0; i < MI; ++i) {
              T x = r[i][JK];
              if constexpr (JK + 1 < MJ) x = next ? r[i][JK + 1] : x;
              d = i == drow / BX ? x : d;
            }
            c.sh[S::kPiv + K + 1] = d;
            c.sh[S::kPinv + K + 1] = recip(d);
          }
        }
        __syncthreads();
      }
      PanelColumn<T, BX, BY, NB, MI, MJ, I0, C0, JK + 1>::run(r, c);
    }
  }
};

// Panel K, then panel K+1.
template <class T, int BX, int BY, int NB, int KP, int K>
struct PanelStep {
  using Sh = Shape<BX, BY, NB, KP>;
  static constexpr int MI = Sh::MI, MJ = Sh::MJ, NR = Sh::NR;
  static constexpr int C0 = K * NB, I0 = C0 / BX, R0 = I0 * BX;
  using S = Smem<T, NR, NB>;

  __device__ __forceinline__ static void run(T (&r)[MI][MJ], const Ctx<T>& c) {
    if constexpr (K < KP) {
      const int n = c.n;
      // Addresses are recomputed per panel from opaque strides (else every
      // panel's addresses stay live from the start, two registers each).
      const std::int64_t ars = opaque(c.rs), acs = opaque(c.cs);
      const T* const a = c.src + opaque(0);
      T* const la = c.a + opaque(0);
      // 1. The panel's rows (padding: the identity; above the diagonal: 0).
#pragma unroll
      for (int j = 0; j < MJ; ++j) {
#pragma unroll
        for (int i = I0; i < MI; ++i) {
          const int row = c.tx + BX * i, col = C0 + c.ty + BY * j;
          T v = row == col ? T(1) : T(0);
          if (row < n && col <= row) v = a[row * ars + col * acs];
          r[i][j] = v;
        }
      }
      // 2. Pending updates from the finished panels, each staged in shared
      // memory (rows R0.. only; padding rows and columns read as 0).
      T* const ls = c.sh;
      for (int l0 = 0; l0 < C0; l0 += NB) {
        __syncthreads();  // the previous panel's readers are done
        constexpr int rows = NR - R0;
        // Along rows when they are contiguous (LayoutRight), else down columns.
        const bool rowfast = acs == 1;
        for (int e = c.lid; e < rows * NB; e += Sh::NT) {
          const int l = rowfast ? e % NB : e / rows;
          const int row = R0 + (rowfast ? e / NB : e % rows);
          const int col = l0 + l;
          ls[l * S::kLd + row] = row < n && col < n ? la[row * ars + col * acs] : T(0);
        }
        __syncthreads();
#pragma unroll 2
        for (int l = 0; l < NB; ++l) {
          const T* const lc = ls + l * S::kLd;
          T u[MI], v[MJ];
#pragma unroll
          for (int i = I0; i < MI; ++i) u[i] = lc[c.tx + BX * i];
#pragma unroll
          for (int j = 0; j < MJ; ++j) v[j] = lc[C0 + c.ty + BY * j];
#pragma unroll
          for (int j = 0; j < MJ; ++j) {
#pragma unroll
            for (int i = I0; i < MI; ++i) r[i][j] -= u[i] * v[j];
          }
        }
      }
      // 3. Factor the panel in registers.
      publish<T, BX, BY, NB, MI, MJ, I0, C0, 0>(r, c);
      __syncthreads();
      PanelColumn<T, BX, BY, NB, MI, MJ, I0, C0, 0>::run(r, c);
      for (int k = c.lid; k < NB; k += Sh::NT) {
        const T d = c.sh[S::kPiv + k];
        const int e = FirstEvent::of(d, c.sh[S::kPinv + k], C0 + k, c.fast);
        if (C0 + k < n && e != FirstEvent::kNone) atomicMin(c.fail, e);
        T s, rs;
        pivot_roots(d, c.fast, s, rs);
        c.sh[S::kSqrt + k] = s;
        c.sh[S::kRsqrt + k] = rs;
      }
      __syncthreads();
      // 4. Store the columns before the first event (a failing or tiny pivot).
      const int ncol = FirstEvent::before(*c.fail, n);
      const std::int64_t srs = opaque(c.rs), scs = opaque(c.cs);
      T* const sa = c.a + opaque(0);
#pragma unroll
      for (int j = 0; j < MJ; ++j) {
        const int k = c.ty + BY * j, col = C0 + k;
        const T rs = c.sh[S::kRsqrt + k];
        const T s = c.sh[S::kSqrt + k];
#pragma unroll
        for (int i = I0; i < MI; ++i) {
          const int row = c.tx + BX * i;
          const T x = row == col ? s : r[i][j] * rs;
          if (c.live && row < n && col <= row && col < ncol) sa[row * srs + col * scs] = x;
        }
      }
      // A failed matrix goes on computing (its block's barriers need every
      // thread) and stores nothing more.
      PanelStep<T, BX, BY, NB, KP, K + 1>::run(r, c);
    }
  }
};

}  // namespace panel_detail

// BX x BY threads per matrix, NB columns per panel, KP panels (padded order
// NB*KP), MINB blocks of MAXT threads per SM for __launch_bounds__, mpb
// matrices per block at run time (interleaved on LayoutLeft, as the tile
// kernel does, so that neighbouring lanes read neighbouring matrices).
template <class T, int BX, int BY, int NB, int KP, int MAXT, int MINB>
__global__ void __launch_bounds__(MAXT, MINB)
    panel_kernel(const Problem<T> p, const std::int64_t first, const int mpb) {
  using namespace panel_detail;
  using Sh = Shape<BX, BY, NB, KP>;
  using S = Smem<T, Sh::NR, NB>;
  extern __shared__ __align__(16) unsigned char panel_smem[];

  const bool inter = mpb > 1 && p.a_bs == 1;
  const int sub = inter ? int(threadIdx.x) % mpb : int(threadIdx.x) / Sh::NT;
  const int lid = inter ? int(threadIdx.x) / mpb : int(threadIdx.x) % Sh::NT;
  // Rows contiguous (LayoutRight): neighbouring threads walk along a row.
  const bool colfast = p.a_cs == 1;
  const int tx = colfast ? lid / BY : lid % BX;
  const int ty = colfast ? lid % BY : lid / BX;

  int* const fails = reinterpret_cast<int*>(reinterpret_cast<T*>(panel_smem) + mpb * S::kSize);
  const std::int64_t mat = first + std::int64_t(blockIdx.x) * mpb + sub;
  // Matrices past the end compute on the last one (barriers need every
  // thread) and store nothing.
  const bool live = mat < p.batch;
  const std::int64_t mi = live ? mat : p.batch - 1;
  if (lid == 0) fails[sub] = FirstEvent::kNone;
  __syncthreads();

  Ctx<T> c{reinterpret_cast<T*>(panel_smem) + sub * S::kSize,
           &fails[sub],
           p.a + mi * p.a_bs,
           p.src + mi * p.a_bs,
           p.a_rs,
           p.a_cs,
           p.n,
           tx,
           ty,
           lid,
           live,
           p.fast_math};
  T r[Sh::MI][Sh::MJ];
  PanelStep<T, BX, BY, NB, KP, 0>::run(r, c);
  __syncthreads();
  const int event = fails[sub];
  int info = FirstEvent::info(event);
  // Columns before the event are stored (the barrier above publishes them).
  if (FirstEvent::is_tiny(event) && live && lid == 0) {
    const int c0 = FirstEvent::column(event);
    if (p.src != p.a) copy_lower_from(c.src, c.a, c.rs, c.cs, p.n, c0);
    info = serial_potrf_tail(c.a, c.rs, c.cs, p.n, c0, p.mirror);
  }
  if (live && lid == 0) p.info[mat * p.info_s] = info;
  if (p.out != nullptr) {
    // The panel buffers are free now.
    const T sum = block_logdet(c.a, c.rs + c.cs, p.n, lid, Sh::NT, c.sh);
    if (live && lid == 0) store_logdet(p, mat, info, sum);
  }

  // The transposed copy into the upper triangle, from the stored factor.
  if (p.mirror && event == FirstEvent::kNone && live) {
    const int n = p.n;
    for (int e = lid; e < n * n; e += Sh::NT) {
      const int row = e % n, col = e / n;
      if (col < row) c.a[col * c.rs + row * c.cs] = c.a[row * c.rs + col * c.cs];
    }
  }
}

template <int NT>
inline constexpr int panel_maxt_v = NT >= 256 ? NT : 256;

// Launches the kernel over the whole batch on `stream` with mpb matrices per
// block (clamped to what MAXT allows). The caller guarantees 1 <= n <= NB*KP.
template <class T, int BX, int BY, int NB, int KP, int MINB>
void launch_panel(const Problem<T>& p, cudaStream_t stream, int mpb) {
  using Sh = panel_detail::Shape<BX, BY, NB, KP>;
  constexpr int MAXT = panel_maxt_v<Sh::NT>;
  static_assert(Sh::NT % 32 == 0, "whole warps per matrix");
  mpb = std::max(1, std::min(mpb, MAXT / Sh::NT));
  using S = panel_detail::Smem<T, Sh::NR, NB>;
  // Wide panels of large orders: fewer matrices per block where shared
  // memory would not hold them.
  const std::size_t optin = std::size_t(current_device().smem_optin);
  while (mpb > 1 && S::bytes(mpb) > optin) --mpb;
  const std::size_t shm = S::bytes(mpb);
  auto* kern = &panel_kernel<T, BX, BY, NB, KP, MAXT, MINB>;
  allow_shared(kern, shm, "panel_kernel shared memory");
  launch_grids((p.batch + mpb - 1) / mpb, "panel_kernel launch", [&](unsigned nb, std::int64_t b0) {
    kern<<<nb, mpb * Sh::NT, shm, stream>>>(with_source(p), b0 * mpb, mpb);
  });
}

}  // namespace batchol::cuda

#endif
