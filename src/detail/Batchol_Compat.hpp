// Every difference between the supported Kokkos versions (3.4.01 to 5.x) that
// the library's headers meet lives here.
#ifndef BATCHOL_COMPAT_HPP
#define BATCHOL_COMPAT_HPP

#include <Kokkos_Core.hpp>
// Kokkos 4.1 added Kokkos::Profiling::ScopedRegion, in a header of its own
// that Kokkos_Core.hpp does not include.
#if KOKKOS_VERSION >= 40100
#include <Kokkos_Profiling_ScopedRegion.hpp>
#endif

#include <cstddef>
#include <string>
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

template <class T>
KOKKOS_FORCEINLINE_FUNCTION T log(T x) {
#if KOKKOS_VERSION >= 30700
  return Kokkos::log(x);
#else
  return Kokkos::Experimental::log(x);
#endif
}

// A quiet NaN without std::numeric_limits (not usable in device code without
// relaxed constexpr): 0/0 is not a constant expression, sqrt(-1) is.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T quiet_nan() {
  return detail::sqrt(T(-1));
}

// Kokkos 4.1 made View::rank an integral_constant; 3.4 has an unsigned constant.
// Both convert to an integer, which is all we need.
template <class View>
inline constexpr int rank_v = static_cast<int>(View::rank);

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

// `policy` with Kokkos's hint that its kernels are light
// (Kokkos::Experimental::require and WorkItemProperty::HintLightWeight, 3.4
// to 4.6 at least). Every Kokkos kernel the library launches on a device
// takes it: on CUDA, Kokkos otherwise passes a functor of 512 bytes or more
// through constant memory, behind an event it waits for on the host, which a
// stream being captured into a CUDA graph cannot do; with the hint a functor
// up to 4 KB goes as the kernel's argument. Other backends ignore the hint:
// only CUDA builds spell it.
template <class Policy>
auto light_weight(const Policy& policy) {
#if defined(KOKKOS_ENABLE_CUDA)
  return Kokkos::Experimental::require(policy,
                                       Kokkos::Experimental::WorkItemProperty::HintLightWeight);
#else
  return policy;
#endif
}

// A Kokkos profiling region for the lifetime of the object (what tools such
// as the Kokkos kernel logger and space-time stack show around the kernels of
// a call). Kokkos 4.1 has ScopedRegion; 3.4 to 4.0 have pushRegion and
// popRegion only.
#if KOKKOS_VERSION >= 40100
using ScopedRegion = Kokkos::Profiling::ScopedRegion;
#else
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};
#endif

}  // namespace batchol::detail

#endif
