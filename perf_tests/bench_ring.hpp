// The demo's timing loop, the same protocol as the harness without Google
// Benchmark: a ring of slots restored from the pristine input (untimed), whose
// total exceeds 2x the last-level cache, each used once per round in restore
// order; the kernel alone is timed between fences; the median is reported.
#ifndef BATCHOL_BENCH_RING_HPP
#define BATCHOL_BENCH_RING_HPP

#include <bench_data.hpp>

#include <algorithm>
#include <functional>
#include <vector>

namespace bench {

template <class T, class Layout>
struct Ring {
  Slot<T, Layout> pristine;
  std::vector<Slot<T, Layout>> slots;
  std::size_t next = 0;

  Ring(const Case& c, const Slot<T, Layout>& input, std::size_t evict_bytes) {
    const Exec exec;
    pristine = Slot<T, Layout>::allocate(c, "pristine");
    pristine.copy_from(exec, input);
    const std::size_t bytes = std::max<std::size_t>(pristine.bytes(), 1);
    const std::size_t count = 1 + (evict_bytes + bytes - 1) / bytes;
    for (std::size_t r = 0; r < count; ++r) slots.push_back(Slot<T, Layout>::allocate(c, "slot"));
    next = slots.size();
  }

  // A slot holding fresh input, cold in cache.
  const Slot<T, Layout>& take() {
    const Exec exec;
    if (next == slots.size()) {
      for (const auto& s : slots) s.copy_from(exec, pristine);
      exec.fence();
      next = 0;
    }
    return slots[next++];
  }

  // Median time of `reps` runs of work(slot), after one untimed warm-up run.
  double median_seconds(int reps, const std::function<void(const Slot<T, Layout>&)>& work) {
    const Exec exec;
    work(take());
    exec.fence();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      const auto& s = take();
      exec.fence();
      Kokkos::Timer timer;
      work(s);
      exec.fence();
      t.push_back(timer.seconds());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

}  // namespace bench

#endif
