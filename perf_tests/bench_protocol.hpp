// The timing protocol every series goes through, so that all of them are
// measured alike:
//  - the implementation builds its pristine input once, untimed;
//  - its result on that input is checked once (backward error, info) and a
//    wrong result skips the series with an error; that run is also the warm-up
//    (a rate reference such as cublas_gemm, which solves nothing, only warms up);
//  - each timed iteration runs the kernel alone between two fences, on fresh
//    input: the input is restored from the pristine copy (untimed) into a ring
//    of R slots whose total size is at least 2x the last-level cache, and the
//    slots are used in the order they were restored, so that by the time one
//    is used more than 2x the cache has been written since it was restored:
//    its data comes from memory, not from a cache (cold mode, the default).
//    Warm mode (one slot, restored just before the kernel) measures batches
//    left in cache instead.
//  - Google Benchmark's repetitions give the median of the per-repetition means.
#ifndef BATCHOL_BENCH_PROTOCOL_HPP
#define BATCHOL_BENCH_PROTOCOL_HPP

#include <bench_impl.hpp>
#include <bench_roofline.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bench {

struct ProtocolSettings {
  Bandwidth bandwidth;          // measured at start-up
  std::size_t evict_bytes = 0;  // bytes written between the restore and the use of a slot
  double check_budget_flops = 5e8;
  int wrong_results = 0;  // series with a wrong result or a failing call
};

inline ProtocolSettings& settings() {
  static ProtocolSettings s;
  return s;
}

// The prepared state of the series being measured. Google Benchmark calls a
// benchmark function several times (to size the iteration count, and once per
// repetition), so the state is kept between those calls and freed when the
// next series starts.
struct EntryBase {
  virtual ~EntryBase() = default;
  std::string key;
  std::string error;  // non-empty: skip the series with this message
  CheckResult check;
};

inline std::unique_ptr<EntryBase>& current_entry() {
  static std::unique_ptr<EntryBase> e;
  return e;
}

template <class T, class Layout>
struct Entry : EntryBase {
  DataSet<T, Layout> data;
  Slot<T, Layout> pristine;
  std::vector<Slot<T, Layout>> slots;
  std::size_t next = 0;

  void restore_all(const Exec& exec) {
    for (const auto& s : slots) s.copy_from(exec, pristine);
    exec.fence();
    next = 0;
  }
};

inline std::string describe(const CheckResult& r) {
  std::ostringstream out;
  out << "wrong result: " << r.over_bound << " of " << r.checked
      << " matrices checked have a backward error above " << r.bound << " (worst " << r.error
      << "), " << r.bad_info << " matrices report info != 0";
  if (r.bad_output)
    out << ", " << r.bad_output
        << " matrices report another route than the data's (posv_mixed's iter) or a shift != 0";
  return out.str();
}

template <class T, class Layout>
std::unique_ptr<Entry<T, Layout>> make_entry(const Exec& exec, const Case& c,
                                             const Impl<T, Layout>& impl, const std::string& key) {
  auto e = std::make_unique<Entry<T, Layout>>();
  e->key = key;
  e->data = DataSet<T, Layout>::make(exec, c);
  e->pristine = Slot<T, Layout>::allocate(c, "pristine", false);
  impl.prepare(exec, e->data, e->pristine);
  exec.fence();

  const std::size_t bytes = std::max<std::size_t>(e->pristine.bytes(), 1);
  const std::size_t ring = c.warm_cache ? 1 : 1 + (settings().evict_bytes + bytes - 1) / bytes;
  for (std::size_t r = 0; r < ring; ++r) {
    e->slots.push_back(Slot<T, Layout>::allocate(c, "slot"));
    impl.attach(exec, c, e->slots.back());
  }

  // The check run, which is also the warm-up.
  e->slots[0].copy_from(exec, e->pristine);
  impl.run(exec, c, e->slots[0]);
  exec.fence();
  if (impl.checked()) {
    impl.export_result(exec, c, e->slots[0]);
    exec.fence();
    e->check =
        check_result(e->data, e->slots[0], impl.factor_kind(), settings().check_budget_flops);
    if (!e->check.ok()) {
      e->error = describe(e->check);
      ++settings().wrong_results;
      std::fprintf(stderr, "batchol_bench: %s: %s\n", key.c_str(), e->error.c_str());
    }
  }
  e->next = e->slots.size();  // restore before the first timed iteration
  return e;
}

// The body of every registered benchmark.
template <class T, class Layout>
void run_series(benchmark::State& st, const Case& c, const Impl<T, Layout>& impl,
                const std::string& key) {
  const Exec exec;
  Entry<T, Layout>* e = nullptr;
  try {
    auto& cur = current_entry();
    if (!cur || cur->key != key) {
      cur.reset();  // free the previous series before allocating this one
      cur = make_entry(exec, c, impl, key);
    }
    e = static_cast<Entry<T, Layout>*>(cur.get());
  } catch (const std::invalid_argument& ex) {  // a case the implementation rejects
    current_entry().reset();
    st.SkipWithError(ex.what());
    return;
  } catch (const std::exception& ex) {  // a failing library call: count it
    current_entry().reset();
    ++settings().wrong_results;
    std::fprintf(stderr, "batchol_bench: %s: %s\n", key.c_str(), ex.what());
    st.SkipWithError(ex.what());
    return;
  }
  if (!e->error.empty()) {
    st.SkipWithError(e->error.c_str());
    return;
  }

  double total = 0;  // seconds over all iterations
  std::int64_t iterations = 0;
  try {
    for (auto _ : st) {
      if (c.warm_cache || e->next == e->slots.size()) e->restore_all(exec);
      const auto& s = e->slots[e->next++];
      Kokkos::Timer timer;
      impl.run(exec, c, s);
      exec.fence();
      const double t = timer.seconds();
      st.SetIterationTime(t);
      total += t;
      ++iterations;
    }
  } catch (const std::exception& ex) {
    ++settings().wrong_results;
    std::fprintf(stderr, "batchol_bench: %s: %s\n", key.c_str(), ex.what());
    st.SkipWithError(ex.what());
    return;
  }

  // Plain values (not Google Benchmark rates) so that they read the same on
  // the console and in the JSON; the median over repetitions is taken of them.
  if (iterations == 0 || total <= 0) return;
  if (const std::string label = impl.label(c); !label.empty()) st.SetLabel(label);
  const double per_call = total / double(iterations);
  const double batch = static_cast<double>(c.batch);
  const double bytes = batch * min_bytes_per_matrix(c, sizeof(T));
  st.counters["ns_per_matrix"] = per_call / batch * 1e9;
  st.counters["matrices_per_s"] = batch / per_call;
  st.counters["GF_per_s"] = batch * impl.flops_per_matrix(c) / per_call * 1e-9;
  st.counters["GB_per_s"] = bytes / per_call * 1e-9;
  st.counters["pct_roofline"] = 100.0 * bytes / settings().bandwidth.bytes_per_s / per_call;
  st.counters["n"] = c.n;
  st.counters["batch"] = batch;
  if (impl.checked()) st.counters["backward_error"] = e->check.error;
}

}  // namespace bench

#endif
