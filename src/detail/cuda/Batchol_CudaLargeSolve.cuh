// The triangular solves of one large matrix on the whole device (double, a
// batch of one, the factor of Batchol_CudaLarge.cuh): potrs's L Y = B, then
// L^T X = Y, right-looking by blocks of 64 rows (one right-hand side:
// Batchol_CudaLargeSolveOne.cuh; many, where the build has cuBLAS: its
// dtrsm, blas_potrs).
//
// One launch per block and sweep. Its thread blocks each take a 64 x 64 tile
// of right-hand sides (64 rows, 64 columns) not yet solved and subtract what
// the block solved by the previous launch contributes (a DMMA product); the
// thread block whose rows are the next block to solve then solves it on the
// spot (two threads per right-hand side, as the rows launches of the
// factorization solve their rows). The launches form a chain of programmatic
// dependent launches: each stages its tile of L, which no launch writes,
// before it waits for its predecessor.
#ifndef BATCHOL_CUDA_LARGE_SOLVE_CUH
#define BATCHOL_CUDA_LARGE_SOLVE_CUH

#include "Batchol_CudaLarge.cuh"
#include "Batchol_CudaLargeSolveOne.cuh"

namespace batchol::cuda {
namespace large_detail {

inline constexpr int TS = NB + 1;  // stride of the staged tiles (odd: conflict-free columns)
inline constexpr std::size_t solve_smem =
    (NB * TS + NB * TS + NB * XL + NB * LT + NB) * sizeof(double);

// Forward (L Y = B): the launch for block s (rows [s, s + w)) subtracts
// L(R, s:s+w) Y(s:s+w) from every later block of rows R, and solves the
// block after s. Backward (L^T X = Y): it subtracts L(s:s+w, R)^T X(s:s+w)
// from every earlier block R, and solves the block before s. With s < 0 the
// launch only solves the first block of its sweep (the last one backward).
// Thread block (blockIdx.x, blockIdx.y): the blockIdx.x-th block of rows
// after (before) s, right-hand sides [64 blockIdx.y, 64 blockIdx.y + 64).
template <bool Forward, bool CM>
__global__ void __launch_bounds__(128)
    solve_kernel(const double* M, std::int64_t ld, int n, int s, double* b, std::int64_t b_rs,
                 std::int64_t b_cs, int nrhs, const int* skip) {
  extern __shared__ __align__(16) double sm[];
  double* As = sm;            // As[r * TS + j]: the multiplier of row r by solved row j
  double* Ys = As + NB * TS;  // Ys[q * TS + j]: solved row j, right-hand side q
  double* X = Ys + NB * TS;   // X[q * XL + r]: the tile, one right-hand side per row
  double* Lt = X + NB * XL;   // the diagonal block to solve, staged for the substitution
  double* dinv = Lt + NB * LT;
  const int nb = (n + NB - 1) / NB;
  const int sb = s < 0 ? (Forward ? -1 : nb) : s / NB;  // the block just solved
  const int tb =
      Forward ? sb + 1 + int(blockIdx.x) : sb - 1 - int(blockIdx.x);  // this tile's block
  const int r0 = tb * NB, h = min(NB, n - r0);
  const int s0 = sb * NB, w = s < 0 ? 0 : min(NB, n - s0);
  const int q0 = blockIdx.y * NB, nq = min(NB, nrhs - q0);
  const bool solves = blockIdx.x == 0;  // the next block of the sweep
  // Before the wait: the tile of L (final before the chain started).
  if (w > 0) {
    for (int e = threadIdx.x; e < NB * NB; e += 128) {
      int i, k;  // L(., .) below: consecutive threads at consecutive addresses
      tile_element<CM>(e, i, k);
      if (Forward) {  // As[r][j] = L(r0 + r, s0 + j)
        As[i * TS + k] = i < h && k < w ? M[at<CM>(ld, r0 + i, s0 + k)] : 0.0;
      } else {  // As[r][j] = L(s0 + j, r0 + r)
        As[k * TS + i] = i < w && k < h ? M[at<CM>(ld, s0 + i, r0 + k)] : 0.0;
      }
    }
  }
  if (solves) {
    // Forward: Lt(j, 32 u + i) = L(r0 + 2i + u, r0 + j), column j of the
    // block; backward: Lt(j, 32 u + i) = L(r0 + j, r0 + 2i + u), row j.
    for (int e = threadIdx.x; e < NB * NB; e += 128) {
      int k, j;  // L(r0 + k, r0 + j)
      tile_element<CM>(e, k, j);
      const double v = k < h && j <= k ? M[at<CM>(ld, r0 + k, r0 + j)] : 0.0;
      if (Forward)
        Lt[j * LT + (k % 2) * 32 + k / 2] = v;
      else
        Lt[k * LT + (j % 2) * 32 + j / 2] = v;
      if (j == k) dinv[j] = 1.0 / v;
    }
  }
  chain_start();
  if (skip != nullptr && *skip != 0) return;  // posv: a failed factorization
  // The solved rows and this tile of right-hand sides (written by earlier
  // launches).
  for (int e = threadIdx.x; e < NB * NB; e += 128) {
    const int q = e % NB, j = e / NB;
    if (w > 0) Ys[q * TS + j] = j < w && q < nq ? b[(s0 + j) * b_rs + (q0 + q) * b_cs] : 0.0;
    X[q * XL + j] = j < h && q < nq ? b[(r0 + j) * b_rs + (q0 + q) * b_cs] : 0.0;
  }
  __syncthreads();
  if (w > 0) {
    Acc acc;
    clear(acc);
    for (int kq = 0; kq < NB; kq += 4) mma_steps<4>(acc, As + kq, TS, 1, Ys + kq, TS, 1);
    __syncthreads();
    for_each(acc, [&](int r, int q, double v) { X[q * XL + r] -= v; });
  }
  __syncthreads();
  if (solves) substitute<Forward>(X, Lt, dinv, h);  // a right-hand side per row of X
  for (int e = threadIdx.x; e < NB * NB; e += 128) {
    const int q = e % NB, r = e / NB;
    if (r < h && q < nq) b[(r0 + r) * b_rs + (q0 + q) * b_cs] = X[q * XL + r];
  }
}

template <bool CM>
void potrs(const Problem<double>& p, cudaStream_t stream) {
  const int n = p.n, nb = (n + NB - 1) / NB;
  const unsigned chunks = unsigned(rhs_groups<NB>(p.nrhs));
  allow_shared(&solve_kernel<true, CM>, solve_smem, "large solve shared memory");
  allow_shared(&solve_kernel<false, CM>, solve_smem, "large solve shared memory");
  const int* skip = p.skip_failed ? p.info : nullptr;
  auto launch = [&](auto kern, int s, int tiles) {
    launch_chained(kern, dim3(unsigned(tiles), chunks), 128, solve_smem, stream,
                   "large solve launch", static_cast<const double*>(p.a), large_ld(p), n, s, p.b,
                   std::int64_t(p.b_rs), std::int64_t(p.b_cs), p.nrhs, skip);
  };
  // Forward: block 0 alone, then block k's contribution to the later blocks.
  launch(&solve_kernel<true, CM>, -1, 1);
  for (int k = 0; k + 1 < nb; ++k) launch(&solve_kernel<true, CM>, k * NB, nb - 1 - k);
  launch(&solve_kernel<false, CM>, -1, 1);
  for (int k = nb - 1; k > 0; --k) launch(&solve_kernel<false, CM>, k * NB, k);
}

// dst(r, q) = src(r, q) for the n x nrhs right-hand sides (element (r, q) at
// r rs + q cs in each), converted to dst's scalar, where `when` is nullptr
// or points to a nonzero info.
template <class From, class To>
__global__ void __launch_bounds__(256)
    copy_rhs(const From* src, std::int64_t s_rs, std::int64_t s_cs, To* dst, std::int64_t d_rs,
             std::int64_t d_cs, int n, int nrhs, const int* when) {
  if (when != nullptr && *when == 0) return;
  const std::int64_t count = std::int64_t(n) * nrhs;
  for (std::int64_t e = blockIdx.x * std::int64_t(256) + threadIdx.x; e < count;
       e += std::int64_t(gridDim.x) * 256) {
    const std::int64_t r = e % n, q = e / n;
    dst[r * d_rs + q * d_cs] = To(src[r * s_rs + q * s_cs]);
  }
}

// potrs through cuBLAS (blas_solve) where the build has it, p's right-hand
// sides have a unit stride and they are many: false where it did not run.
// From 192 right-hand sides stored column by column and 384 row by row:
// there its two dtrsm calls are faster than the library's solves (H200,
// n = 4096, standalone timing: 256 column by column 2.84 against 3.91 ms,
// 128 the same; 512 row by row 3.51 against 4.62, 256 3.32 against 3.10;
// 1000: 3.39 against 10.3 and 4.81 against 7.65). With p.skip_failed a copy
// of B (a stream-ordered allocation) is put back after the solves when the
// factorization failed, as the library's solves leave B (they read info).
inline bool blas_potrs(const Problem<double>& p, cudaStream_t stream) {
  const bool bcm = p.b_rs == 1, brm = p.b_cs == 1 && !bcm;
  if (!has_blas || !(bcm || brm) || p.nrhs < (bcm ? 192 : 384)) return false;
  const std::int64_t ldb = bcm ? p.b_cs : p.b_rs;
  if (ldb < (bcm ? p.n : p.nrhs)) return false;
  double* saved = nullptr;
  const int grid = int(std::min<std::int64_t>(4096, (std::int64_t(p.n) * p.nrhs + 255) / 256));
  auto copy = [&](const double* from, std::int64_t f_rs, std::int64_t f_cs, double* to,
                  std::int64_t t_rs, std::int64_t t_cs, const int* when) {
    copy_rhs<double, double>
        <<<grid, 256, 0, stream>>>(from, f_rs, f_cs, to, t_rs, t_cs, p.n, p.nrhs, when);
    check(cudaGetLastError(), "large solve copy launch");
  };
  if (p.skip_failed) {
    check(cudaMallocAsync(reinterpret_cast<void**>(&saved),
                          sizeof(double) * std::size_t(p.n) * std::size_t(p.nrhs), stream),
          "large solve: cudaMallocAsync");
    copy(p.b, p.b_rs, p.b_cs, saved, 1, p.n, nullptr);
  }
  const bool ran = large_column_major(p)
                       ? blas_solve<true>(stream, p.a, large_ld(p), p.n, p.b, ldb, bcm, p.nrhs)
                       : blas_solve<false>(stream, p.a, large_ld(p), p.n, p.b, ldb, bcm, p.nrhs);
  if (saved != nullptr) {
    if (ran) copy(saved, 1, p.n, p.b, p.b_rs, p.b_cs, p.info);
    check(cudaFreeAsync(saved, stream), "large solve: cudaFreeAsync");
  }
  return ran;
}

}  // namespace large_detail

// potrs of the single matrix of p (its factor from large_potrf: lower
// triangle, unit stride along its rows or its columns; large_serves(p)) on
// `stream`; with p.skip_failed, nothing when the matrix's info is not 0
// (read on the device).
inline void large_potrs(const Problem<double>& p, cudaStream_t stream) {
  if (p.n == 0 || p.nrhs == 0) return;
  if (large_detail::blas_potrs(p, stream)) return;
  if (p.nrhs == 1) {  // one launch per sweep, blocks passed on through flags
    large_potrs_one(p, stream);
    return;
  }
  if (large_column_major(p))
    large_detail::potrs<true>(p, stream);
  else
    large_detail::potrs<false>(p, stream);
}

}  // namespace batchol::cuda

#endif
