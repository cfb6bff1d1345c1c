// Which cases the harness registers: sizes, batch sizes, precisions, layouts,
// routines. Set by --batchol_* flags or BATCHOL_BENCH_* environment variables
// (a flag wins); the flags are removed from argv before Google Benchmark sees it.
//
//   --batchol_quick                 tiny CI sweep: n 4 and 16, batch 1000, no
//                                   large batch, warm cache, 1 repetition
//   --batchol_n=2,4,8               sizes (BATCHOL_BENCH_N); default below
//   --batchol_large_n=4,8,16        sizes that also get the large batch
//                                   (BATCHOL_BENCH_LARGE_N; default: all)
//   --batchol_batch=10000           the papers' batch size (BATCHOL_BENCH_BATCH; 0: none)
//   --batchol_large_mb=256          the large batch holds at least this many MB of
//                                   matrices (BATCHOL_BENCH_LARGE_MB; 0: none). Only
//                                   registered where it is larger than --batchol_batch.
//   --batchol_max_gflop=G           cap one call's work at G GFlop by shrinking the
//                                   batch (BATCHOL_BENCH_MAX_GFLOP; default 1 on a
//                                   host execution space, none on a GPU)
//   --batchol_precisions=float,double   --batchol_layouts=left,right
//   --batchol_routines=potrf,potrs,trsv,posv   (the default; also potri,
//                                   logdet, posv_mixed, posv_mixed_fallback (its
//                                   data all falling back), potrf_shifted)
//   --batchol_nrhs=1,8              right-hand sides of potrs and posv (BATCHOL_BENCH_NRHS;
//                                   default: 1 and 8 for potrs, 1 for posv)
//   --batchol_cache=cold|warm|both  cold (default): inputs evicted from cache
//   BATCHOL_BENCH_GRID=quick        same as --batchol_quick
//
// Every batch is also capped by memory: a series holds about 6 copies of its
// batch (data, pristine input, the ring of slots), kept under half of what is free.
#ifndef BATCHOL_BENCH_GRID_HPP
#define BATCHOL_BENCH_GRID_HPP

#include <bench_env.hpp>
#include <bench_problem.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

struct Grid {
  std::vector<int> n = {2,  3,  4,  5,  6,  8,   10,  12,  16,  20,  24, 32,
                        40, 48, 64, 80, 96, 100, 128, 192, 256, 384, 512};
  std::vector<int> large_n;  // empty: every n
  std::int64_t batch = 10000;
  double large_mb = 256;
  double max_gflop = exec_is_host ? 1.0 : 0.0;
  bool do_float = true, do_double = true, do_left = true, do_right = true;
  std::vector<std::string> routines = {"potrf", "potrs", "trsv", "posv"};
  // --batchol_nrhs sets both lists.
  std::vector<int> potrs_nrhs = {1, 8};
  std::vector<int> posv_nrhs = {1};
  bool cold = true, warm = false;
  bool quick = false;

  bool has_routine(const std::string& r) const {
    for (const auto& x : routines)
      if (x == r) return true;
    return false;
  }
  bool large_for(int size) const {
    if (large_n.empty()) return true;
    for (const int x : large_n)
      if (x == size) return true;
    return false;
  }
};

inline std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

inline std::vector<int> split_ints(const std::string& s) {
  std::vector<int> out;
  for (const auto& x : split(s)) out.push_back(std::stoi(x));
  return out;
}

