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

// Whether copy_rhs copies: always, or only where the info it is given is
// 0 (the factorization succeeded).
enum class When { Always, Succeeded };

// dst(r, q) = src(r, q) for the n x nrhs right-hand sides (element (r, q) at
// r rs + q cs in each), converted to dst's scalar, if `when` holds of *info.
// A 32 x 32 tile per thread block of 32 x 8 threads, through shared memory,
// so that the reads go along the source's unit stride and the writes along
// the destination's, whichever they are.
template <class From, class To>
__global__ void __launch_bounds__(256)
    copy_rhs_kernel(const From* src, std::int64_t s_rs, std::int64_t s_cs, To* dst,
                    std::int64_t d_rs, std::int64_t d_cs, int n, int nrhs, const int* info,
                    When when) {
  if (when == When::Succeeded && *info != 0) return;
  __shared__ To tile[32][33];  // tile[q][r]
  const int r0 = blockIdx.x * 32, u = threadIdx.x;
  const bool s_r = s_rs == 1, d_r = d_rs == 1;  // unit stride along r
  for (int q0 = blockIdx.y * 32; q0 < nrhs; q0 += gridDim.y * 32) {
    for (int v = threadIdx.y; v < 32; v += 8) {
      const int r = s_r ? u : v, q = s_r ? v : u;
      if (r0 + r < n && q0 + q < nrhs)
        tile[q][r] = To(src[(r0 + r) * s_rs + std::int64_t(q0 + q) * s_cs]);
    }
    __syncthreads();
    for (int v = threadIdx.y; v < 32; v += 8) {
      const int r = d_r ? u : v, q = d_r ? v : u;
      if (r0 + r < n && q0 + q < nrhs)
        dst[(r0 + r) * d_rs + std::int64_t(q0 + q) * d_cs] = tile[q][r];
    }
    __syncthreads();
  }
}

template <class From, class To>
void copy_rhs(const From* src, std::int64_t s_rs, std::int64_t s_cs, To* dst, std::int64_t d_rs,
              std::int64_t d_cs, int n, int nrhs, const int* info, When when, cudaStream_t stream) {
  const dim3 grid(unsigned((n + 31) / 32), unsigned(std::min((nrhs + 31) / 32, 65535)));
  copy_rhs_kernel<From, To>
      <<<grid, dim3(32, 8), 0, stream>>>(src, s_rs, s_cs, dst, d_rs, d_cs, n, nrhs, info, when);
  check(cudaGetLastError(), "large solve copy launch");
}

// potrs through cuBLAS (blas_solve) where the build has it and the
// right-hand sides are many: false where it did not run. From 192 stored
// column by column, 256 otherwise (H200, n = 4096: column by column 192
// 2.64 against 3.13 ms for the library's solves, 128 the same; row by row
// 256 2.78 against 3.08, 192 2.73 against 2.49; from n = 8192 192 wins
// either way). Column-major B is solved in place where a failed
// factorization may change it (no skip_failed); otherwise the solves run on
// a column-major copy (a stream-ordered allocation, 3 % of the solves' time
// at 1000 right-hand sides), copied back where the factorization succeeded
// (always without skip_failed). Row-major B so takes the solves from the
// left, faster than from the right (1000 right-hand sides: 3.31 against
// 4.62 ms).
template <class T>
bool blas_potrs(const Problem<T>& p, cudaStream_t stream) {
  if (!has_blas || p.nrhs < (p.b_rs == 1 ? 192 : 256)) return false;
  const bool in_place = p.b_rs == 1 && p.b_cs >= p.n && !p.skip_failed;
  const std::int64_t ld = large_ld(p);
  const auto solve = [&](T* b, std::int64_t ldb) {
    return large_column_major(p) ? blas_solve<true>(stream, p.a, ld, p.n, b, ldb, true, p.nrhs)
                                 : blas_solve<false>(stream, p.a, ld, p.n, b, ldb, true, p.nrhs);
  };
  if (in_place) return solve(p.b, p.b_cs);
  T* w = nullptr;  // column-major n x nrhs
  check(cudaMallocAsync(reinterpret_cast<void**>(&w),
                        sizeof(T) * std::size_t(p.n) * std::size_t(p.nrhs), stream),
        "large solve: cudaMallocAsync");
  copy_rhs(p.b, p.b_rs, p.b_cs, w, 1, p.n, p.n, p.nrhs, p.info, When::Always, stream);
  const bool ran = solve(w, p.n);
  if (ran)
    copy_rhs(static_cast<const T*>(w), 1, p.n, p.b, p.b_rs, p.b_cs, p.n, p.nrhs, p.info,
             p.skip_failed ? When::Succeeded : When::Always, stream);
  check(cudaFreeAsync(w, stream), "large solve: cudaFreeAsync");
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
    large_potrs_one(p, p.b, p.b_rs, stream);
    return;
  }
  if (large_column_major(p))
    large_detail::potrs<true>(p, stream);
  else
    large_detail::potrs<false>(p, stream);
}

}  // namespace batchol::cuda

#endif
