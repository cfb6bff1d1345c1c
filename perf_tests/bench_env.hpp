// What machine and build a measurement comes from: the execution space the
// benchmarks run on, the device name, cache and memory sizes, the Kokkos
// configuration in one line, the git revision and the date.
#ifndef BATCHOL_BENCH_ENV_HPP
#define BATCHOL_BENCH_ENV_HPP

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif
#include <unistd.h>

namespace bench {

// Everything is measured on the default execution space, as a user would call it.
using Exec = Kokkos::DefaultExecutionSpace;
using MemSpace = Exec::memory_space;
inline constexpr bool exec_is_host =
    Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;

inline std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return trim(line.substr(line.find(':') + 1));
  return "unknown CPU";
}

inline int cpu_count() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

// Threads of the OpenMP loops the host competitors (LAPACK, Eigen) use.
inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

inline std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    int dev = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
      return prop.name;
  }
#endif
  return cpu_model() + " (" + std::to_string(cpu_count()) + " CPUs)";
}

// The largest cache that could hold a batch between two repetitions: L2 on a
// GPU, the last level the OS reports on the host.
inline std::size_t last_level_cache_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    int dev = 0, l2 = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) == cudaSuccess && l2 > 0)
      return static_cast<std::size_t>(l2);
    return std::size_t(60) << 20;
  }
#endif
  std::size_t best = 0;
  for (int idx = 0; idx < 8; ++idx) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/size");
    std::string s;
    if (!(in >> s)) continue;
    std::size_t v = std::strtoull(s.c_str(), nullptr, 10);
    if (s.find('K') != std::string::npos) v <<= 10;
    if (s.find('M') != std::string::npos) v <<= 20;
    best = std::max(best, v);
  }
  return best ? best : std::size_t(32) << 20;
}

// Bytes the benchmarks may allocate on the execution space's memory.
inline std::size_t available_memory_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) return free_b;
  }
#endif
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemAvailable:", 0) == 0)
      return std::strtoull(line.c_str() + 13, nullptr, 10) << 10;
  return std::size_t(4) << 30;
}

// Kokkos::print_configuration, boiled down to one line: version, enabled
// backends, architectures, default execution space and its concurrency.
inline std::string kokkos_summary() {
  std::ostringstream cfg;
  Kokkos::print_configuration(cfg, false);
  const std::string text = cfg.str();
  std::set<std::string> backends, archs;
  const std::regex enabled(
      R"(KOKKOS_ENABLE_(SERIAL|OPENMP|THREADS|CUDA|HIP|SYCL|HPX|OPENMPTARGET|OPENACC)\s*:\s*yes)");
  for (std::sregex_iterator it(text.begin(), text.end(), enabled), end; it != end; ++it)
    backends.insert((*it)[1]);
  const std::regex arch(R"(KOKKOS_ARCH_(\w+)\s*:\s*yes)");
  for (std::sregex_iterator it(text.begin(), text.end(), arch), end; it != end; ++it)
    archs.insert((*it)[1]);
  std::ostringstream out;
  out << "Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
      << KOKKOS_VERSION % 100 << "; backends:";
  for (const auto& b : backends) out << " " << b;
  if (!archs.empty()) {
    out << "; arch:";
    for (const auto& a : archs) out << " " << a;
  }
  out << "; default exec " << Exec::name() << " (concurrency " << Exec().concurrency() << ")";
  return out.str();
}

inline std::string git_revision() {
#if defined(BATCHOL_GIT_REVISION)
  return BATCHOL_GIT_REVISION;
#else
  const char* env = std::getenv("BATCHOL_GIT_REVISION");
  return env && *env ? env : "unknown";
#endif
}

inline std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
  return buf;
}

}  // namespace bench

#endif
