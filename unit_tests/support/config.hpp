// What the suite runs over: the typed-test configurations (scalar x layout x
// uplo), the implementation paths of this build, and the matrix sizes, batch
// sizes and condition numbers of each case.
#ifndef BATCHOL_TEST_CONFIG_HPP
#define BATCHOL_TEST_CONFIG_HPP

#include "views.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace batchol_test {

template <class T, class Layout, batchol::Uplo U>
struct Config {
  using scalar = T;
  using layout = Layout;
  static constexpr batchol::Uplo uplo = U;
};

using batchol::Uplo;
using Kokkos::LayoutLeft;
using Kokkos::LayoutRight;
using AllConfigs = ::testing::Types<
    Config<float, LayoutLeft, Uplo::Lower>, Config<float, LayoutLeft, Uplo::Upper>,
    Config<float, LayoutRight, Uplo::Lower>, Config<float, LayoutRight, Uplo::Upper>,
    Config<double, LayoutLeft, Uplo::Lower>, Config<double, LayoutLeft, Uplo::Upper>,
    Config<double, LayoutRight, Uplo::Lower>, Config<double, LayoutRight, Uplo::Upper>>;

inline const char* name_of(Uplo u) {
  return u == Uplo::Lower ? "Lower" : "Upper";
}
inline const char* name_of(batchol::Trans t) {
  return t == batchol::Trans::NoTranspose ? "NoTranspose"
         : t == batchol::Trans::Transpose ? "Transpose"
                                          : "ConjTranspose";
}
inline const char* name_of(batchol::Path p) {
  switch (p) {
    case batchol::Path::Auto:
      return "Auto";
    case batchol::Path::Generic:
      return "Generic";
    case batchol::Path::Host:
      return "Host";
    case batchol::Path::Cuda:
      return "Cuda";
    case batchol::Path::Blocked:
      return "Blocked";
  }
  return "?";
}

// Readable typed-test names, e.g. Factor/double_LayoutLeft_Upper.
struct ConfigNames {
  template <class C>
  static std::string GetName(int) {
    const std::string s = std::is_same_v<typename C::scalar, float> ? "float" : "double";
    const std::string l =
        std::is_same_v<typename C::layout, LayoutLeft> ? "LayoutLeft" : "LayoutRight";
    return s + "_" + l + "_" + name_of(C::uplo);
  }
};

// The operations a test runs on one path (batchol::path_available names them).
using batchol::Op;

// Whether the build provides `p` for every one of Ops on ExecSpace. The
// library's own answer (batchol::path_available): when src/ gains a path,
// every test runs it too, and Errors.UnavailablePathThrows checks that the
// paths it does not claim really throw.
template <class ExecSpace, Op... Ops>
constexpr bool path_provided(batchol::Path p) {
  return (batchol::path_available<ExecSpace, Ops>(p) && ...);
}

// Every path a test runs on the same input (all of them for every op the test
// calls); results are compared with each other as well as with LAPACK.
template <Op... Ops>
std::vector<batchol::Path> paths_under_test() {
  std::vector<batchol::Path> out;
  for (batchol::Path p : {batchol::Path::Generic, batchol::Path::Auto, batchol::Path::Host,
                          batchol::Path::Cuda, batchol::Path::Blocked})
    if (path_provided<Exec, Ops...>(p)) out.push_back(p);
  return out;
}

// Whether `p` runs the Generic kernels for every one of Ops on ExecSpace (Auto
// does when the build has no specialized path for them): the portable
// reference, whose fused and split calls agree to the bit.
template <class ExecSpace, Op... Ops>
constexpr bool runs_generic(batchol::Path p) {
  const bool specialized = ((batchol::path_available<ExecSpace, Ops>(batchol::Path::Host) ||
                             batchol::path_available<ExecSpace, Ops>(batchol::Path::Cuda)) ||
                            ...);
  return p == batchol::Path::Generic || (p == batchol::Path::Auto && !specialized);
}

inline batchol::Options options(Uplo uplo, batchol::Path path) {
  batchol::Options o;
  o.uplo = uplo;
  o.path = path;
  return o;
}

// Every n from 0 to 40, then the sizes around the block and warp boundaries,
// and one order in each row of the Cuda factorization tables (rows end at
// multiples of 8 above 32).
inline std::vector<int> all_sizes() {
  std::vector<int> s;
  for (int n = 0; n <= 40; ++n) s.push_back(n);
  for (int n : {47, 48, 52, 63, 64, 65, 76, 84, 96, 100, 108, 116, 127, 128, 200, 256})
    s.push_back(n);
  return s;
}

// Batch sizes per n, chosen so that the whole suite stays within a few
// minutes on two cores under AddressSanitizer: thousands where a matrix is
// tiny, an odd count in the middle, two or three where one matrix is already
// a lot of work. Every n also runs an empty batch.
inline std::vector<int> batches_for(int n) {
  if (n <= 4) return {0, 1, 7, 3000};
  if (n <= 16) return {0, 1, 7};
  if (n <= 40) return {0, 7};
  if (n <= 128) return {0, 3};
  return {0, 2};
}

// The smallest batch of n x n matrices of T that the Cuda path solves with
// the sm_90 solve tables' Big rows (cuda::large_solve_batch: batch^2 n^2
// sizeof(T) >= 10^4 * 256 MB).
template <class T>
int large_rows_batch(int n) {
  const double b = std::sqrt(1e4 * double(std::size_t(256) << 20) / (double(n) * n * sizeof(T)));
  return int(std::ceil(b)) + 1;  // clear of rounding at the boundary
}

// Condition numbers of the random SPD matrices; matrix b of a batch of n x n
// gets conds[(b + n) % size], so every size sees each over the suite.
template <class T>
std::vector<double> conditions() {
  if constexpr (std::is_same_v<T, float>)
    return {1.0, 1e3};
  else
    return {1.0, 1e3, 1e8};
}

template <class T>
double condition_of(int item, int n) {
  const auto c = conditions<T>();
  return c[(item + n) % c.size()];
}

// Identifies a case in failure messages.
inline std::string case_name(int n, int batch, batchol::Path path) {
  return "n = " + std::to_string(n) + ", batch = " + std::to_string(batch) +
         ", path = " + name_of(path);
}

}  // namespace batchol_test

#endif
