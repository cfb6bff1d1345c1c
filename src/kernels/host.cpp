// The Host path's entry points (HostKernels in Batchol_HostPath.hpp), compiled
// once for every host execution space this Kokkos has, in both precisions.
#include <Batchol.hpp>

#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
namespace batchol::detail {
#if defined(KOKKOS_ENABLE_SERIAL)
template struct HostKernels<Kokkos::Serial, float>;
template struct HostKernels<Kokkos::Serial, double>;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template struct HostKernels<Kokkos::OpenMP, float>;
template struct HostKernels<Kokkos::OpenMP, double>;
#endif
}  // namespace batchol::detail
#endif
