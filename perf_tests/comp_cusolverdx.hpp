// cuSolverDx (NVIDIA MathDx's device-side solver) on the same data: potrf,
// posv and potrs (1 and 8 right-hand sides), float and double, with the
// kernels perf_tests/cusolverdx/ generates at build time (one cubin and
// manifest per routine, precision and n), loaded with the CUDA driver API and
// launched on the execution space's stream. CUDA builds with
// Batchol_CUSOLVERDX_ROOT set, LayoutRight only: cuSolverDx stages each
// matrix contiguously, and the row-major lower triangle Batchol factors is the
// column-major upper one the kernels are generated for, so the bytes are used
// as they are.
//
// Its best configuration per case: before the series is timed, every
// generated configuration (Thread execution in shared memory or in a local
// array at 32..256 threads per block; Block execution with the BlockDim and
// BatchesPerBlock cuSolverDx suggests, twice and four times the batches,
// twice the threads, twice both)
// runs on the case's own data with the harness' protocol (fresh input pushed
// out of cache, median of 3); the fastest one whose result passes a spot
// check is the `cusolverdx` series and is named in its label.
#ifndef BATCHOL_BENCH_COMP_CUSOLVERDX_HPP
#define BATCHOL_BENCH_COMP_CUSOLVERDX_HPP

#include <bench_protocol.hpp>
#include <bench_ring.hpp>
#include <cusolverdx/dx_driver.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace cusolverdx {

// Where the generated cubins and manifests are: $BATCHOL_BENCH_CUSOLVERDX_DIR,
// else the build's folder.
inline std::string kernel_dir() {
  if (const char* env = std::getenv("BATCHOL_BENCH_CUSOLVERDX_DIR"); env && *env) return env;
#if defined(BATCHOL_BENCH_CUSOLVERDX_DIR)
  return BATCHOL_BENCH_CUSOLVERDX_DIR;
#else
  return ".";
#endif
}

template <class T>
std::string manifest_path(const Case& c) {
  const std::string routine = c.routine == Routine::Potrf   ? "potrf"
                              : c.routine == Routine::Potrs ? "potrs"
                                                            : "posv";
  return kernel_dir() + "/" +
         batchol_dx::stem(routine, c.routine == Routine::Potrf ? 1 : c.nrhs, precision_name<T>(),
                          c.n) +
         ".txt";
}

// A problem's cubin, loaded, and its candidates.
struct Loaded {
  batchol_dx::Manifest manifest;
  std::unique_ptr<batchol_dx::Module> module;
  std::vector<batchol_dx::Candidate> candidates;
};

// Loaded on first use; release() must run before Kokkos::finalize.
inline std::map<std::string, std::unique_ptr<Loaded>>& store() {
  static std::map<std::string, std::unique_ptr<Loaded>> s;
  return s;
}
inline void release() {
  store().clear();
}

inline const Loaded& load(const std::string& manifest) {
  auto& slot = store()[manifest];
  if (!slot) {
    batchol_dx::ensure_context();
    auto l = std::make_unique<Loaded>();
    l->manifest = batchol_dx::read_manifest(manifest);
    const auto cut = manifest.find_last_of('/');
    const std::string dir = cut == std::string::npos ? "." : manifest.substr(0, cut);
    l->module = std::make_unique<batchol_dx::Module>(dir + "/" + l->manifest.cubin);
    l->candidates = batchol_dx::candidates(l->manifest, *l->module);
    if (l->candidates.empty()) throw std::runtime_error(manifest + ": no kernel fits this device");
    slot = std::move(l);
  }
  return *slot;
}

inline bool file_exists(const std::string& path) {
  return std::ifstream(path).good();
}

// The configuration chosen for a case.
struct Choice {
  const batchol_dx::Candidate* candidate = nullptr;
  double seconds = 0;
  std::size_t tried = 0;
  std::string rejected;  // faster configurations that gave wrong results
};

}  // namespace cusolverdx

