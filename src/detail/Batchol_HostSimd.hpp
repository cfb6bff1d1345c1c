// The SIMD vocabulary of the Host path: one vector holds the same element of W
// matrices (one per lane), so every operation of the algorithms below is one
// vector instruction for the whole pack.
//
// Why GCC vector extensions (`__attribute__((vector_size))`) and not
// `#pragma omp simd` or Kokkos SIMD:
// - `#pragma omp simd` needs -fopenmp / -fopenmp-simd. Debian's Kokkos 3.4 is
//   Serial-only and its users do not pass either, so the pragma would be ignored
//   (and -Wall warns about it); a probe here also found the compiler would not
//   vectorize a per-lane local array under it. Vector types are vectorized by
//   construction, at any -O level, with or without OpenMP.
// - Kokkos::Experimental::simd does not exist in Kokkos 3.4.
// GCC, Clang and the Clang-based Intel compilers all accept them, and GCC lowers
// them to narrower or scalar code when the target has no such registers, so the
// code below is correct on every target and fast where the ISA allows.
//
// The vector width follows the compile target (-march): 64 bytes with AVX-512F,
// 32 with AVX, else 16 (SSE2, NEON, or lowered). Code compiled for different
// widths lives in different inline namespaces, so translation units built with
// different -march flags never share (ODR-violating) definitions.
#ifndef BATCHOL_HOST_SIMD_HPP
#define BATCHOL_HOST_SIMD_HPP

#include <detail/Batchol_Compat.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
#define BATCHOL_HOST_SIMD_BYTES 64
#define BATCHOL_HOST_ISA isa_avx512
#elif defined(__AVX__)
#define BATCHOL_HOST_SIMD_BYTES 32
#define BATCHOL_HOST_ISA isa_avx
#elif defined(__SSE2__)
#define BATCHOL_HOST_SIMD_BYTES 16
#define BATCHOL_HOST_ISA isa_sse2
#else
#define BATCHOL_HOST_SIMD_BYTES 16
#define BATCHOL_HOST_ISA isa_generic
#endif

// The kernels are written as loops with compile-time trip counts; this asks the
// compiler to unwind them completely (Lemaitre's "loop unwinding"), so that the
// triangle's elements become named registers and every index is a constant.
// (nvcc's front end does not know the pragma and warns about it; there the host
// compiler's own complete-unrolling heuristics are left to do it.)
#if defined(__NVCC__)
#define BATCHOL_HOST_UNROLL
#else
#define BATCHOL_HOST_UNROLL _Pragma("GCC unroll 64")
#endif
#define BATCHOL_HOST_INLINE inline __attribute__((always_inline))
// The per-pack kernels and the pack transfers are kept out of line, so that a
// translation unit compiles each of them once, not once per operation and
// order that uses it (a call per pack costs nothing next to the pack's work).
#define BATCHOL_HOST_NOINLINE __attribute__((noinline))

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

inline constexpr int simd_bytes = BATCHOL_HOST_SIMD_BYTES;

template <class T>
struct Simd;

// V: W scalars, one per lane. M: W integers of the same size, the type of a
// lane-wise comparison (all ones = true), also used for the per-lane info.
template <>
struct Simd<double> {
  typedef double V __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES)));
  typedef double U __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES), aligned(8), may_alias));
  typedef std::int64_t M __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES)));
};
template <>
struct Simd<float> {
  typedef float V __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES)));
  typedef float U __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES), aligned(4), may_alias));
  typedef std::int32_t M __attribute__((vector_size(BATCHOL_HOST_SIMD_BYTES)));
};

template <class T>
using vec_t = typename Simd<T>::V;
template <class T>
using mask_t = typename Simd<T>::M;

// Calls f(std::integral_constant<int, K>) for the K in 1 .. Max equal to k, so
// that a run-time size picks a kernel compiled for it; false when k is not in
// 1 .. Max.
template <int... K, class F>
BATCHOL_HOST_INLINE bool with_constant(int k, F&& f, std::integer_sequence<int, K...>) {
  return ((k == K + 1 ? (f(std::integral_constant<int, K + 1>{}), true) : false) || ...);
}
template <int Max, class F>
BATCHOL_HOST_INLINE bool with_constant(int k, F&& f) {
  return with_constant(k, f, std::make_integer_sequence<int, Max>());
}

