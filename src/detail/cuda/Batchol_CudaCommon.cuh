// What every Cuda kernel and launcher shares: the operation vocabulary and the
// problem description of the whole library (Batchol_Op.hpp,
// Batchol_Problem.hpp), the pivot arithmetic, and the checked launch helpers.
// Plain CUDA C++ without Kokkos, so that the compile check
// (unit_tests/cuda/compile_check.cu) and the tuning tool (tools/tuning/)
// build the kernels with nvcc alone.
#ifndef BATCHOL_CUDA_COMMON_CUH
#define BATCHOL_CUDA_COMMON_CUH

#include "../Batchol_BuildOptions.hpp"
#include "../Batchol_Op.hpp"
#include "../Batchol_Problem.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace batchol::cuda {

using detail::factors;
using detail::has_rhs;
using detail::Op;
using detail::Problem;
using detail::solves_backward;
using detail::solves_forward;

// Same test as the reference kernels: rejects <= 0, NaN and +Inf. With
// Options::fast_math (`fast`, uniform over the launch) subnormal pivots are
// flushed to zero, so rejected too, as on the Host path (Kurzak et al. 7.2's
// --ftz; pivot_roots' float estimate then needs no subnormal handling).
__device__ __forceinline__ bool pivot_ok(float d, bool fast) {
  return (fast ? d >= FLT_MIN : d > 0.0f) && d <= FLT_MAX;
}
__device__ __forceinline__ bool pivot_ok(double d, bool fast) {
  return (fast ? d >= DBL_MIN : d > 0.0) && d <= DBL_MAX;
}

__device__ __forceinline__ double recip(double x) {
  return __drcp_rn(x);
}
__device__ __forceinline__ float recip(float x) {
  return __frcp_rn(x);
}

// 1/sqrt(d) for Options::fast_math: in float the bare hardware estimate with
// subnormal inputs flushed to zero (rsqrt.approx.ftz, within 2 ulp; the
// non-ftz form adds a scaling of subnormal inputs, which pivot_ok rejects
// under fast_math anyway); in double CUDA's rsqrt, refined to within 1 ulp.
__device__ __forceinline__ float rsqrt_fast(float d) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
  return r;
}
__device__ __forceinline__ double rsqrt_fast(double d) {
  return rsqrt(d);
}

// The pivot's square root s and its reciprocal rs, which scales the column.
// Exact: s = sqrt(d) and rs = 1/s, each correctly rounded. Options::fast_math
// (Kurzak et al. 7.2): rs = rsqrt_fast(d) and s = d rs; one fewer dependent
// long-latency operation per column, and each s, rs within a few ulp of the
// exact ones. Their flush of denormals to zero applies where the estimate
// sees them, at the pivot (pivot_ok); the other arithmetic keeps IEEE
// subnormals, which Hopper's FMA units handle at full speed. `fast` is the
// same for the whole launch, so the branch never diverges. On a failing pivot
// both forms give non-finite or meaningless values, which the kernels never
// store (info reports the column instead).
template <class T>
__device__ __forceinline__ void pivot_roots(T d, bool fast, T& s, T& rs) {
  if (fast) {
    rs = rsqrt_fast(d);
    s = d * rs;
  } else {
    s = sqrt(d);
    rs = recip(s);
  }
}

// A copy of x the compiler cannot see through. Kernels that hold a matrix in
// registers recompute their store addresses from it instead of keeping the
// loads' addresses alive through the whole factorization (which costs two
// registers per element).
__device__ __forceinline__ std::int64_t opaque(std::int64_t x) {
  asm volatile("" : "+l"(x));
  return x;
}

// Programmatic dependent launch (sm_90): wait until this launch's
// predecessor has finished and its writes are visible, then let the next
// launch of the chain start its blocks. Since every launch of a chain waits
// before it lets the next one start, a launch starts only after every launch
// before its predecessor has finished: work that reads only their results may
// run before chain_start(). Every block must reach chain_start() (an early
// return before it would let the next launch overtake the predecessor).
// Without the launch attribute both instructions are no-ops.
__device__ __forceinline__ void chain_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

// Threads per matrix of the kernels that give each row or column of a
// matrix a thread (potri, posv_mixed): the next power of two up to a warp,
// so that several matrices share a warp evenly, then whole warps.
inline int threads_per_matrix(int n) {
  int g = 1;
  while (g < n && g < 32) g *= 2;
  return n <= 32 ? g : 32 * ((n + 31) / 32);
}

// p as the factorization kernels take it: Problem::src set (to a for a
// factorization in place). The kernels read their input from p.src without
// a select, which in the tile kernel cost up to 50 registers (ptxas).
template <class T>
Problem<T> with_source(Problem<T> p) {
  if (p.src == nullptr) p.src = p.a;
  return p;
}

// Errors become exceptions: the Kokkos layer must never abort on a launch failure.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("batchol::cuda: ") + what + ": " + cudaGetErrorString(e));
}

// Opts `kern` in to `shm` bytes of dynamic shared memory where that is more
// than the 48 KB every kernel may take without asking.
template <class Kernel>
void allow_shared(Kernel* kern, std::size_t shm, const char* what) {
  if (shm > 48 * 1024)
    check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shm)), what);
}

// Launches kern<<<grid, block, shm, stream>>>(args...) as a programmatic
// dependent launch: its blocks may start while the previous launch on the
// stream runs, and wait in chain_start() for it to finish. A chain of small
// dependent launches (the large-matrix factorization) then pays much less
// than a full launch latency between steps.
template <class... Params, class... Args>
void launch_chained(void (*kern)(Params...), dim3 grid, unsigned block, std::size_t shm,
                    cudaStream_t stream, const char* what, Args&&... args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = shm;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  check(cudaLaunchKernelEx(&cfg, kern, std::forward<Args>(args)...), what);
}

// Groups of NR right-hand sides in nrhs (the last one may be partial): the
// solves that give each warp or lane NR columns launch one per group.
template <int NR>
__host__ __device__ inline std::int64_t rhs_groups(int nrhs) {
  return (nrhs + NR - 1) / NR;
}

// Runs launch(grid, b0) once per grid of at most 2^30 blocks (a grid's x
// extent is below 2^31), b0 the index of the grid's first block among
// `blocks`, and checks each launch.
template <class Launch>
void launch_grids(std::int64_t blocks, const char* what, const Launch& launch) {
  constexpr std::int64_t max_blocks = std::int64_t(1) << 30;
  for (std::int64_t b0 = 0; b0 < blocks; b0 += max_blocks) {
    launch(static_cast<unsigned>(std::min(blocks - b0, max_blocks)), b0);
    check(cudaGetLastError(), what);
  }
}

// What the launchers read of the current device: its compute capability
// (which table) and the shared memory a block may opt in to (the panel
// kernel's matrices per block). Looked up once per device and host thread,
// not at every launch.
struct DeviceInfo {
  int major = 0;
  int smem_optin = 0;  // bytes
};
inline const DeviceInfo& current_device() {
  thread_local int last = -1;
  thread_local DeviceInfo info;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  if (dev != last) {
    check(cudaDeviceGetAttribute(&info.major, cudaDevAttrComputeCapabilityMajor, dev),
          "cudaDeviceGetAttribute(compute capability)");
    check(cudaDeviceGetAttribute(&info.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
          "cudaDeviceGetAttribute(shared memory opt-in)");
    last = dev;
  }
  return info;
}

}  // namespace batchol::cuda

#endif