// Reads the --batchol_* flags (removing them from argv) and the environment.
inline Grid parse_grid(int& argc, char** argv) {
  std::map<std::string, std::string> opt;
  const std::pair<const char*, const char*> env_names[] = {
      {"n", "BATCHOL_BENCH_N"},
      {"large_n", "BATCHOL_BENCH_LARGE_N"},
      {"batch", "BATCHOL_BENCH_BATCH"},
      {"large_mb", "BATCHOL_BENCH_LARGE_MB"},
      {"max_gflop", "BATCHOL_BENCH_MAX_GFLOP"},
      {"precisions", "BATCHOL_BENCH_PRECISIONS"},
      {"layouts", "BATCHOL_BENCH_LAYOUTS"},
      {"routines", "BATCHOL_BENCH_ROUTINES"},
      {"nrhs", "BATCHOL_BENCH_NRHS"},
      {"cache", "BATCHOL_BENCH_CACHE"}};
  for (const auto& [key, env] : env_names)
    if (const char* v = std::getenv(env)) opt[key] = v;
  if (const char* g = std::getenv("BATCHOL_BENCH_GRID"); g && std::string(g) == "quick")
    opt["quick"] = "1";

  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--batchol_", 0) == 0) {
      const auto eq = a.find('=');
      const std::string key = a.substr(10, eq == std::string::npos ? std::string::npos : eq - 10);
      opt[key] = eq == std::string::npos ? "1" : a.substr(eq + 1);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;

  Grid g;
  if (opt.count("quick")) {
    g.quick = true;
    g.n = {4, 16};
    g.batch = 1000;
    g.large_mb = 0;
    g.cold = false;
    g.warm = true;
  }
  for (const auto& [key, value] : opt) {
    if (key == "quick")
      continue;
    else if (key == "n")
      g.n = split_ints(value);
    else if (key == "large_n")
      g.large_n = split_ints(value);
    else if (key == "batch")
      g.batch = std::stoll(value);
    else if (key == "large_mb")
      g.large_mb = std::stod(value);
    else if (key == "max_gflop")
      g.max_gflop = std::stod(value);
    else if (key == "precisions") {
      g.do_float = value.find("float") != std::string::npos;
      g.do_double = value.find("double") != std::string::npos;
    } else if (key == "layouts") {
      g.do_left = value.find("left") != std::string::npos;
      g.do_right = value.find("right") != std::string::npos;
    } else if (key == "routines")
      g.routines = split(value);
    else if (key == "nrhs") {
      g.potrs_nrhs = split_ints(value);
      for (const int q : g.potrs_nrhs)
        if (q < 1) throw std::invalid_argument("batchol_bench: --batchol_nrhs needs counts >= 1");
      g.posv_nrhs = g.potrs_nrhs;
    } else if (key == "cache") {
      g.cold = value == "cold" || value == "both";
      g.warm = value == "warm" || value == "both";
    } else {
      throw std::invalid_argument("batchol_bench: unknown flag --batchol_" + key);
    }
  }
  return g;
}

// Batch sizes of one (routine, n, precision): the papers' batch, and a large one
// holding >= large_mb of matrices where that is larger; each capped by work and memory.
inline std::vector<std::int64_t> batches_for(const Grid& g, const Case& shape, std::size_t scalar,
                                             std::size_t free_bytes) {
  const double matrix_bytes = double(shape.n) * shape.n * scalar;
  // potrf_shifted's L and cusolver_trsm's inverse are a second matrix.
  const bool two = shape.routine == Routine::PotrfShifted || shape.routine == Routine::Potri;
  const double per_matrix = (two ? 2 : 1) * matrix_bytes + 2.0 * shape.n * shape.nrhs * scalar;
  std::int64_t cap = static_cast<std::int64_t>(0.5 * free_bytes / (6.0 * per_matrix));
  if (g.max_gflop > 0)
    cap = std::min<std::int64_t>(
        cap, static_cast<std::int64_t>(g.max_gflop * 1e9 / std::max(1.0, flops_per_matrix(shape))));
  cap = std::max<std::int64_t>(cap, 1);
  std::vector<std::int64_t> out;
  if (g.batch > 0) out.push_back(std::min(g.batch, cap));
  if (g.large_mb > 0 && g.large_for(shape.n)) {
    const auto large = std::min<std::int64_t>(
        cap, static_cast<std::int64_t>(std::ceil(g.large_mb * 1048576.0 / matrix_bytes)));
    if (out.empty() || large > out.back()) out.push_back(large);
  }
  return out;
}

}  // namespace bench

#endif
