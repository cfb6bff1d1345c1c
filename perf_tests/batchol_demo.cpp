// batchol_demo: factor and solve batches of random SPD systems with Batchol on
// the default execution space, check every residual, and compare with the
// memory roofline measured in the same run and with LAPACK in a loop.
//
//   batchol_demo [--quick] [--batch N] [--n 4,8,16] [--reps R]
// Exits non-zero if any matrix's backward error exceeds 64 n eps.
#include <bench_check.hpp>
#include <bench_grid.hpp>
#include <bench_ring.hpp>
#include <bench_roofline.hpp>
#include <comp_batchol.hpp>
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
#include <comp_lapack.hpp>
#endif

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace bench;
using T = double;
using Layout = Kokkos::DefaultExecutionSpace::array_layout;  // what a user gets by default

struct Args {
  bool quick = false;
  std::int64_t batch = 0;  // 0: sized per n
  std::vector<int> n = {4, 8, 16, 32, 64, 100};
  int reps = 5;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const auto value = [&]() -> std::string {
      const auto eq = s.find('=');
      if (eq != std::string::npos) return s.substr(eq + 1);
      if (i + 1 < argc) return argv[++i];
      throw std::invalid_argument("batchol_demo: " + s + " needs a value");
    };
    if (s == "--quick")
      a.quick = true;
    else if (s.rfind("--batch", 0) == 0)
      a.batch = std::stoll(value());
    else if (s.rfind("--n", 0) == 0)
      a.n = split_ints(value());
    else if (s.rfind("--reps", 0) == 0)
      a.reps = std::stoi(value());
    else if (s.rfind("--kokkos", 0) == 0)
      continue;
    else
      throw std::invalid_argument("batchol_demo: unknown argument " + s);
  }
  if (a.quick) a.reps = std::min(a.reps, 3);
  return a;
}

// Batch per n: about 64 MB of matrices and 0.2 GFlop of factorization per
// call, so that one size takes well under a second on a 2-core host.
std::int64_t default_batch(int n, bool quick) {
  Case c;
  c.n = n;
  const double by_bytes = 64.0 * (1 << 20) / (double(n) * n * sizeof(T));
  const double by_flops = 2e8 / flops_per_matrix(c);
  const auto b = static_cast<std::int64_t>(std::min(by_bytes, by_flops) / (quick ? 16 : 1));
  return std::max<std::int64_t>(b, 64);
}

struct Row {
  int n = 0;
  std::int64_t batch = 0;
  double posv = 0, potrf_potrs = 0, lapack = 0;  // seconds per call
  double error = 0;                              // worst backward error, all checks
  std::int64_t bad = 0;                          // matrices failing a check
};

// Backward errors of every matrix of a posv result; counts those above the
// bound or reporting info != 0.
void check_all(const DataSet<T, Layout>& d, const Slot<T, Layout>& s, Row& row) {
  const auto r = check_result(d, s, FactorKind::CholLower, HUGE_VAL);
  row.error = std::max(row.error, r.error);
  row.bad += r.over_bound + r.bad_info;
}

Row run_size(int n, const Args& args, std::size_t evict_bytes) {
  const Exec exec;
  Case c;
  c.routine = Routine::Posv;
  c.n = n;
  c.batch = args.batch > 0 ? args.batch : default_batch(n, args.quick);
  Row row;
  row.n = n;
  row.batch = c.batch;
  const auto d = DataSet<T, Layout>::make(exec, c);
  Ring<T, Layout> ring(c, d.canonical_input(), evict_bytes);

  const BatcholImpl<T, Layout> batchol_auto(available_paths().back());
  Case potrf = c, potrs = c;
  potrf.routine = Routine::Potrf;
  potrs.routine = Routine::Potrs;

  // Check every matrix once, then time.
  const auto check = [&](const std::function<void(const Slot<T, Layout>&)>& work) {
    const auto& s = ring.take();
    work(s);
    exec.fence();
    check_all(d, s, row);
  };
  const auto posv = [&](const Slot<T, Layout>& s) { batchol_auto.run(exec, c, s); };
  const auto two_step = [&](const Slot<T, Layout>& s) {
    batchol_auto.run(exec, potrf, s);
    batchol_auto.run(exec, potrs, s);
  };
  check(posv);
  check(two_step);
  row.posv = ring.median_seconds(args.reps, posv);
  row.potrf_potrs = ring.median_seconds(args.reps, two_step);
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
  const LapackImpl<T, Layout> lapack;
  const auto lapack_posv = [&](const Slot<T, Layout>& s) { lapack.run(exec, c, s); };
  check(lapack_posv);
  row.lapack = ring.median_seconds(args.reps, lapack_posv);
#endif
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  try {
    args = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = 0;
  try {
    const auto bw = measure_copy_bandwidth(256, args.quick ? 3 : 7);
    const std::size_t evict = std::max<std::size_t>(2 * last_level_cache_bytes(),
                                                    exec_is_host ? std::size_t(64) << 20 : 0);
    std::string paths;
    for (const auto& p : available_paths())
      paths += std::string(paths.empty() ? "" : ",") + path_name(p.path);
    std::printf("Batchol demo: batched Cholesky solve (posv), double, %s\n", layout_name<Layout>());
    std::printf("device:   %s\n", device_name().c_str());
    std::printf("kokkos:   %s\n", kokkos_summary().c_str());
    std::printf(
        "roofline: copy of 2 x %zu MB at %.1f GB/s (read + write); inputs evicted "
        "(%zu MB ring) before each run\n",
        bw.copy_bytes >> 20, bw.bytes_per_s * 1e-9, evict >> 20);
    std::printf(
        "batchol paths: %s; LAPACK: %s\n\n", paths.c_str(),
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
        ("dpotrf+dpotrs per matrix, OpenMP loop, " + std::to_string(host_threads()) + " threads")
            .c_str()
#else
        "not in this build"
#endif
    );
    std::printf("%5s %9s | %12s %10s %8s %7s | %12s | %12s %8s | %9s\n", "n", "batch",
                "posv ns/mat", "Mmat/s", "GF/s", "%roof", "trf+trs ns", "LAPACK ns", "speedup",
                "max berr");
    std::int64_t bad = 0;
    for (const int n : args.n) {
      const Row r = run_size(n, args, evict);
      Case c;
      c.routine = Routine::Posv;
      c.n = n;
      const double per = r.posv / r.batch;
      const double roof = min_bytes_per_matrix(c, sizeof(T)) / bw.bytes_per_s;
      std::printf("%5d %9lld | %12.1f %10.2f %8.2f %6.1f%% | %12.1f | ", n, (long long)r.batch,
                  per * 1e9, 1e-6 / per, flops_per_matrix(c) / per * 1e-9, 100 * roof / per,
                  r.potrf_potrs / r.batch * 1e9);
      if (r.lapack > 0)
        std::printf("%12.1f %7.2fx | ", r.lapack / r.batch * 1e9, r.lapack / r.posv);
      else
        std::printf("%12s %8s | ", "-", "-");
      std::printf("%9.2e%s\n", r.error, r.bad ? "  FAILED" : "");
      std::fflush(stdout);
      bad += r.bad;
    }
    if (bad) {
      std::printf(
          "\n%lld matrices exceeded the backward error bound 64 n eps (or reported info != 0)\n",
          (long long)bad);
      rc = 1;
    } else {
      std::printf("\nall residuals below 64 n eps\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "batchol_demo: %s\n", e.what());
    rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
