// Run-time options of the host-level calls, and the tag types the kernels are
// specialized on.
#ifndef BATCHOL_OPTIONS_HPP
#define BATCHOL_OPTIONS_HPP

#include <type_traits>

namespace batchol {

enum class Uplo { Lower, Upper };
enum class Trans { NoTranspose, Transpose };

// Which implementation runs a host-level call. Auto takes the specialized path
// of the execution space when the build has one, else Generic.
enum class Path { Auto, Generic, Host, Cuda };

struct Options {
  Uplo uplo = Uplo::Lower;
  Path path = Path::Auto;
  // Permission, not a demand: a path with approximate sqrt/reciprocal may use
  // them; a path without them (Generic) computes exactly. The Host and Cuda
  // paths then also flush subnormal pivots to zero: such a pivot fails
  // (info), where the exact computation factors the matrix.
  bool fast_math = false;
  // potrf/posv also write the factor transposed into the other triangle, so
  // that later solves can read both sweeps with unit stride. Overwrites that
  // triangle, so it is off by default.
  bool write_transposed = false;
};

namespace detail {

// Compile-time tags the kernels are specialized on.
struct NoTransposeTag {};
struct TransposeTag {};
template <class T>
inline constexpr bool is_trans_tag_v =
    std::is_same_v<T, NoTransposeTag> || std::is_same_v<T, TransposeTag>;

struct PotrfOp {};
struct PotrsOp {};
struct PosvOp {};
template <class TransTag>
struct TrsvOp {
  static_assert(is_trans_tag_v<TransTag>, "TrsvOp takes NoTransposeTag or TransposeTag");
};

}  // namespace detail
}  // namespace batchol

#endif
