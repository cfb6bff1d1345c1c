// The operations every path implements, as one compile-time vocabulary: a
// public call names one, the dispatcher passes it down, and each path's
// kernels are specialized on it (a non-type template parameter, Op OP). What
// an operation reads and writes is asked through the predicates below, so
// that code says `factors(OP)` instead of listing operations. Kokkos-free:
// the CUDA kernels, which compile with nvcc alone for the tuning tool, use it
// too.
//
// Room to grow: a new operation is a new enumerator, appended (the tuning
// tool indexes its launchers by the enumerators' values), with its answers to
// the predicates. Potri and Logdet read a factor potrf left in A (no
// right-hand sides); PosvMixed solves double systems through a float factor.
// The Generic path implements these three (specialized(op) is false), and
// the Cuda path potri too (Batchol_CudaPath.hpp). Complex
// scalars need no new operation: the scalar type is a separate template
// parameter everywhere.
#ifndef BATCHOL_OP_HPP
#define BATCHOL_OP_HPP

#include <string_view>
#include <type_traits>

// The predicates are called in device code too; nvcc and hipcc want the
// qualifiers even in constant expressions (without --expt-relaxed-constexpr).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define BATCHOL_HOST_DEVICE __host__ __device__
#else
#define BATCHOL_HOST_DEVICE
#endif

namespace batchol::detail {

enum class Op {
  Potrf,      // A = L L^T in place, info per matrix
  Posv,       // potrf, then L L^T X = B where the factorization succeeded
  Potrs,      // L L^T X = B with the factor in A (read only)
  TrsvN,      // L x = b
  TrsvT,      // L^T x = b
  Potri,      // inv(A) = inv(L)^T inv(L) in place from the factor, info per matrix
  Logdet,     // log det A = 2 sum log L_jj from the factor, one scalar per matrix
  PosvMixed,  // posv of double systems: float factor, refinement in double, fallback
};

// Has kernels on the specialized paths (Host, Cuda); the others run on the
// Generic path only.
BATCHOL_HOST_DEVICE constexpr bool specialized(Op op) {
  return op == Op::Potrf || op == Op::Posv || op == Op::Potrs || op == Op::TrsvN || op == Op::TrsvT;
}

// Computes the Cholesky factor: writes the triangle of A and info.
BATCHOL_HOST_DEVICE constexpr bool factors(Op op) {
  return op == Op::Potrf || op == Op::Posv;
}
// Reads right-hand sides B and overwrites them with the solution.
BATCHOL_HOST_DEVICE constexpr bool has_rhs(Op op) {
  return op == Op::Posv || op == Op::Potrs || op == Op::TrsvN || op == Op::TrsvT;
}
// Runs the forward substitution, L y = b.
BATCHOL_HOST_DEVICE constexpr bool solves_forward(Op op) {
  return op == Op::Posv || op == Op::Potrs || op == Op::TrsvN;
}
// Runs the backward substitution, L^T x = y.
BATCHOL_HOST_DEVICE constexpr bool solves_backward(Op op) {
  return op == Op::Posv || op == Op::Potrs || op == Op::TrsvT;
}

// An operation as a type, for overloads (serial_trsv(op_t<Op::TrsvN>{}, ...)).
template <Op OP>
using op_t = std::integral_constant<Op, OP>;

// The public routine that runs an operation, for messages and profiling
// regions (both substitutions are trsv).
constexpr const char* routine_name(Op op) {
  switch (op) {
    case Op::Potrf:
      return "potrf";
    case Op::Posv:
      return "posv";
    case Op::Potrs:
      return "potrs";
    case Op::Potri:
      return "potri";
    case Op::Logdet:
      return "logdet";
    case Op::PosvMixed:
      return "posv_mixed";
    default:
      return "trsv";
  }
}

// An operation's name in file and symbol names ("potrf", "posv", "potrs",
// "trsv_n", "trsv_t", "potri", "logdet": the build writes one Cuda translation unit per name),
// and back; a name that is none of these does not compile where a constant
// is needed.
constexpr const char* op_name(Op op) {
  switch (op) {
    case Op::Potrf:
      return "potrf";
    case Op::Posv:
      return "posv";
    case Op::Potrs:
      return "potrs";
    case Op::TrsvN:
      return "trsv_n";
    case Op::Potri:
      return "potri";
    case Op::Logdet:
      return "logdet";
    case Op::PosvMixed:
      return "posv_mixed";
    default:
      return "trsv_t";
  }
}
constexpr Op op_named(std::string_view name) {
  for (Op op :
       {Op::Potrf, Op::Posv, Op::Potrs, Op::TrsvN, Op::TrsvT, Op::Potri, Op::Logdet, Op::PosvMixed})
    if (name == op_name(op)) return op;
  throw "batchol: unknown operation name";
}

}  // namespace batchol::detail

#endif
