// The log-determinant a factorization writes when Problem::out is set
// (potrf and posv with a logdet output): out[i out_s] = 2 sum_j log L_jj, or
// a quiet NaN where info(i) != 0.
//
// No kernel makes a pass over memory for it where it can be helped. The
// group kernel (small orders) sums the pivots' roots as it factors, in a
// kernel instantiation of its own: in the plain kernel, code that picked the
// diagonal out of the register rows after the factorization cost every
// potrf, with or without the output (the rows went to local memory, or the
// registers per thread rose from 128 to 167 at n = 16 in float; the first
// made potrf 2.2-4x slower at n = 16-32 on an H200). The tile kernel takes
// the logarithms of the pivots' roots where it computes them, spread over
// the matrix's threads, into shared memory, and sums them before it ends
// (block_sum); reading back the diagonal it had just stored, behind its
// stores, cost up to 27 % of potrf. The panel kernel, whose pivots come a
// panel at a time, reads the stored diagonal (block_logdet).
// The large-matrix factorization, whose matrices span many blocks, is
// followed by logdet_kernel, which reads the stored diagonal.
//
// LogSum sums logarithms at the cost of one: a running product kept in
// [1, 2) is multiplied by each value, and the product's binary exponent goes
// to an integer (four instructions a value, and exact: scaling by a power of
// two rounds nothing). A factor that succeeded has a positive normal
// diagonal (the root of a pivot that passed pivot_ok), so every product is
// normal; anything else gives a meaningless sum, which only a failed
// factorization, whose value is NaN anyway, can see.
#ifndef BATCHOL_CUDA_LOGDET_CUH
#define BATCHOL_CUDA_LOGDET_CUH

#include "Batchol_CudaCommon.cuh"

namespace batchol::cuda {
namespace logdet_detail {

template <class T>
struct Bits;
template <>
struct Bits<double> {
  using type = long long;
  static constexpr int kMant = 52, kBias = 1023;
  __device__ static type of(double x) { return __double_as_longlong(x); }
  __device__ static double from(type b) { return __longlong_as_double(b); }
};
template <>
struct Bits<float> {
  using type = int;
  static constexpr int kMant = 23, kBias = 127;
  __device__ static type of(float x) { return __float_as_int(x); }
  __device__ static float from(type b) { return __int_as_float(b); }
};

}  // namespace logdet_detail

__device__ __forceinline__ float quiet_nan(float) {
  return __int_as_float(0x7fc00000);
}
__device__ __forceinline__ double quiet_nan(double) {
  return __longlong_as_double(0x7ff8000000000000LL);
}

template <class T>
struct LogSum {
  using B = logdet_detail::Bits<T>;
  using U = typename B::type;
  T mant = T(1);
  int expo = 0;

  __device__ void add(T x) {
    constexpr U frac = (U(1) << B::kMant) - 1;
    const U b = B::of(mant * x);
    expo += int(b >> B::kMant) - B::kBias;  // positive: no sign bit
    mant = B::from((b & frac) | (U(B::kBias) << B::kMant));
  }
  __device__ T value() const { return log(mant) + T(expo) * T(0.693147180559945309417232121458); }
};

// What a factorization writes for matrix `mat`: 2 sum, or a NaN where it failed.
template <class T>
__device__ __forceinline__ void store_logdet(const Problem<T>& p, std::int64_t mat, int info,
                                             T sum) {
  p.out[mat * p.out_s] = info == 0 ? T(2) * sum : quiet_nan(T());
}

// Sum over the nt threads (lid) of one matrix of a thread block of their
// parts, lid's being the sum of its values c = lid, lid + nt, ... < n, in a
// fixed order; the result is lid 0's. `scratch`: at least min(nt, n)
// elements of the matrix's shared memory that no thread reads since the
// caller's last barrier. Every thread of the block calls it (it has a
// barrier).
template <class T>
__device__ T block_sum(T part, int n, int lid, int nt, T* scratch) {
  if (lid < n && lid < nt) scratch[lid] = part;
  __syncthreads();
  // Four running sums (a shorter chain of dependent adds), in scalars: an
  // array indexed by i % 4 would live in local memory.
  T s0 = T(0), s1 = T(0), s2 = T(0), s3 = T(0);
  const int m = n < nt ? n : nt;
  if (lid == 0) {
    int i = 0;
    for (; i + 4 <= m; i += 4) {
      s0 += scratch[i];
      s1 += scratch[i + 1];
      s2 += scratch[i + 2];
      s3 += scratch[i + 3];
    }
    for (; i < m; ++i) s0 += scratch[i];
  }
  return (s0 + s1) + (s2 + s3);
}

// Sum of log a(c, c) over c < n of one matrix of a thread block (a: the
// matrix, dstep: the stride between diagonal entries), as block_sum, after
// the matrix's factor is stored.
template <class T>
__device__ T block_logdet(const T* a, std::int64_t dstep, int n, int lid, int nt, T* scratch) {
  __syncthreads();  // the factor is stored, scratch's last readers are done
  T part = T(0);
  for (int c = lid; c < n; c += nt) part += log(a[c * dstep]);
  return block_sum(part, n, lid, nt, scratch);
}

// One thread per matrix, from the stored factor's diagonal and info.
template <class T>
__global__ void logdet_kernel(const Problem<T> p) {
  const std::int64_t mat = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (mat >= p.batch) return;
  const T* const a = p.a + mat * p.a_bs;
  LogSum<T> s;
  for (int j = 0; j < p.n; ++j) s.add(a[j * (p.a_rs + p.a_cs)]);
  store_logdet(p, mat, p.info[mat * p.info_s], s.value());
}

template <class T>
void launch_logdet(const Problem<T>& p, cudaStream_t stream) {
  constexpr unsigned threads = 128;
  const std::int64_t blocks = (p.batch + threads - 1) / threads;
  launch_grids(blocks, "logdet_kernel launch", [&](unsigned nb, std::int64_t b0) {
    Problem<T> q = p;
    q.a += b0 * threads * p.a_bs;
    q.info += b0 * threads * p.info_s;
    q.out += b0 * threads * p.out_s;
    q.batch = std::min<std::int64_t>(p.batch - b0 * threads, std::int64_t(nb) * threads);
    logdet_kernel<<<nb, threads, 0, stream>>>(q);
  });
}

}  // namespace batchol::cuda

#endif
