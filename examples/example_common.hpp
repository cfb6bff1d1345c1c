// Small helpers shared by the examples: command-line sizes, a reproducible
// random number generator and a pass/fail tally. Host code only.
#ifndef BATCHOL_EXAMPLE_COMMON_HPP
#define BATCHOL_EXAMPLE_COMMON_HPP

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace example {

// The index-th positional argument as an int, or `fallback` when absent.
// Kokkos' own --kokkos-* flags are skipped, whether or not the Kokkos version
// removed them from argv already.
inline int int_arg(int argc, char** argv, int index, int fallback) {
  int seen = 0;
  for (int a = 1; a < argc; ++a) {
    if (std::strncmp(argv[a], "--kokkos", 8) == 0) continue;
    if (seen++ == index) return std::atoi(argv[a]);
  }
  return fallback;
}

// splitmix64: tiny, fast and identical on every platform, so every run of an
// example (and every MPI rank) sees the same data. std::normal_distribution's
// output is implementation-defined, which would make the printed numbers
// differ between standard libraries.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  // Standard normal (Box-Muller; one of the pair is thrown away for simplicity).
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t state_;
};

// Collects the example's self-checks and turns them into the exit status.
class Checks {
 public:
  void require(bool ok, const std::string& what) {
    if (print_) std::printf("  check %-58s %s\n", what.c_str(), ok ? "ok" : "FAILED");
    if (!ok) ++failed_;
  }
  // Only one MPI rank should print; the others still count their failures.
  void set_print(bool print) { print_ = print; }
  int failed() const { return failed_; }
  int exit_code() const {
    if (print_) std::printf("%s\n", failed_ == 0 ? "PASSED" : "FAILED");
    return failed_ == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
  }

 private:
  int failed_ = 0;
  bool print_ = true;
};

}  // namespace example

#endif
