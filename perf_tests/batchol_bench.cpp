// batchol_bench: Batchol's benchmark harness. Every routine (potrf, potrs with
// 1 and 8 right-hand sides by default, the four trsv, fused posv), float and double,
// LayoutLeft and LayoutRight, over a grid of sizes and two batch sizes, for
// each Batchol path and each competitor the build has, on the same data and
// with the same protocol (bench_protocol.hpp). Results carry ns per matrix,
// matrices/s, GF/s and % of the memory roofline measured in the same run.
//
//   batchol_bench --benchmark_out=results.json --benchmark_out_format=json
//   batchol_bench --batchol_quick            # CI: tiny sweep, checks results
// Grid flags: see bench_grid.hpp and README.md.
#include <bench_register.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace bench;
  Grid grid;
  try {
    grid = parse_grid(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    // Google Benchmark rejects flags it does not know: drop Kokkos' own, and
    // add our defaults where the user gave none.
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i)
      if (std::string(argv[i]).rfind("--kokkos", 0) != 0) args.push_back(argv[i]);
    if (!has_flag(args, "--benchmark_repetitions"))
      args.push_back(grid.quick ? "--benchmark_repetitions=1" : "--benchmark_repetitions=3");
    if (!has_flag(args, "--benchmark_min_time"))
      args.push_back(grid.quick ? "--benchmark_min_time=0.001" : "--benchmark_min_time=0.1");
    if (!has_flag(args, "--benchmark_report_aggregates_only") &&
        !has_flag(args, "--benchmark_display_aggregates_only") && !grid.quick)
      args.push_back("--benchmark_report_aggregates_only=true");
    std::vector<char*> bargv;
    for (auto& a : args) bargv.push_back(a.data());
    int bargc = static_cast<int>(bargv.size());
    bargv.push_back(nullptr);
    benchmark::Initialize(&bargc, bargv.data());
    if (benchmark::ReportUnrecognizedArguments(bargc, bargv.data())) {
      rc = 2;
    } else {
      auto& st = settings();
      const std::size_t llc = last_level_cache_bytes();
      // Each buffer at least twice the last-level cache (some server CPUs
      // have hundreds of MB), so that the copy streams from memory.
      st.bandwidth = measure_copy_bandwidth(std::max<std::size_t>(256, 2 * (llc >> 20)));
      st.evict_bytes = std::max<std::size_t>(2 * llc, exec_is_host ? std::size_t(64) << 20 : 0);
      batchol_paths() = available_paths<double>();

      std::string paths;
      for (const auto& p : batchol_paths())
        paths += std::string(paths.empty() ? "" : ", ") + path_name(p.path);
      benchmark::AddCustomContext("batchol_device", device_name());
      benchmark::AddCustomContext("batchol_kokkos", kokkos_summary());
      benchmark::AddCustomContext("batchol_git_revision", git_revision());
      benchmark::AddCustomContext("batchol_date", today());
      benchmark::AddCustomContext("batchol_copy_bandwidth_GBps",
                                  std::to_string(st.bandwidth.bytes_per_s * 1e-9));
      benchmark::AddCustomContext("batchol_copy_buffer_MB",
                                  std::to_string(st.bandwidth.copy_bytes >> 20));
      benchmark::AddCustomContext("batchol_last_level_cache_MB", std::to_string(llc >> 20));
      benchmark::AddCustomContext("batchol_evict_MB", std::to_string(st.evict_bytes >> 20));
      benchmark::AddCustomContext("batchol_paths", paths);
      benchmark::AddCustomContext("batchol_competitors", competitors());
      benchmark::AddCustomContext("batchol_host_threads", std::to_string(host_threads()));
      benchmark::AddCustomContext("batchol_cache_mode", grid.cold && grid.warm ? "both"
                                                        : grid.cold            ? "cold"
                                                                               : "warm");
      std::printf(
          "batchol_bench on %s\n  %s\n  copy bandwidth %.1f GB/s (%zu MB buffers), evict %zu MB\n",
          device_name().c_str(), kokkos_summary().c_str(), st.bandwidth.bytes_per_s * 1e-9,
          st.bandwidth.copy_bytes >> 20, st.evict_bytes >> 20);

      const std::size_t free_bytes = available_memory_bytes();
      int count = 0;
      if (grid.do_float) count += register_precision<float>(grid, free_bytes);
      if (grid.do_double) count += register_precision<double>(grid, free_bytes);
      std::printf("  %d series registered\n", count);
      std::fflush(stdout);
      benchmark::RunSpecifiedBenchmarks();
      current_entry().reset();
#if defined(BATCHOL_BENCH_RUN_CUDA_LIBS)
      cuda::release();
#endif
#if defined(BATCHOL_BENCH_RUN_CUSOLVERDX)
      cusolverdx::release();
#endif
      if (st.wrong_results) {
        std::fprintf(stderr, "batchol_bench: %d series failed (wrong result or failing call)\n",
                     st.wrong_results);
        rc = 1;
      }
    }
    benchmark::Shutdown();
  }
  Kokkos::finalize();
  return rc;
}