// W, the number of matrices in a pack.
template <class T>
inline constexpr int width_v = simd_bytes / static_cast<int>(sizeof(T));

template <class T>
BATCHOL_HOST_INLINE vec_t<T> splat(T x) {
  vec_t<T> v{};  // (initialized: GCC cannot tell the lane loop writes all)
  for (int l = 0; l < width_v<T>; ++l) v[l] = x;
  return v;
}

template <class T>
BATCHOL_HOST_INLINE mask_t<T> splat_mask(int x) {
  mask_t<T> v{};
  for (int l = 0; l < width_v<T>; ++l) v[l] = x;
  return v;
}

// 0, 1, ..., W - 1.
template <class T>
BATCHOL_HOST_INLINE mask_t<T> iota_mask() {
  mask_t<T> v{};
  for (int l = 0; l < width_v<T>; ++l) v[l] = l;
  return v;
}

// Unaligned load and store: a lane-interleaved batch starts wherever the pack
// does. Through U, the vector type with the scalar's alignment that may alias
// it: one full-width vmovupd. (memcpy says the same, but GCC expands a 64-byte
// memcpy into two 32-byte moves on targets that prefer 256-bit vectors, such
// as -march=sapphirerapids: measured 1.4x slower transfers.)
template <class T>
BATCHOL_HOST_INLINE vec_t<T> loadu(const T* p) {
  return *reinterpret_cast<const typename Simd<T>::U*>(p);
}
template <class T>
BATCHOL_HOST_INLINE void storeu(T* p, const vec_t<T>& v) {
  *reinterpret_cast<typename Simd<T>::U*>(p) = v;
}

// Aligned store that bypasses the caches (a non-temporal, write-combining
// store): a whole vector of lanes is a whole cache line with AVX-512, so the
// line is written to memory without first being read (no read-for-ownership).
// Only for data that will not be read again soon; callers end with
// stream_fence(). p must be aligned to the vector's size.
template <class T>
BATCHOL_HOST_INLINE void stream_store(T* p, const vec_t<T>& v) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, double>)
    _mm512_stream_pd(p, (__m512d)v);
  else
    _mm512_stream_ps(p, (__m512)v);
#elif defined(__AVX__)
  if constexpr (std::is_same_v<T, double>)
    _mm256_stream_pd(p, (__m256d)v);
  else
    _mm256_stream_ps(p, (__m256)v);
#elif defined(__SSE2__)
  if constexpr (std::is_same_v<T, double>)
    _mm_stream_pd(p, (__m128d)v);
  else
    _mm_stream_ps(p, (__m128)v);
#else
  *reinterpret_cast<vec_t<T>*>(p) = v;
#endif
}

// Orders the non-temporal stores before whatever follows (another thread
// reading the results after the parallel region).
BATCHOL_HOST_INLINE void stream_fence() {
#if defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__)
  _mm_sfence();
#endif
}

// m ? a : b lane by lane, written with bit operations because the vector
// ternary operator is not accepted by every compiler that has vector types.
template <class V, class M>
BATCHOL_HOST_INLINE V select(M m, V a, V b) {
  return (V)(((M)a & m) | ((M)b & ~m));
}

// The lanes whose bit is set in `bits` from p (lane e: p[e]), zero in the
// others, whose memory is not read (it may lie past the end of an array).
template <class T>
BATCHOL_HOST_INLINE vec_t<T> load_lanes(const T* p, unsigned bits) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, double>)
    return (vec_t<T>)_mm512_maskz_loadu_pd(__mmask8(bits), p);
  else
    return (vec_t<T>)_mm512_maskz_loadu_ps(__mmask16(bits), p);
#else
  vec_t<T> v{};
  for (int e = 0; e < width_v<T>; ++e)
    if (bits >> e & 1u) v[e] = p[e];
  return v;
#endif
}

