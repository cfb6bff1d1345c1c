// The enumerations of the API and the run-time options of the host-level calls.
#ifndef BATCHOL_OPTIONS_HPP
#define BATCHOL_OPTIONS_HPP

namespace batchol {

enum class Uplo { Lower, Upper };
// ConjTranspose: the conjugate transpose (for real scalars, the transpose).
enum class Trans { NoTranspose, Transpose, ConjTranspose };
// How a packed variable-size batch stores each matrix (and each block of
// right-hand sides) of order n_i: by columns or by rows, leading dimension n_i.
enum class Storage { ColMajor, RowMajor };

// Which implementation runs a host-level call. Auto takes the specialized path
// of the execution space when the build has one, else Generic; on CUDA it
// takes Blocked for orders above the Cuda path's tables. Blocked (every
// execution space) works by blocks of 32 columns, in several launches per
// call: for large orders.
enum class Path { Auto, Generic, Host, Cuda, Blocked };

struct Options {
  Uplo uplo = Uplo::Lower;
  Path path = Path::Auto;
  // Permission, not a demand: a path with approximate sqrt/reciprocal may use
  // them; a path without them (Generic, Blocked) computes exactly. Every
  // path then counts a subnormal pivot as zero: it fails (info), where the
  // exact computation factors the matrix, so that the info of a call does
  // not depend on the path that serves it.
  bool fast_math = false;
  // potrf/posv also write the factor transposed into the other triangle, so
  // that later solves can read both sweeps with unit stride. Overwrites that
  // triangle, so it is off by default.
  bool write_transposed = false;
};

// The retry policy of potrf_shifted: a matrix whose factorization fails is
// refactored as A + delta I with delta = start * max_j |A_jj| at the first
// retry, multiplied by growth at each further one, at most `tries` retries.
struct Shift {
  double start = 1e-8;
  double growth = 10;
  int tries = 6;
};

}  // namespace batchol

#endif
