// The Host path's entries (host::run in detail/Batchol_HostPath.hpp) for double,
// compiled once for every host execution space this Kokkos has. One file per
// precision so that the two compile in parallel: with sanitizers each takes
// several minutes and everything else waits for the library.
#include <Batchol.hpp>

#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
#if defined(KOKKOS_ENABLE_SERIAL)
BATCHOL_HOST_ENTRIES(, Kokkos::Serial, double)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
BATCHOL_HOST_ENTRIES(, Kokkos::OpenMP, double)
#endif
#endif