// Stores the lanes of v whose bit is set in `bits` (lane e: bit e); the other
// lanes' memory is neither read nor written (it may lie past the end of an
// array, or belong to another thread's systems). With AVX-512 a masked store,
// which needs no vector mask (measured: the load, the blend and building the
// mask lane by lane were most of the LayoutRight transfers' time); with AVX a
// masked move (vmaskmov); elsewhere lane by lane.
template <class T>
BATCHOL_HOST_INLINE void store_lanes(T* p, const vec_t<T>& v, unsigned bits) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, double>)
    _mm512_mask_storeu_pd(p, __mmask8(bits), (__m512d)v);
  else
    _mm512_mask_storeu_ps(p, __mmask16(bits), (__m512)v);
#elif defined(__AVX__)
  const mask_t<T> m = -((splat_mask<T>(int(bits)) >> iota_mask<T>()) & splat_mask<T>(1));
  if constexpr (std::is_same_v<T, double>)
    _mm256_maskstore_pd(p, (__m256i)m, (__m256d)v);
  else
    _mm256_maskstore_ps(p, (__m256i)m, (__m256)v);
#else
  for (int e = 0; e < width_v<T>; ++e)
    if (bits >> e & 1u) p[e] = v[e];
#endif
}

// The pivot test of every path (pivot_ok): rejects <= 0, NaN and +Inf. With
// Fast (Options::fast_math) subnormal pivots are flushed to zero, i.e.
// rejected too: the hardware's reciprocal square root estimates treat them
// as zero (AVX-512 rsqrt14 in float, SSE/AVX rsqrt), and Kurzak et al.'s
// fast math flushes denormals (--ftz).
template <class T, bool Fast = false>
BATCHOL_HOST_INLINE mask_t<T> pivot_ok(vec_t<T> d) {
  const T lo = Fast ? Limits<T>::min_normal : T(0);
  const mask_t<T> above = Fast ? (mask_t<T>)(d >= splat<T>(lo)) : (mask_t<T>)(d > splat<T>(lo));
  return (mask_t<T>)(above & (d <= splat<T>(Limits<T>::max)));
}

#if defined(__AVX512F__)
// All-lanes masks for the zero-masking AVX-512 intrinsics. The unmasked ones
// start from _mm512_undefined_*(), which GCC 12 reports as -Wmaybe-uninitialized;
// with every lane selected they compile to the same instruction.
inline constexpr __mmask8 all8 = 0xff;
inline constexpr __mmask16 all16 = 0xffff;
#endif

// Correctly rounded square root (the divider unit, like the serial kernel's).
BATCHOL_HOST_INLINE Simd<double>::V vsqrt(Simd<double>::V x) {
#if defined(__AVX512F__)
  return (Simd<double>::V)_mm512_maskz_sqrt_pd(all8, (__m512d)x);
#elif defined(__AVX__)
  return (Simd<double>::V)_mm256_sqrt_pd((__m256d)x);
#elif defined(__SSE2__)
  return (Simd<double>::V)_mm_sqrt_pd((__m128d)x);
#else
  for (int l = 0; l < width_v<double>; ++l) x[l] = std::sqrt(x[l]);
  return x;
#endif
}
BATCHOL_HOST_INLINE Simd<float>::V vsqrt(Simd<float>::V x) {
#if defined(__AVX512F__)
  return (Simd<float>::V)_mm512_maskz_sqrt_ps(all16, (__m512)x);
#elif defined(__AVX__)
  return (Simd<float>::V)_mm256_sqrt_ps((__m256)x);
#elif defined(__SSE2__)
  return (Simd<float>::V)_mm_sqrt_ps((__m128)x);
#else
  for (int l = 0; l < width_v<float>; ++l) x[l] = std::sqrt(x[l]);
  return x;
#endif
}

