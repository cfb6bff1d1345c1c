// The memory roofline of the execution space, measured in the same run as the
// kernels: a large Kokkos::deep_copy, counting the bytes read plus written.
#ifndef BATCHOL_BENCH_ROOFLINE_HPP
#define BATCHOL_BENCH_ROOFLINE_HPP

#include <bench_env.hpp>

#include <algorithm>
#include <vector>

namespace bench {

struct Bandwidth {
  double bytes_per_s = 0;      // median of the repetitions
  std::size_t copy_bytes = 0;  // size of one buffer
};

// mb: size of each of the two buffers. 256 MB is far beyond any cache here
// (2 x 60 MB L2 on an H200, 2 x 105 MB L3 on the host).
inline Bandwidth measure_copy_bandwidth(std::size_t mb = 256, int repetitions = 7) {
  const std::size_t count = (mb << 20) / sizeof(double);
  Kokkos::View<double*, MemSpace> src(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bw_src"),
                                      count);
  Kokkos::View<double*, MemSpace> dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bw_dst"),
                                      count);
  const Exec exec;
  Kokkos::deep_copy(exec, src, 1.0);  // touch both so that page faults are not timed
  Kokkos::deep_copy(exec, dst, 0.0);
  exec.fence();
  std::vector<double> times;
  for (int r = 0; r < repetitions + 1; ++r) {
    Kokkos::Timer timer;
    Kokkos::deep_copy(exec, dst, src);
    exec.fence();
    if (r > 0) times.push_back(timer.seconds());  // the first one is a warm-up
  }
  std::sort(times.begin(), times.end());
  const double t = times[times.size() / 2];
  return {2.0 * count * sizeof(double) / t, count * sizeof(double)};
}

}  // namespace bench

#endif
