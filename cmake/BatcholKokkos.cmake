# Defines Batchol::Kokkos (and Batchol::KokkosKernels when found): the Kokkos
# dependency, the same way for the build and for find_package(Batchol).
#
# Debian/Ubuntu ship Kokkos 3.4.01 inside Trilinos 13.2 with a TriBITS config
# whose Kokkos::kokkos target points at a non-existent /usr/lib/include; its
# Kokkos_INCLUDE_DIRS / Kokkos_LIBRARIES variables are right, so we build the
# target from those. An upstream install's Kokkos::kokkos is used as it is.
# (The package config finds Kokkos itself, with find_dependency.)
if(NOT TARGET Batchol::Kokkos)
  if(NOT Kokkos_FOUND)
    find_package(Kokkos REQUIRED)
  endif()
  add_library(Batchol::Kokkos INTERFACE IMPORTED)
  set(_batchol_kokkos_target_ok FALSE)
  if(TARGET Kokkos::kokkos)
    set(_batchol_kokkos_target_ok TRUE)
    get_target_property(_batchol_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
    if(_batchol_inc)
      foreach(_dir IN LISTS _batchol_inc)
        if(NOT _dir MATCHES "^\\$<" AND NOT EXISTS "${_dir}")
          set(_batchol_kokkos_target_ok FALSE)
        endif()
      endforeach()
    endif()
  endif()
  if(_batchol_kokkos_target_ok)
    set_target_properties(Batchol::Kokkos PROPERTIES INTERFACE_LINK_LIBRARIES Kokkos::kokkos)
  else()
    set_target_properties(Batchol::Kokkos PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${Kokkos_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES "${Kokkos_LIBRARIES}")
  endif()
endif()

if(NOT TARGET Batchol::KokkosKernels AND NOT Batchol_SKIP_KOKKOSKERNELS)
  find_package(KokkosKernels QUIET)
  # A Kokkos Kernels built on another Kokkos (Debian's 3.4 next to an upstream
  # Kokkos 4 named by Kokkos_ROOT) would mix two Kokkos in one program.
  # (Trilinos' packages, Debian's included, set no KokkosKernels_VERSION: 3.x.)
  string(REGEX MATCH "^[0-9]+" _batchol_kk_major "${KokkosKernels_VERSION}")
  if(NOT _batchol_kk_major)
    set(_batchol_kk_major 3)
  endif()
  string(REGEX MATCH "^[0-9]+" _batchol_kokkos_major "${Kokkos_VERSION}")
  if(KokkosKernels_FOUND AND NOT _batchol_kk_major STREQUAL _batchol_kokkos_major)
    message(STATUS "Batchol: ignoring Kokkos Kernels ${_batchol_kk_major}.x "
                   "(${KokkosKernels_DIR}): built for another Kokkos than ${Kokkos_VERSION}")
    set(KokkosKernels_FOUND FALSE)
  endif()
  if(KokkosKernels_FOUND)
    add_library(Batchol::KokkosKernels INTERFACE IMPORTED)
    if(TARGET Kokkos::kokkoskernels AND NOT KokkosKernels_VERSION VERSION_LESS 4.0)
      set_target_properties(Batchol::KokkosKernels PROPERTIES
        INTERFACE_LINK_LIBRARIES Kokkos::kokkoskernels)
    else()
      set_target_properties(Batchol::KokkosKernels PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${KokkosKernels_INCLUDE_DIRS}"
        INTERFACE_LINK_LIBRARIES "${KokkosKernels_LIBRARIES};${KokkosKernels_TPL_LIBRARIES};Batchol::Kokkos")
    endif()
  endif()
endif()
