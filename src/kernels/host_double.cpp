// The Host path's entry points (HostKernels in Batchol_HostPath.hpp) for double,
// compiled once for every host execution space this Kokkos has. One file per
// precision so that the two compile in parallel: with sanitizers each takes
// several minutes and everything else waits for the library.
#include <Batchol.hpp>

#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
#if defined(KOKKOS_ENABLE_SERIAL)
template struct batchol::detail::HostKernels<Kokkos::Serial, double>;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template struct batchol::detail::HostKernels<Kokkos::OpenMP, double>;
#endif
#endif
