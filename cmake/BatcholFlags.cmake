# Compile flags of Batchol's own targets (the compiled kernels, tests,
# benchmarks, examples), never of users' code: Kokkos' headers are included as
# system headers, and nothing here is set on an exported INTERFACE.
#   batchol_own_flags       warnings (errors with Batchol_ENABLE_WERROR),
#                           -march (the Host path's SIMD width follows it, and
#                           the scalar baselines in perf_tests/ must be
#                           compiled like the library), sanitizers
#   batchol_own_link_flags  the sanitizer runtimes
#   batchol_kernel_flags    extra flags of the compiled kernels only
#   batchol_warnings        an INTERFACE target carrying the above, linked
#                           PRIVATE by tests, benchmarks and examples only
set(batchol_own_flags $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra>)
set(batchol_own_link_flags "")
set(batchol_kernel_flags "")
if(Batchol_ENABLE_WERROR)
  list(APPEND batchol_own_flags $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Werror>)
endif()
if(Batchol_HOST_ARCH)
  list(APPEND batchol_own_flags -march=${Batchol_HOST_ARCH})
endif()
if(Batchol_ENABLE_SANITIZERS)
  # -O1 whatever the build type (it comes after the build type's -O): every
  # load and store is still instrumented, and the sanitized unwound Host
  # kernels compile about 5x faster than at -O2 (GCC 12, host_double.cpp:
  # 142 s of CPU at -O1, 151 s with -g, 758 s at -O2 -g). Without
  # variable-location tracking (GCC): tracking the unwound kernels' variables
  # exceeds GCC's limit and restarts. Reports keep their file and line.
  list(APPEND batchol_own_flags
       -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
       $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-fno-var-tracking-assignments>)
  set(batchol_own_link_flags -fsanitize=address,undefined)
endif()

add_library(batchol_warnings INTERFACE)
target_compile_options(batchol_warnings INTERFACE ${batchol_own_flags})
target_link_options(batchol_warnings INTERFACE ${batchol_own_link_flags})
