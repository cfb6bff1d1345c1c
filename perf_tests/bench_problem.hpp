// What one benchmark measures (routine, size, batch, right-hand sides) and the
// cost model every result is scored with: the flop count of the textbook
// algorithm and the fewest bytes any implementation has to move.
#ifndef BATCHOL_BENCH_PROBLEM_HPP
#define BATCHOL_BENCH_PROBLEM_HPP

#include <Batchol.hpp>

#include <cstdint>
#include <string>

namespace bench {

enum class Routine { Potrf, Potrs, Trsv, Posv };

struct Case {
  Routine routine = Routine::Potrf;
  int n = 0;
  std::int64_t batch = 0;
  int nrhs = 1;                                        // potrs / posv (trsv: 1)
  batchol::Uplo uplo = batchol::Uplo::Lower;           // trsv only
  batchol::Trans trans = batchol::Trans::NoTranspose;  // trsv only
  bool warm_cache = false;                             // true: measure with the batch left in cache

  bool has_rhs() const { return routine != Routine::Potrf; }
  // potrs and trsv start from a factor, potrf and posv from the SPD matrix.
  bool starts_from_factor() const { return routine == Routine::Potrs || routine == Routine::Trsv; }

  std::string routine_name() const {
    switch (routine) {
      case Routine::Potrf:
        return "potrf";
      case Routine::Potrs:
        return "potrs_nrhs" + std::to_string(nrhs);
      case Routine::Posv:  // one right-hand side keeps the plain name
        return nrhs == 1 ? "posv" : "posv_nrhs" + std::to_string(nrhs);
      case Routine::Trsv:
        return std::string("trsv_") + (uplo == batchol::Uplo::Lower ? "lower" : "upper") +
               (trans == batchol::Trans::NoTranspose ? "_notrans" : "_trans");
    }
    return "?";
  }
};

// Flops per matrix: POTRF n^3/3 + n^2/2 + n/6; a triangular solve n^2 per
// right-hand side (LAPACK's operation counts); POTRS two of them.
inline double flops_per_matrix(const Case& c) {
  const double n = c.n;
  const double potrf = n * n * n / 3 + n * n / 2 + n / 6;
  const double trsv = n * n * c.nrhs;
  switch (c.routine) {
    case Routine::Potrf:
      return potrf;
    case Routine::Potrs:
      return 2 * trsv;
    case Routine::Trsv:
      return trsv;
    case Routine::Posv:
      return potrf + 2 * trsv;
  }
  return 0;
}

// Fewest bytes per matrix: the triangle read once (and written once when it
// is factored), the right-hand sides read once and written once.
inline double min_bytes_per_matrix(const Case& c, std::size_t scalar_bytes) {
  const double s = static_cast<double>(scalar_bytes);
  const double n = c.n;
  const double triangle = n * (n + 1) / 2 * s;
  const double rhs = c.has_rhs() ? 2 * n * c.nrhs * s : 0;
  switch (c.routine) {
    case Routine::Potrf:
      return 2 * triangle;
    case Routine::Posv:
      return 2 * triangle + rhs;
    case Routine::Potrs:
    case Routine::Trsv:
      return triangle + rhs;
  }
  return 0;
}

template <class T>
const char* precision_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

template <class Layout>
const char* layout_name() {
  return std::is_same_v<Layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight";
}

}  // namespace bench

#endif
