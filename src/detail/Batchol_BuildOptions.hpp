// The build's options: the Batchol_Config.hpp that CMake generates (and
// installs beside Batchol.hpp) where the build has one, else the defaults
// below, so that a plain `nvcc -Isrc` or `g++ -Isrc` compile works too. This
// is the one place that includes the generated header; every header that
// reads one of its macros includes this one first. Kokkos-free.
//
// BATCHOL_PRECOMPILED (defined or not): the Host and Cuda kernels are compiled
// once into the batchol_kernels library, and every other translation unit only
// declares them (Batchol_HostPath.hpp, cuda/Batchol_CudaRun.cuh).
// BATCHOL_DISABLE_HOST_PATH (defined or not): no Host path; host execution
// spaces take the Generic path (Batchol_HostPath.hpp).
// BATCHOL_CUBLAS (defined or not): on the Cuda path, one large matrix's
// trailing update runs as cuBLAS's dsyrk and its solves with many
// right-hand sides as dtrsm or strsm (cuda/Batchol_CudaBlas.cuh); the build
// links cuBLAS.
// BATCHOL_CUDA_MAX_N: the largest order the Cuda kernel tables instantiate
// kernels for; larger orders take the Blocked path (Batchol_Dispatch.hpp).
#ifndef BATCHOL_BUILD_OPTIONS_HPP
#define BATCHOL_BUILD_OPTIONS_HPP

#if __has_include(<Batchol_Config.hpp>)
#include <Batchol_Config.hpp>
#endif

// Every row of the Cuda tables is an unrolled kernel, so each one costs
// compile time in the translation units that compile the Cuda path.
#ifndef BATCHOL_CUDA_MAX_N
#define BATCHOL_CUDA_MAX_N 512
#endif

#endif
