# Installs the headers under include/batchol/ (public ones at its top, internal
# ones under detail/; no sources, no empty folders), the generated
# Batchol_Config.hpp beside them, the targets and the package config.
include(CMakePackageConfigHelpers)

set(_batchol_src ${PROJECT_SOURCE_DIR}/src)
file(GLOB_RECURSE _batchol_headers RELATIVE ${_batchol_src} CONFIGURE_DEPENDS
     ${_batchol_src}/*.hpp ${_batchol_src}/*.cuh ${_batchol_src}/*.inc)
foreach(_header IN LISTS _batchol_headers)
  get_filename_component(_dir ${_header} DIRECTORY)
  install(FILES ${_batchol_src}/${_header} DESTINATION ${batchol_install_includedir}/${_dir})
endforeach()
install(FILES ${batchol_config_dir}/Batchol_Config.hpp DESTINATION ${batchol_install_includedir})

set(_batchol_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Batchol)
install(TARGETS ${batchol_export_targets} EXPORT BatcholTargets)
install(EXPORT BatcholTargets NAMESPACE Batchol:: DESTINATION ${_batchol_cmake_dir})
configure_package_config_file(cmake/BatcholConfig.cmake.in
  ${PROJECT_BINARY_DIR}/BatcholConfig.cmake
  INSTALL_DESTINATION ${_batchol_cmake_dir})
# Architecture-independent only without the compiled kernels.
set(_batchol_arch "")
if(NOT Batchol_ENABLE_PRECOMPILED)
  set(_batchol_arch ARCH_INDEPENDENT)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/BatcholConfigVersion.cmake
  COMPATIBILITY SameMajorVersion ${_batchol_arch})
install(FILES
  ${PROJECT_BINARY_DIR}/BatcholConfig.cmake
  ${PROJECT_BINARY_DIR}/BatcholConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/BatcholKokkos.cmake
  DESTINATION ${_batchol_cmake_dir})
