// posv_mixed on the Cuda path: LAPACK dsposv's algorithm (the rule in
// Batchol_MixedRule.hpp, as the Generic path's Batchol_KernelMixed.hpp
// follows it) in one kernel that reads each matrix and its right-hand sides
// once and writes only the solutions, for orders up to mixed_max_n. Systems
// of order up to 8 with one right-hand side take the kernel with a thread
// per system instead (Batchol_CudaMixedThread.cuh); this file has the kernel
// with a thread per row, which serves the rest, and the launcher.
//
// Why one kernel: a double posv reads A and writes its factor back; the
// float route needs A again for every residual. Staged in shared memory,
// A is read once from memory and never written (unless the fallback runs),
// so the whole solve moves about half of double posv's bytes, and the
// refinement's steps cost no memory traffic at all.
//
// Each matrix gets a thread per row (tpm threads: a power of two >= n up to
// 32, many matrices to a warp; then whole warps, one matrix to a block). A
// matrix's threads work on:
//   - ad: A in double, both triangles (each residual reads whole rows), and
//     the fallback's double factor in its lower triangle;
//   - af: A's lower triangle in float, then its float factor;
//   - xs, b0: the solution and the original right-hand sides, in double.
// Both factorizations are left-looking by rows (thread i computes L(i, j) at
// step j from rows i and j; one barrier per column), the substitutions keep
// each row's value in a register and pass each solved entry through shared
// memory (one barrier per row), and the residual is thread i's row of A
// times x. Every loop bound is the same for all threads of a warp (and of a
// block where a matrix spans warps), so barriers and shuffles never diverge:
// a matrix that has converged, or past the batch, computes along and stores
// nothing.
//
// The float factor and the solutions agree with the Generic path's to
// rounding, not bit for bit (other summation orders), so the steps taken may
// differ by one on a system at the edge of the stopping test.
#ifndef BATCHOL_CUDA_MIXED_CUH
#define BATCHOL_CUDA_MIXED_CUH

#include "../Batchol_MixedRule.hpp"
#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaMixedThread.cuh"

#include <cmath>
#include <type_traits>

namespace batchol::cuda {

// The largest order the kernel takes. Above it the Generic path's team
// per system is as fast: a matrix there spans four warps and fills most of
// an SM's shared memory (H200, n = 96 and 128: 13x and 4.8-7.7x double
// posv's time, against the Generic path's 4.7-6.7x at 128).
inline constexpr int mixed_max_n = 64;

namespace mixed_detail {

// Shape of one launch: `tpm` threads per matrix, `mpb` matrices per block,
// rows of `pitch` elements (odd: consecutive rows in distinct banks), and
// the per-matrix regions of shared memory, in 8-byte words (`per`, odd so
// that the matrices of a warp fall in distinct banks).
struct Shape {
  int tpm, mpb, pitch, nrhs;
  int xs, b0, rinvd, yd;         // offsets of the double arrays, in doubles
  int af, rinvf, yf, rf, flags;  // offsets of the float arrays, in floats, from `fbase`
  int fbase;                     // the float arrays' start, in doubles
  int per;                       // words per matrix
};

inline Shape shape_of(int n, int nrhs) {
  Shape s;
  s.tpm = threads_per_matrix(n);
  s.pitch = n | 1;
  s.nrhs = nrhs;
  const int nb = n * nrhs;
  s.xs = n * s.pitch;
  s.b0 = s.xs + nb;
  s.rinvd = s.b0 + nb;
  s.yd = s.rinvd + n;
  s.fbase = s.yd + n;
  s.af = 0;
  s.rinvf = n * s.pitch;
  s.yf = s.rinvf + n;
  s.rf = s.yf + n;
  s.flags = s.rf + nb;  // two ints: A or B outside float's range; then iter and info
  s.per = (s.fbase + (s.flags + 3) / 2) | 1;
  s.mpb = s.tpm <= 32 ? 128 / s.tpm : 1;  // blocks of 128 threads, or one matrix
  return s;
}

// Bytes of dynamic shared memory of a block: its matrices, then the
// cross-warp reduction's scratch (a matrix spanning several warps).
inline std::size_t shared_bytes(const Shape& s) {
  return (std::size_t(s.mpb) * s.per + 8) * sizeof(double);
}

// The threads of one matrix: a group of lanes of one warp (tpm <= 32), or
// the whole block (one matrix spanning its warps).
struct Team {
  bool wide;
  int tpm;
  double* red;  // wide: one double per warp

