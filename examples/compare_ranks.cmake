# Runs the MPI block-Jacobi example on 1 and on 2 ranks and checks that both
# runs pass their own checks and give the same answer: equal iteration counts
# and solution norms equal to rounding (the ranks sum dot products in another
# order, so the last bits may differ).
#
# cmake -DMPIEXEC=mpiexec -DNUMPROC_FLAG=-n -DMPI_FLAGS="a|b" -DEXE=bjacobi_cg_mpi
#       -DARGS="12|4" -P compare_ranks.cmake      ('|' separates list items)

string(REPLACE "|" ";" mpi_flags "${MPI_FLAGS}")
string(REPLACE "|" ";" args "${ARGS}")

function(run_ranks ranks out_var)
  execute_process(
    COMMAND ${MPIEXEC} ${NUMPROC_FLAG} ${ranks} ${mpi_flags} ${EXE} ${args}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("---- ${ranks} rank(s):\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${ranks}-rank run failed (exit status ${rc})")
  endif()
  string(REGEX MATCH "checksum: iterations ([0-9]+) ([0-9]+) ([0-9]+) solution_norm ([-+.0-9eE]+)"
         line "${out}")
  if(NOT line)
    message(FATAL_ERROR "the ${ranks}-rank run printed no checksum line")
  endif()
  set(${out_var} "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3}" "${CMAKE_MATCH_4}"
      PARENT_SCOPE)
endfunction()

run_ranks(1 one)
run_ranks(2 two)
list(GET one 0 iterations_1)
list(GET two 0 iterations_2)
list(GET one 1 norm_1)
list(GET two 1 norm_2)

if(NOT iterations_1 STREQUAL iterations_2)
  message(FATAL_ERROR "iteration counts differ: '${iterations_1}' on 1 rank, '${iterations_2}' on 2")
endif()
# CMake has no floating point. The norms are printed as d.dddddddddddde+XX:
# with equal exponents, their 13 mantissa digits are integers that math() can
# subtract; allow 1000 units of the last digit (1e-10 to 1e-9 relative).
foreach(k 1 2)
  if(NOT norm_${k} MATCHES "^([0-9])\\.([0-9]+)e([-+][0-9]+)$")
    message(FATAL_ERROR "cannot read the solution norm '${norm_${k}}'")
  endif()
  set(mantissa_${k} "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  set(exp_${k} "${CMAKE_MATCH_3}")
endforeach()
math(EXPR diff "${mantissa_1} - ${mantissa_2}")
if(diff LESS 0)
  math(EXPR diff "-(${diff})")
endif()
if(NOT exp_1 EQUAL exp_2 OR diff GREATER 1000)
  message(FATAL_ERROR "solution norms differ: ${norm_1} on 1 rank, ${norm_2} on 2")
endif()
message("same iterations (${iterations_1}) and solution norm (${norm_1} vs ${norm_2}) on 1 and 2 ranks")
