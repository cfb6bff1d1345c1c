# Installs the build tree to a fresh prefix, then configures, builds and runs
# the consumer project against it, as a user of the package would.
# Run with cmake -P; expects BUILD_DIR, WORK_DIR, CONSUMER_SOURCE,
# CXX_COMPILER, BUILD_TYPE, Kokkos_DIR, Kokkos_ROOT (may be empty).
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
endfunction()

run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

set(args "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(BUILD_TYPE)
  list(APPEND args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
foreach(var Kokkos_DIR Kokkos_ROOT)
  if(${var})
    list(APPEND args "-D${var}=${${var}}")
  endif()
endforeach()
run_step("configure" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE}" -B "${build}" ${args})
run_step("build" "${CMAKE_COMMAND}" --build "${build}")
run_step("run" "${build}/consumer")
