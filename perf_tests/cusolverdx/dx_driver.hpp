// Loading and launching the generated cuSolverDx kernels with the CUDA driver
// API: a cubin and its manifest become a list of launchable candidates (each
// Block-execution kernel once, each Thread-execution kernel once per block
// size that fits in shared memory), all with the signature
// (T* A, T* B, int* info, long long batch). Every driver call is checked.
// Used by the benchmark's cusolverdx competitor and by batchol_dx_smoke.
#ifndef BATCHOL_DX_DRIVER_HPP
#define BATCHOL_DX_DRIVER_HPP

#include "dx_manifest.hpp"

#include <cuda.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_dx {

inline void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  throw std::runtime_error(std::string(what) + " failed: " + (name ? name : "?") + " (" +
                           (text ? text : "unknown error") + ")");
}

// A loaded cubin, in the context current when it was loaded.
class Module {
 public:
  explicit Module(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::vector<char> image{std::istreambuf_iterator<char>(in), {}};
    check(cuModuleLoadData(&m_, image.data()), ("cuModuleLoadData(" + path + ")").c_str());
  }
  ~Module() { cuModuleUnload(m_); }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  CUfunction function(const std::string& name) const {
    CUfunction f = nullptr;
    check(cuModuleGetFunction(&f, m_, name.c_str()), ("cuModuleGetFunction(" + name + ")").c_str());
    return f;
  }

 private:
  CUmodule m_ = nullptr;
};

// One way to run a problem: a kernel and its block size.
struct Candidate {
  KernelEntry kernel;
  CUfunction function = nullptr;
  unsigned threads = 0;       // per block
  unsigned per_block = 1;     // matrices per block
  unsigned dynamic_smem = 0;  // bytes per block

  std::string describe() const {
    if (kernel.is_thread())
      return std::string("Thread execution, matrix in ") +
             (kernel.exec == Exec::ThreadRegs ? "a local array" : "shared memory") + ", " +
             std::to_string(threads) + " threads per block";
    return "Block execution, BlockDim " + std::to_string(kernel.block_dim[0]) + "x" +
           std::to_string(kernel.block_dim[1]) + "x" + std::to_string(kernel.block_dim[2]) +
           ", BatchesPerBlock " + std::to_string(kernel.batches_per_block) + " (" + kernel.origin +
           ")";
  }

  // Asynchronous on `stream`; B or info may be null where the routine has none.
  void launch(CUstream stream, void* A, void* B, int* info, long long batch) const {
    if (batch <= 0) return;
    const long long blocks = (batch + per_block - 1) / per_block;
    if (blocks > 0x7fffffffLL) throw std::invalid_argument("cuSolverDx launch: batch too large");
    const unsigned bx = kernel.is_thread() ? threads : unsigned(kernel.block_dim[0]);
    const unsigned by = kernel.is_thread() ? 1 : unsigned(kernel.block_dim[1]);
    const unsigned bz = kernel.is_thread() ? 1 : unsigned(kernel.block_dim[2]);
    void* args[] = {&A, &B, &info, &batch};
    check(cuLaunchKernel(function, unsigned(blocks), 1, 1, bx, by, bz, dynamic_smem, stream, args,
                         nullptr),
          "cuLaunchKernel");
  }
};

// Thread-execution block sizes tried.
inline const std::vector<unsigned>& thread_block_sizes() {
  static const std::vector<unsigned> sizes = {32, 64, 128, 256};
  return sizes;
}

// Every candidate of a manifest whose shared memory fits the current device.
inline std::vector<Candidate> candidates(const Manifest& m, const Module& module) {
  CUdevice dev = 0;
  check(cuCtxGetDevice(&dev), "cuCtxGetDevice");
  int optin = 0;
  check(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev),
        "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
  std::vector<Candidate> out;
  for (const auto& k : m.kernels) {
    Candidate c;
    c.kernel = k;
    c.function = module.function(k.name);
    int static_smem = 0;
    check(cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, c.function),
          "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
    const long long room = optin - static_smem;
    std::vector<unsigned> sizes;
    if (k.is_thread())
      sizes = thread_block_sizes();
    else
      sizes = {unsigned(k.threads())};
    for (const unsigned t : sizes) {
      const long long smem = k.is_thread() ? k.smem * t : k.smem;
      if (smem > room) continue;
      c.threads = t;
      c.per_block = k.is_thread() ? t : unsigned(k.batches_per_block);
      c.dynamic_smem = unsigned(smem);
      out.push_back(c);
    }
    int needed = 0;
    for (const auto& x : out)
      if (x.function == c.function && int(x.dynamic_smem) > needed) needed = int(x.dynamic_smem);
    if (needed > 48 * 1024)
      check(cuFuncSetAttribute(c.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, needed),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  }
  return out;
}

// Makes the primary context of the current (or first) device current on this
// thread where none is: the driver API needs one, the runtime makes it lazily.
inline void ensure_context() {
  check(cuInit(0), "cuInit");
  CUcontext ctx = nullptr;
  check(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent");
  if (ctx) return;
  CUdevice dev = 0;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

}  // namespace batchol_dx

#endif
