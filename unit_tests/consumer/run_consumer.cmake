# Configures, builds and runs a user's project against Batchol, as a user of
# the package would. Run with cmake -P; expects WORK_DIR, CONSUMER_SOURCE,
# CXX_COMPILER, BUILD_TYPE, Kokkos_DIR, Kokkos_ROOT (may be empty), and MODE
# (default install):
#   install       installs the build tree BUILD_DIR to a fresh prefix, checks
#                 the installed layout, builds CONSUMER_SOURCE (find_package)
#   subdirectory  builds CONSUMER_SOURCE/subdirectory, which adds the source
#                 tree BATCHOL_SOURCE_DIR with add_subdirectory
if(NOT MODE)
  set(MODE install)
endif()
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
endfunction()

set(args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(BUILD_TYPE)
  list(APPEND args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
foreach(var Kokkos_DIR Kokkos_ROOT)
  if(${var})
    list(APPEND args "-D${var}=${${var}}")
  endif()
endforeach()

if(MODE STREQUAL "install")
  run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
  # Headers in their own folder, the generated config header among them; no
  # sources and no empty folders.
  foreach(header Batchol.hpp Batchol_Config.hpp)
    if(NOT EXISTS "${prefix}/include/batchol/${header}")
      message(FATAL_ERROR "install: include/batchol/${header} is missing")
    endif()
  endforeach()
  file(GLOB_RECURSE installed LIST_DIRECTORIES true "${prefix}/include/*")
  foreach(path IN LISTS installed)
    if(path MATCHES "\\.(cpp|cu|in)$")
      message(FATAL_ERROR "install: a source file was installed: ${path}")
    endif()
    if(IS_DIRECTORY "${path}")
      file(GLOB entries "${path}/*")
      if(NOT entries)
        message(FATAL_ERROR "install: empty folder ${path}")
      endif()
    endif()
  endforeach()
  list(APPEND args "-DCMAKE_PREFIX_PATH=${prefix}")
  set(source "${CONSUMER_SOURCE}")
elseif(MODE STREQUAL "subdirectory")
  # The Host path off: its two kernel translation units would take minutes,
  # and what is tested here is how the targets reach the user's project.
  list(APPEND args "-DBATCHOL_SOURCE_DIR=${BATCHOL_SOURCE_DIR}" "-DBatchol_ENABLE_HOST_PATH=OFF")
  set(source "${CONSUMER_SOURCE}/subdirectory")
else()
  message(FATAL_ERROR "MODE must be install or subdirectory, not '${MODE}'")
endif()

run_step("configure" "${CMAKE_COMMAND}" -S "${source}" -B "${build}" ${args})
run_step("build" "${CMAKE_COMMAND}" --build "${build}")
run_step("run" "${build}/consumer")