template <class T, class Layout>
class CusolverDxImpl final : public Impl<T, Layout> {
 public:
  std::string name() const override { return "cusolverdx"; }

  bool supports(const Case& c) const override {
    if (!std::is_same_v<Layout, Kokkos::LayoutRight> || !std::is_same_v<Exec, Kokkos::Cuda>)
      return false;
    if (!c.basic() || c.routine == Routine::Trsv || (c.routine == Routine::Posv && c.nrhs != 1))
      return false;
    return cusolverdx::file_exists(cusolverdx::manifest_path<T>(c));
  }

  // The input, then the sweep over the generated configurations.
  void prepare(const Exec& exec, const DataSet<T, Layout>& d,
               const Slot<T, Layout>& pristine) const override {
    pristine.copy_from(exec, d.canonical_input());
    exec.fence();
    const Case& c = d.c;
    const auto& loaded = cusolverdx::load(cusolverdx::manifest_path<T>(c));
    const std::size_t evict =
        settings().evict_bytes ? settings().evict_bytes : 2 * last_level_cache_bytes();
    Ring<T, Layout> ring(c, pristine, evict);
    std::vector<std::pair<double, const batchol_dx::Candidate*>> timed;
    std::string failures;
    for (const auto& cand : loaded.candidates) {
      try {
        const double t =
            ring.median_seconds(3, [&](const Slot<T, Layout>& s) { launch(exec, c, cand, s); });
        timed.emplace_back(t, &cand);
      } catch (const std::runtime_error& e) {  // a launch the device refuses
        failures += std::string(failures.empty() ? "" : "; ") + cand.kernel.name + ": " + e.what();
      }
    }
    // The fastest whose result is right (a spot check of a few matrices; the
    // harness checks the chosen one fully).
    std::stable_sort(timed.begin(), timed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    cusolverdx::Choice best;
    best.tried = timed.size();
    for (const auto& [t, cand] : timed) {
      const auto& s = ring.take();
      launch(exec, c, *cand, s);
      exec.fence();
      const CheckResult r = check_result(d, s, FactorKind::CholLower, 1e7);
      if (r.ok()) {
        best.candidate = cand;
        best.seconds = t;
        break;
      }
      best.rejected += std::string(best.rejected.empty() ? "" : ", ") + cand->kernel.name;
      std::fprintf(stderr, "batchol_bench: cuSolverDx %s (%s): %s\n", cand->kernel.name.c_str(),
                   cand->describe().c_str(), describe(r).c_str());
    }
    if (!best.candidate)
      throw std::runtime_error("cuSolverDx: no configuration ran correctly (" +
                               (failures.empty() ? "all gave wrong results" : failures) + ")");
    chosen_[key(c)] = best;
  }

  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    const auto it = chosen_.find(key(c));
    if (it == chosen_.end()) throw std::logic_error("cuSolverDx: run before prepare");
    launch(exec, c, *it->second.candidate, s);
  }

  std::string label(const Case& c) const override {
    const auto it = chosen_.find(key(c));
    if (it == chosen_.end()) return {};
    const auto& ch = it->second;
    return ch.candidate->describe() + "; best of " + std::to_string(ch.tried) +
           (ch.rejected.empty() ? "" : "; wrong results from " + ch.rejected);
  }

 private:
  static std::string key(const Case& c) {
    return c.routine_name() + "/" + std::to_string(c.n) + "/" + std::to_string(c.batch) +
           (c.warm_cache ? "/warm" : "");
  }

  static void launch(const Exec& exec, const Case& c, const batchol_dx::Candidate& cand,
                     const Slot<T, Layout>& s) {
    cand.launch(exec.cuda_stream(), s.A.data(), c.has_rhs() ? s.B.data() : nullptr, s.info.data(),
                c.batch);
  }

  mutable std::map<std::string, cusolverdx::Choice> chosen_;
};

}  // namespace bench

#endif
