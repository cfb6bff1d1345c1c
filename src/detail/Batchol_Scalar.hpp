// What the kernels ask of a scalar type, so that one kernel serves real
// (float, double) and complex Hermitian (Kokkos::complex<float>,
// Kokkos::complex<double>) matrices: the real type of its pivots, the
// conjugate, the real part, |x|^2. For real types every one of them is the
// identity or the plain expression, so a real kernel compiles to what it was.
#ifndef BATCHOL_SCALAR_HPP
#define BATCHOL_SCALAR_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace batchol::detail {

template <class T>
struct ScalarTraits {
  using real = T;
  static constexpr bool complex = false;
};
template <class R>
struct ScalarTraits<Kokkos::complex<R>> {
  using real = R;
  static constexpr bool complex = true;
};

template <class T>
using real_t = typename ScalarTraits<std::remove_const_t<T>>::real;
template <class T>
inline constexpr bool is_complex_v = ScalarTraits<std::remove_const_t<T>>::complex;

// conj(x) where `on`, else x (a real x in any case).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T conj_if(bool on, T x) {
  if constexpr (is_complex_v<T>)
    return on ? Kokkos::conj(x) : x;
  else
    return x;
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_t<T> real_part(T x) {
  if constexpr (is_complex_v<T>)
    return x.real();
  else
    return x;
}

// |x|^2, real.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_t<T> abs2(T x) {
  if constexpr (is_complex_v<T>)
    return x.real() * x.real() + x.imag() * x.imag();
  else
    return x * x;
}

// Whether the imaginary part of x is finite (always for a real x).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool imag_finite(T x) {
  if constexpr (is_complex_v<T>)
    return x.imag() - x.imag() == real_t<T>(0);
  else
    return true;
}

}  // namespace batchol::detail

#endif