// Options::fast_math's pivot step: r ~ 1/sqrt(x) and s ~ sqrt(x) for a
// positive finite x, without the divider (Lemaitre's "fast square root
// reciprocal"; then every division by the pivot becomes a multiplication).
// A hardware estimate y0 of 1/sqrt(x) is refined by Goldschmidt's iteration,
// which improves s = x y and h = y / 2 together:
//   e = 1/2 - s h,  s += s e,  h += h e
// (the relative error e_k of y squares each step, e_{k+1} ~ 1.5 e_k^2, and two
// dependent FMAs per step instead of Newton's three). Accuracy, relative:
// - AVX-512F: rsqrt14 (|e0| < 2^-14) + 2 steps in double, 1 in float: within
//   ~4 ulp of the exact values (the iteration is not self-correcting, so the
//   last step's roundings stay);
// - AVX/SSE, float: rsqrt (|e0| < 1.5 * 2^-12) + 1 step: within ~4 ulp;
// - double without AVX-512: 1 / sqrt(x) and sqrt(x), correctly rounded.
// The factor then differs from the exact one by a few ulp per entry and its
// backward error stays of order n epsilon (the unit test asserts the bound).
template <class V>
BATCHOL_HOST_INLINE void goldschmidt(V x, V y0, int steps, V& r, V& s) {
  using T = decltype(x[0] + 0);
  const V half = splat<T>(T(0.5));
  V g = x * y0, h = half * y0;
  for (int k = 0; k < steps; ++k) {
    const V e = half - g * h;
    g = g + g * e;
    h = h + h * e;
  }
  r = h + h;
  s = g;
}

BATCHOL_HOST_INLINE void rsqrt_sqrt_fast(Simd<double>::V x, Simd<double>::V& r,
                                         Simd<double>::V& s) {
#if defined(__AVX512F__)
  goldschmidt(x, (Simd<double>::V)_mm512_maskz_rsqrt14_pd(all8, (__m512d)x), 2, r, s);
#else
  s = vsqrt(x);
  r = splat<double>(1.0) / s;
#endif
}
BATCHOL_HOST_INLINE void rsqrt_sqrt_fast(Simd<float>::V x, Simd<float>::V& r, Simd<float>::V& s) {
#if defined(__AVX512F__)
  goldschmidt(x, (Simd<float>::V)_mm512_maskz_rsqrt14_ps(all16, (__m512)x), 1, r, s);
#elif defined(__AVX__)
  goldschmidt(x, (Simd<float>::V)_mm256_rsqrt_ps((__m256)x), 1, r, s);
#elif defined(__SSE2__)
  goldschmidt(x, (Simd<float>::V)_mm_rsqrt_ps((__m128)x), 1, r, s);
#else
  s = vsqrt(x);
  r = splat<float>(1.0f) / s;
#endif
}

// Block transpose of W vectors: after it, r[a][b] holds what r[b][a] held. It
// turns W lanes' contiguous memory (one matrix each) into W elements of the
// pack in W log2(W) two-source shuffles, instead of W^2 scalar moves.
// Stage H swaps the off-diagonal H x H blocks between rows i and i + H: lane p
// of the new row i takes row i's lane p (p & H clear) or row i + H's lane
// p - H; the new row i + H takes row i's lane p + H or row i + H's lane p.
template <int H, bool High>
constexpr int swap_index(int p, int w) {
  return High ? ((p & H) ? w + p : p + H) : ((p & H) ? w + p - H : p);
}

#if defined(__clang__)
template <int H, bool High, class V, std::size_t... P>
BATCHOL_HOST_INLINE V swap_blocks_impl(V a, V b, std::index_sequence<P...>) {
  return __builtin_shufflevector(a, b, swap_index<H, High>(int(P), int(sizeof...(P)))...);
}
#endif

template <int H, bool High, class T>
BATCHOL_HOST_INLINE vec_t<T> swap_blocks(vec_t<T> a, vec_t<T> b) {
  constexpr int w = width_v<T>;
#if defined(__clang__)
  return swap_blocks_impl<H, High>(a, b, std::make_index_sequence<w>{});
#else
  mask_t<T> m;
  for (int p = 0; p < w; ++p) m[p] = swap_index<H, High>(p, w);
  return __builtin_shuffle(a, b, m);
#endif
}

template <class T, int H = width_v<T> / 2>
BATCHOL_HOST_INLINE void transpose(vec_t<T>* r) {
  constexpr int w = width_v<T>;
  for (int i = 0; i < w; ++i)
    if ((i & H) == 0) {
      const vec_t<T> a = r[i], b = r[i + H];
      r[i] = swap_blocks<H, false, T>(a, b);
      r[i + H] = swap_blocks<H, true, T>(a, b);
    }
  if constexpr (H > 1) transpose<T, H / 2>(r);
}

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
