// Host kernels for a compile-time order N (small n): Lemaitre's fully unwound
// Cholesky and substitutions on J packs at once. Every loop has a constant trip
// count and is unwound, so each element of the triangle is a named value the
// compiler keeps in a register (spilling to L1 only when the registers run
// out), and all indices are constants.
//
// Unroll-and-jam: each statement is issued for J independent packs side by
// side. One pack alone is a chain of dependent square roots, divisions and
// short FMA chains (latency-bound: the divider and FMA units idle while a
// pivot is computed); J packs interleaved keep them busy.
//
// Each element receives its updates in serial_potrf's order (column k
// ascending, same operands), so the results are the serial kernel's, lane by
// lane, up to FMA contraction. (A right-looking order, tried too, gives the
// same results but spills every trailing update to the stack once the
// triangle outgrows the registers, and measured slower from n = 8 on.)
//
// Failures without branches: `info` holds per lane the first failing column
// (0 while none). A lane whose pivot fails records it and continues with the
// pivot replaced by 1, so the other lanes are untouched by it and no
// lane-dependent branch breaks the vector code; its columns from the failing
// one on hold garbage, which the contract allows (only the columns before the
// failing one must hold the factor).
#ifndef BATCHOL_HOST_UNWOUND_HPP
#define BATCHOL_HOST_UNWOUND_HPP

#include <detail/Batchol_HostPack.hpp>

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

// Records column `col` (1-based) in the lanes whose pivot d fails for the first
// time (with Fast, subnormal pivots fail too: pivot_ok), and returns d with
// failed lanes replaced by 1.
template <class T, bool Fast>
BATCHOL_HOST_INLINE vec_t<T> checked_pivot(vec_t<T> d, int col, mask_t<T>& info) {
  const mask_t<T> ok = pivot_ok<T, Fast>(d);
  const mask_t<T> first_failure = ~ok & (info == splat_mask<T>(0));
  info |= first_failure & splat_mask<T>(col);
  return select(ok, d, splat<T>(T(1)));
}

// l: J packed triangles of tri(N, 0) vectors, one after the other; rdiag, x: J
// arrays of N vectors; info: J masks.
template <class T, int N, int J>
struct Unwound {
  using V = vec_t<T>;
  using M = mask_t<T>;
  static constexpr int order = N;  // compile-time n
  static constexpr int jam = J;
  static constexpr std::ptrdiff_t E = tri(N, 0);

  // The kernels as run_packs calls them. Small orders are inlined into the
  // caller, where the triangles can stay in registers between the transfers
  // and the kernel; larger ones are one out-of-line copy that every operation
  // of the translation unit shares (compile time: the unwound code grows as
  // N^3).
  template <bool Fast>
  BATCHOL_HOST_INLINE static void potrf(int, V* l, V* rdiag, M* info) {
    if constexpr (N <= inline_max_n)
      potrf_body<Fast>(l, rdiag, info);
    else
      potrf_out<Fast>(l, rdiag, info);
  }
  template <bool Recip>
  BATCHOL_HOST_INLINE static void forward(int, const V* l, const V* rdiag, V* x) {
    if constexpr (N <= inline_max_n)
      forward_body<Recip>(l, rdiag, x);
    else
      forward_out<Recip>(l, rdiag, x);
  }
  template <bool Recip>
  BATCHOL_HOST_INLINE static void backward(int, const V* l, const V* rdiag, V* x) {
    if constexpr (N <= inline_max_n)
      backward_body<Recip>(l, rdiag, x);
    else
      backward_out<Recip>(l, rdiag, x);
  }
  template <bool Fast>
  BATCHOL_HOST_NOINLINE static void potrf_out(V* l, V* rdiag, M* info) {
    potrf_body<Fast>(l, rdiag, info);
  }
  template <bool Recip>
  BATCHOL_HOST_NOINLINE static void forward_out(const V* l, const V* rdiag, V* x) {
    forward_body<Recip>(l, rdiag, x);
  }
  template <bool Recip>
  BATCHOL_HOST_NOINLINE static void backward_out(const V* l, const V* rdiag, V* x) {
    backward_body<Recip>(l, rdiag, x);
  }

  // In-place Cholesky, left-looking (Crout): column j is finished in one go,
  // each element accumulating its updates in a register. With Fast, the
  // pivots' inverse square roots come from rsqrt_sqrt_fast and are kept in
  // rdiag (the solves of posv then multiply instead of dividing); otherwise
  // sqrt and division are exact and rdiag is unused.
  template <bool Fast>
  BATCHOL_HOST_INLINE static void potrf_body(V* l, V* rdiag, M* info) {
    BATCHOL_HOST_UNROLL
    for (int j = 0; j < N; ++j) {
      V s[J], r[J];
      BATCHOL_HOST_UNROLL
      for (int q = 0; q < J; ++q) {
        V d = l[q * E + tri(j, j)];
        BATCHOL_HOST_UNROLL
        for (int k = 0; k < j; ++k) d -= l[q * E + tri(j, k)] * l[q * E + tri(j, k)];
        d = checked_pivot<T, Fast>(d, j + 1, info[q]);
        if constexpr (Fast) {
          rsqrt_sqrt_fast(d, r[q], s[q]);
        } else {
          s[q] = vsqrt(d);
          r[q] = splat<T>(T(1)) / s[q];
        }
        rdiag[q * N + j] = r[q];
        l[q * E + tri(j, j)] = s[q];
      }
      BATCHOL_HOST_UNROLL
      for (int i = j + 1; i < N; ++i) {
        BATCHOL_HOST_UNROLL
        for (int q = 0; q < J; ++q) {
          V v = l[q * E + tri(i, j)];
          BATCHOL_HOST_UNROLL
          for (int k = 0; k < j; ++k) v -= l[q * E + tri(i, k)] * l[q * E + tri(j, k)];
          l[q * E + tri(i, j)] = v * r[q];
        }
      }
    }
  }

  // x <- L^-1 x. With Recip, divides by multiplying with rdiag (fast_math).
  template <bool Recip>
  BATCHOL_HOST_INLINE static void forward_body(const V* l, const V* rdiag, V* x) {
    BATCHOL_HOST_UNROLL
    for (int i = 0; i < N; ++i) {
      BATCHOL_HOST_UNROLL
      for (int q = 0; q < J; ++q) {
        V v = x[q * N + i];
        BATCHOL_HOST_UNROLL
        for (int k = 0; k < i; ++k) v -= l[q * E + tri(i, k)] * x[q * N + k];
        if constexpr (Recip)
          x[q * N + i] = v * rdiag[q * N + i];
        else
          x[q * N + i] = v / l[q * E + tri(i, i)];
      }
    }
  }

  // x <- L^-T x.
  template <bool Recip>
  BATCHOL_HOST_INLINE static void backward_body(const V* l, const V* rdiag, V* x) {
    BATCHOL_HOST_UNROLL
    for (int i = N - 1; i >= 0; --i) {
      BATCHOL_HOST_UNROLL
      for (int q = 0; q < J; ++q) {
        V v = x[q * N + i];
        BATCHOL_HOST_UNROLL
        for (int k = N - 1; k > i; --k) v -= l[q * E + tri(k, i)] * x[q * N + k];
        if constexpr (Recip)
          x[q * N + i] = v * rdiag[q * N + i];
        else
          x[q * N + i] = v / l[q * E + tri(i, i)];
      }
    }
  }
};

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
