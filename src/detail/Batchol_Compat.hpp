// Every difference between the supported Kokkos versions (3.4.01 .. 4.x) lives here.
#ifndef BATCHOL_COMPAT_HPP
#define BATCHOL_COMPAT_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

namespace batchol::detail {

// Kokkos 3.4 (Debian/Ubuntu's Trilinos 13.2) has the math functions only in
// Kokkos::Experimental; 3.7 moved them to Kokkos and 4.x dropped the old names.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T sqrt(T x) {
#if KOKKOS_VERSION >= 30700
  return Kokkos::sqrt(x);
#else
  return Kokkos::Experimental::sqrt(x);
#endif
}

// Kokkos 4.1 made View::rank an integral_constant; 3.4 has an unsigned constant.
// Both convert to an integer, which is all we need.
template <class View>
inline constexpr int rank_v = static_cast<int>(View::rank);

// Kokkos 3.4 has no Kokkos::Cuda unless built with it; name the check once.
#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr bool has_cuda = true;
#else
inline constexpr bool has_cuda = false;
#endif

// Kokkos 4.x provides Kokkos::Experimental::finite_max_v; 3.4 does not, and
// std::numeric_limits is not usable in device code without relaxed constexpr.
template <class T>
struct Limits;
template <>
struct Limits<float> {
  static constexpr float max = 3.40282346638528859811704183484516925e+38F;
  static constexpr float min_normal = 1.17549435082228750796873653722224568e-38F;
};
template <>
struct Limits<double> {
  static constexpr double max = 1.79769313486231570814527423731704357e+308;
  static constexpr double min_normal = 2.22507385850720138309023271733240406e-308;
};

}  // namespace batchol::detail

#endif
