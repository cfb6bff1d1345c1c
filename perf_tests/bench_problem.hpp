// What one benchmark measures (routine, size, batch, right-hand sides) and the
// cost model every result is scored with: the flop count of the textbook
// algorithm and the fewest bytes any implementation has to move.
#ifndef BATCHOL_BENCH_PROBLEM_HPP
#define BATCHOL_BENCH_PROBLEM_HPP

#include <Batchol.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bench {

// The last four are measured only by the implementations whose supports()
// names them (see Case::basic()).
enum class Routine { Potrf, Potrs, Trsv, Posv, Potri, Logdet, PosvMixed, PotrfShifted };
inline constexpr std::size_t kRoutines = std::size_t(Routine::PotrfShifted) + 1;

struct Case {
  Routine routine = Routine::Potrf;
  int n = 0;
  std::int64_t batch = 0;
  int nrhs = 1;                                        // potrs / posv (trsv, posv_mixed: 1)
  batchol::Uplo uplo = batchol::Uplo::Lower;           // trsv only
  batchol::Trans trans = batchol::Trans::NoTranspose;  // trsv only
  bool warm_cache = false;                             // true: measure with the batch left in cache
  // posv_mixed only: every matrix SPD in double but singular once rounded to
  // float, so that every system falls back to the double factorization.
  bool float_fails = false;

  bool has_rhs() const {
    return routine == Routine::Potrs || routine == Routine::Trsv || routine == Routine::Posv ||
           routine == Routine::PosvMixed;
  }
  // potrs and trsv start from a factor, every other routine from the SPD matrix.
  bool starts_from_factor() const { return routine == Routine::Potrs || routine == Routine::Trsv; }
  // The routines every implementation class was written for. The others
  // (potri, logdet, posv_mixed, potrf_shifted) leave results where these do
  // not (the inverse, Slot::out, Slot::iter, Slot::L), so a class measures
  // them only where it says so.
  bool basic() const {
    return routine == Routine::Potrf || routine == Routine::Potrs || routine == Routine::Trsv ||
           routine == Routine::Posv;
  }

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
      case Routine::Potri:
        return "potri";
      case Routine::Logdet:
        return "logdet";
      case Routine::PosvMixed:
        return float_fails ? "posv_mixed_fallback" : "posv_mixed";
      case Routine::PotrfShifted:
        return "potrf_shifted";
    }
    return "?";
  }
};

// Flops per matrix: POTRF n^3/3 + n^2/2 + n/6; a triangular solve n^2 per
// right-hand side (LAPACK's operation counts); POTRS two of them. The
// composite routines count what they do: potri is measured from the SPD
// matrix (potrf, then POTRI's 2n^3/3, the leading terms of TRTRI and LAUUM,
// n^3/3 each), logdet is potrf and n logarithms summed, posv_mixed is counted
// as posv (the refinement steps are the price of the float factor, not work a
// double posv needs), potrf_shifted as potrf (no matrix of the benchmark
// needs a retry).
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
    case Routine::PosvMixed:
      return potrf + 2 * trsv;
    case Routine::Potri:
      return potrf + 2 * n * n * n / 3;
    case Routine::Logdet:
      return potrf + n;
    case Routine::PotrfShifted:
      return potrf;
  }
  return 0;
}

// Fewest bytes per matrix: the triangle read once (and written once when it
// is factored), the right-hand sides read once and written once. potri: A
// read, the inverse written in place (the factor between them need not leave
// the chip); logdet: potrf's, and the value written; potrf_shifted: A read, L
// written, and the shift.
inline double min_bytes_per_matrix(const Case& c, std::size_t scalar_bytes) {
  const double s = static_cast<double>(scalar_bytes);
  const double n = c.n;
  const double triangle = n * (n + 1) / 2 * s;
  const double rhs = c.has_rhs() ? 2 * n * c.nrhs * s : 0;
  switch (c.routine) {
    case Routine::Potrf:
    case Routine::Potri:
      return 2 * triangle;
    case Routine::Logdet:
    case Routine::PotrfShifted:
      return 2 * triangle + s;
    case Routine::Posv:
    case Routine::PosvMixed:
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