  __device__ void sync() const {
    if (wide)
      __syncthreads();
    else
      __syncwarp();
  }
  // Whether p holds for a thread of this warp (of the block, if wide).
  __device__ bool any(bool p) const {
    return wide ? __syncthreads_or(p) != 0 : __any_sync(0xffffffffu, p) != 0;
  }
  // The reduction of v over the matrix's threads by `op`, in every thread.
  template <class Op>
  __device__ double reduce(double v, Op op) const {
    const int width = wide ? 32 : tpm;
    for (int o = width / 2; o > 0; o /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (wide) {
      const int warps = blockDim.x / 32;
      if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
      __syncthreads();
      v = red[0];
      for (int w = 1; w < warps; ++w) v = op(v, red[w]);
      __syncthreads();  // red is reused by the next reduction
    }
    return v;
  }
};

// Quotients for the staging loops' indices: float's estimate is exact for
// x + d below 2^22 (as there: the indices of a block's shared memory), in
// five instructions where an integer division by a run-time d takes about
// twenty, which made these loops most of the kernel's instructions.
struct SmallDiv {
  int d;
  float inv;
  __device__ explicit SmallDiv(int d_) : d(d_), inv(1.0f / float(d_)) {}
  __device__ int quot(int x) const { return int((float(x) + 0.5f) * inv); }
};

// max that propagates NaN (dsposv's residual test must fail on one).
struct MaxNan {
  __device__ double operator()(double a, double b) const { return (b > a || b != b) ? b : a; }
};
// max that ignores NaN (as dsposv's scan of |x| does).
struct MaxNum {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

// Left-looking Cholesky of the lower triangle held in rows of `pitch`,
// thread i owning row i (i < n; the other threads only keep step). Step j:
// thread i > j computes L(i, j) from rows i and j and the pivot's reciprocal
// rinv[j]; then thread j + 1, whose row is now complete up to its diagonal,
// takes its pivot. A failed pivot leaves rinv[j] = 0 (a valid one is never
// 0), which every thread reads at step j: the factor stops there (columns
// before j in place, the rest as it was) and the call returns j + 1 in
// every thread of the matrix (0 when every pivot passed).
template <class S>
__device__ int factor_rows(S* a, int pitch, S* rinv, int n, int i, const Team& t) {
  const bool own = i < n;
  S* const row_i = a + (own ? i : 0) * pitch;
  S sq = S(0);  // sum of the squares of row i's factor entries so far
  auto pivot = [&]() {
    const S d = row_i[i] - sq;
    S s, rs;
    pivot_roots(d, false, s, rs);
    if (pivot_ok(d, false)) {
      row_i[i] = s;
      rinv[i] = rs;
    } else {
      rinv[i] = S(0);
    }
  };
  if (i == 0) pivot();
  t.sync();
  int info = 0;
  for (int j = 0; j < n; ++j) {
    const S r = rinv[j];
    if (info == 0 && r == S(0)) info = j + 1;
    if (info == 0 && own && i > j) {
      const S* const row_j = a + j * pitch;
      S s0 = row_i[j], s1 = S(0);
      int k = 0;
      for (; k + 1 < j; k += 2) {
        s0 -= row_i[k] * row_j[k];
        s1 -= row_i[k + 1] * row_j[k + 1];
      }
      if (k < j) s0 -= row_i[k] * row_j[k];
      const S l = (s0 + s1) * r;
      row_i[j] = l;
      sq += l * l;
      if (i == j + 1) pivot();
    }
    t.sync();
  }
  return info;
}

// L L^T x = v for one right-hand side with the factor of factor_rows: thread
// i passes its entry of v and gets its entry of x. Row by row, the thread
// of row j scales its entry by rinv[j] and passes it to the others: by a
// shuffle where the matrix lies in one warp (no barrier, no shared memory
// store), else through y (n slots, each written once per substitution,
// after the last read of the previous one's: one barrier per row).
template <class S>
__device__ S substitute(const S* l, int pitch, const S* rinv, S* y, int n, int i, S v,
                        const Team& t) {
  const bool own = i < n;
  if (!t.wide) {
    const int base = (threadIdx.x % 32) - i;  // lane of the matrix's row 0
    const S r = rinv[own ? i : 0];
    for (int j = 0; j < n; ++j) {
      const S yj = __shfl_sync(0xffffffffu, v * r, base + j);
      if (i == j) v = yj;
      if (i > j && own) v -= l[i * pitch + j] * yj;
    }
    for (int j = n - 1; j >= 0; --j) {
      const S xj = __shfl_sync(0xffffffffu, v * r, base + j);
      if (i == j) v = xj;
      if (i < j) v -= l[j * pitch + i] * xj;
    }
    return v;
  }
  for (int j = 0; j < n; ++j) {
    if (i == j) {
      v *= rinv[j];
      y[j] = v;
    }
    t.sync();
    if (i > j && own) v -= l[i * pitch + j] * y[j];
  }
  for (int j = n - 1; j >= 0; --j) {
    if (i == j) {
      v *= rinv[j];
      y[j] = v;
    }
    t.sync();
    if (i < j) v -= l[j * pitch + i] * y[j];
  }
  return v;
}

}  // namespace mixed_detail

template <class T>
__global__ void mixed_kernel(const Problem<T> p, const mixed_detail::Shape shape) {
  static_assert(std::is_same_v<T, double>, "posv_mixed solves double systems");
  using namespace mixed_detail;
  extern __shared__ __align__(16) double mixed_shared[];
  const int n = p.n, nn = n * n, nrhs = shape.nrhs, nb = n * nrhs;
  const int mpb = shape.mpb, pitch = shape.pitch;
  const std::int64_t first = std::int64_t(blockIdx.x) * mpb;
  const Team team{shape.tpm > 32, shape.tpm, mixed_shared + std::size_t(mpb) * shape.per};

  auto region = [&](int m) { return mixed_shared + std::size_t(m) * shape.per; };
  auto floats = [&](int m) { return reinterpret_cast<float*>(region(m) + shape.fbase); };
  auto flag = [&](int m) { return reinterpret_cast<int*>(floats(m) + shape.flags); };

  // Element idx of the block's matrices (m, row i, column c) and of their
  // right-hand sides (m, row i, column q), in memory order where it helps.
  const bool interleaved = p.a_bs == 1, col_major = p.a_rs == 1;
  const bool b_interleaved = p.b_bs == 1, b_col_major = p.b_rs == 1;
  const SmallDiv by_mpb(mpb), by_nn(nn), by_n(n), by_nb(nb), by_nrhs(nrhs);
  // idx -> (m, e): matrices fastest where they are interleaved, else
  // element e of `per` fastest.
  auto split = [&](int idx, bool inter, const SmallDiv& by_per, int& m, int& e) {
    const int hi = inter ? by_mpb.quot(idx) : by_per.quot(idx);
    const int lo = idx - hi * (inter ? mpb : by_per.d);
    m = inter ? lo : hi;
    e = inter ? hi : lo;
  };
  auto a_element = [&](int idx, int& m, int& i, int& c) {
    int e;
    split(idx, interleaved, by_nn, m, e);
    const int hi = by_n.quot(e), lo = e - hi * n;
    i = col_major ? lo : hi;
    c = col_major ? hi : lo;
  };
  auto b_element = [&](int idx, int& m, int& i, int& q) {
    int e;
    split(idx, b_interleaved, by_nb, m, e);
    const SmallDiv& by = b_col_major ? by_n : by_nrhs;
    const int hi = by.quot(e), lo = e - hi * by.d;
    i = b_col_major ? lo : hi;
    q = b_col_major ? hi : lo;
  };

  // Stage A (lower triangle, mirrored) and B; note values beyond float's range.
  for (int m = threadIdx.x; m < mpb; m += blockDim.x) *flag(m) = 0;
  __syncthreads();
  for (int idx = threadIdx.x; idx < mpb * nn; idx += blockDim.x) {
    int m, i, c;
    a_element(idx, m, i, c);
    if (c > i || first + m >= p.batch) continue;
    const double v = p.a[(first + m) * p.a_bs + i * p.a_rs + c * p.a_cs];
    double* const ad = region(m);
    ad[i * pitch + c] = v;
    ad[c * pitch + i] = v;
    floats(m)[shape.af + i * pitch + c] = float(v);
    if (!detail::fits_float(v)) *flag(m) = 1;
  }
  for (int idx = threadIdx.x; idx < mpb * nb; idx += blockDim.x) {
    int m, i, q;
    b_element(idx, m, i, q);
    if (first + m >= p.batch) continue;
    const double v = p.b[(first + m) * p.b_bs + i * p.b_rs + q * p.b_cs];
    region(m)[shape.b0 + i + q * n] = v;
    if (!detail::fits_float(v)) *flag(m) = 1;
  }
  __syncthreads();

  // This thread's matrix and row (rows past n keep step and store nothing).
  const int m = threadIdx.x / shape.tpm, i = threadIdx.x % shape.tpm;
  const bool own = i < n, live = first + m < p.batch;
  double* const ad = region(m);
  double* const xs = ad + shape.xs;
  const double* const b0 = ad + shape.b0;
  float* const fl = floats(m);
  float* const af = fl + shape.af;
  const double* const arow = ad + (own ? i : 0) * pitch;

  // dsposv's scale: |A|_inf sqrt(n) eps (LAPACK's eps, half of DBL_EPSILON).
  double rowsum = 0;
  for (int c = 0; c < n; ++c) rowsum += fabs(arow[c]);
  const double anrm = team.reduce(own ? rowsum : 0.0, MaxNan{});
  const double cte = anrm * (DBL_EPSILON / 2) * sqrt(double(n));

  // The float route: factor, solve, then refine while a matrix of the team
  // has not decided (code: steps taken, or a fallback code; pending below).
  constexpr int pending = 1 << 30;
  int code = *flag(m) != 0 ? detail::mixed_fallback_overflow : pending;
  const int finfo = factor_rows(af, pitch, fl + shape.rinvf, n, i, team);
  if (code == pending && finfo != 0) code = detail::mixed_fallback_factor;
  for (int q = 0; q < nrhs; ++q) {
    const float v = own ? float(b0[i + q * n]) : 0.0f;
    const float x = substitute(af, pitch, fl + shape.rinvf, fl + shape.yf, n, i, v, team);
    if (own) xs[i + q * n] = double(x);
  }
  team.sync();
  for (int it = 0; team.any(live && code == pending); ++it) {
    // r = b0 - A x, dsposv's test on every column, and the float residuals.
    bool converged = true, big = false;
    for (int q = 0; q < nrhs; ++q) {
      const double* const x = xs + q * n;
      // One chain from b0, in the Generic path's order: split sums cancel
      // against each other, and the residual must be accurate to the last
      // bits for dsposv's test.
      double r = b0[(own ? i : 0) + q * n];
      for (int c = 0; c < n; ++c) r -= arow[c] * x[c];
      const double xn = team.reduce(own ? fabs(x[own ? i : 0]) : 0.0, MaxNum{});
      const double rn = team.reduce(own ? fabs(r) : 0.0, MaxNan{});
      converged = converged && rn <= xn * cte;  // false for NaN
      big = big || (own && !detail::fits_float(r));
      if (own) fl[shape.rf + i + q * n] = float(r);
    }
    big = team.reduce(big ? 1.0 : 0.0, MaxNum{}) != 0;
    if (code == pending) {
      if (converged)
        code = it;
      else if (it == detail::mixed_max_iterations)
        code = detail::mixed_fallback_diverged;
      else if (big)
        code = detail::mixed_fallback_overflow;
    }
    // Correct x where the system has not decided.
    if (team.any(live && code == pending)) {
      team.sync();  // every thread's reads of x before the corrections
      for (int q = 0; q < nrhs; ++q) {
        const float v = own ? fl[shape.rf + i + q * n] : 0.0f;
        const float d = substitute(af, pitch, fl + shape.rinvf, fl + shape.yf, n, i, v, team);
        if (own && code == pending) xs[i + q * n] += double(d);
      }
      team.sync();
    }
  }

  // The fallback: posv in double from the staged A and B.
  const bool fallback = live && code < 0;
  int info = 0;
  if (team.any(fallback)) {
    team.sync();  // the last residual's reads of A before the factor's writes
    const int dinfo = factor_rows(ad, pitch, ad + shape.rinvd, n, i, team);
    if (fallback) info = dinfo;
    for (int q = 0; q < nrhs; ++q) {
      const double v = own ? b0[i + q * n] : 0.0;
      const double x = substitute(ad, pitch, ad + shape.rinvd, ad + shape.yd, n, i, v, team);
      if (own && fallback) xs[i + q * n] = x;
    }
  }
  if (i == 0) {
    // The flag word now carries the outcome to the stores below.
    int* const out = flag(m);
    out[0] = code;
    out[1] = info;
  }
  // A is written only where the fallback ran: most blocks skip that loop.
  const bool any_fallback = __syncthreads_or(fallback) != 0;

  // Store X where the system was solved, the double factor where the
  // fallback ran, and iter and info.
  for (int idx = threadIdx.x; idx < mpb * nb; idx += blockDim.x) {
    int mm, r, q;
    b_element(idx, mm, r, q);
    if (first + mm >= p.batch || flag(mm)[1] != 0) continue;
    p.b[(first + mm) * p.b_bs + r * p.b_rs + q * p.b_cs] = region(mm)[shape.xs + r + q * n];
  }
  for (int idx = threadIdx.x; any_fallback && idx < mpb * nn; idx += blockDim.x) {
    int mm, r, c;
    a_element(idx, mm, r, c);
    if (c > r || first + mm >= p.batch || flag(mm)[0] >= 0) continue;
    p.a[(first + mm) * p.a_bs + r * p.a_rs + c * p.a_cs] = region(mm)[r * pitch + c];
  }
  if (threadIdx.x < mpb && first + threadIdx.x < p.batch) {
    const int* const out = flag(threadIdx.x);
    p.iter[(first + threadIdx.x) * p.iter_s] = out[0];
    p.info[(first + threadIdx.x) * p.info_s] = out[1];
  }
}

// Whether the kernel takes p: orders 1 to mixed_max_n, and the staged
// matrix and right-hand sides fit a block's shared memory on this device
// (which also keeps the staging loops' indices below SmallDiv's 2^22).
inline bool mixed_serves(const Problem<double>& p) {
  if (p.n < 1 || p.n > mixed_max_n || p.nrhs < 1) return false;
  const mixed_detail::Shape s = mixed_detail::shape_of(p.n, p.nrhs);
  return mixed_detail::shared_bytes(s) <= std::size_t(current_device().smem_optin);
}

// Runs posv_mixed on every system of p (mixed_serves(p)) on `stream`: a
// thread per system where that kernel takes p, else a thread per row.
inline void launch_mixed(const Problem<double>& p, cudaStream_t stream) {
  if (p.nrhs == 1 && p.n <= mixed_thread_max_n) {
    launch_mixed_thread(p, stream);  // a thread per system
    return;
  }
  const mixed_detail::Shape s = mixed_detail::shape_of(p.n, p.nrhs);
  const std::size_t shm = mixed_detail::shared_bytes(s);
  allow_shared(&mixed_kernel<double>, shm, "mixed_kernel shared memory");
  const unsigned threads = unsigned(s.tpm * s.mpb);
  launch_grids((p.batch + s.mpb - 1) / s.mpb, "mixed_kernel launch",
               [&](unsigned nb, std::int64_t b0) {
                 Problem<double> q = p;
                 const std::int64_t skip = b0 * s.mpb;
                 q.a += skip * p.a_bs;
                 q.b += skip * p.b_bs;
                 q.info += skip * p.info_s;
                 q.iter += skip * p.iter_s;
                 q.batch = p.batch - skip;
                 mixed_kernel<double><<<nb, threads, shm, stream>>>(q, s);
               });
}

}  // namespace batchol::cuda

#endif
