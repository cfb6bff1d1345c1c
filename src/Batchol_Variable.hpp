// Variable-size batches: matrices of different orders in one batch (block
// Jacobi on unstructured meshes, p-adaptive DG). The matrices are padded
// (the leading n(i) x n(i) block of a (batch, nmax, nmax) View) or packed
// (back to back in one rank-1 View, matrix i at values(offsets(i))); the
// orders n and the offsets stay on the device. potrf, potrs, posv and trsv
// take them, asynchronously like the fixed-size calls: nmax, the largest
// order, is an argument (the padded View's extent, or packed's nmax), and
// each order is checked in the kernel against 0..nmax. A matrix whose
// description is invalid gets a negative info (potrf, posv) and its
// right-hand sides are left unchanged:
//   info_bad_order  (-1)  n(i) < 0 or n(i) > nmax
//   info_bad_matrix (-2)  packed matrix outside values: offsets(i) < 0 or
//                         offsets(i) + n(i)^2 > values.extent(0)
//   info_bad_rhs    (-3)  packed right-hand sides outside their values
// An order 0 is valid (info 0). They run on the Generic path (Path::Auto or
// Path::Generic; another path throws std::invalid_argument).
#ifndef BATCHOL_VARIABLE_HPP
#define BATCHOL_VARIABLE_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Check.hpp>
#include <detail/Batchol_Dispatch.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Variable.hpp>

#include <cstddef>
#include <type_traits>

namespace batchol {

inline constexpr int info_bad_order = detail::var_bad_order;
inline constexpr int info_bad_matrix = detail::var_bad_matrix;
inline constexpr int info_bad_rhs = detail::var_bad_rhs;

// Padded storage: A (batch, nmax, nmax) in any layout the fixed-size calls
// take; matrix i is the leading n(i) x n(i) block of A(i, :, :). n: int orders.
template <class AView, class NView>
struct Padded {
  AView A;
  NView n;
};
template <class AView, class NView>
Padded<AView, NView> padded(const AView& A, const NView& n) {
  return {A, n};
}

// Packed storage: matrix i, of order n(i), at values(offsets(i)) (contiguous
// values, std::int64_t offsets), n(i) x n(i) by columns or rows; nmax is the
// largest order the caller promises (it sizes the kernels' scratch).
template <class VView, class OView, class NView>
struct Packed {
  VView values;
  OView offsets;
  NView n;
  int nmax = 0;
  Storage storage = Storage::ColMajor;
};
template <class VView, class OView, class NView>
Packed<VView, OView, NView> packed(const VView& values, const OView& offsets, const NView& n,
                                   int nmax, Storage storage = Storage::ColMajor) {
  return {values, offsets, n, nmax, storage};
}

// Packed right-hand sides of a variable-size solve: system i's n(i) x nrhs
// block at values(offsets(i)), by columns (leading dimension n(i)) or rows.
// Padded right-hand sides are plain Views (batch, nmax) or (batch, nmax, nrhs).
template <class VView, class OView>
struct PackedRhs {
  VView values;
  OView offsets;
  int nrhs = 1;
  Storage storage = Storage::ColMajor;
};
template <class VView, class OView>
PackedRhs<VView, OView> packed_rhs(const VView& values, const OView& offsets, int nrhs = 1,
                                   Storage storage = Storage::ColMajor) {
  return {values, offsets, nrhs, storage};
}

namespace detail {

template <class ExecSpace, class AView, class NView>
auto problem_of(const char* routine, const Padded<AView, NView>& A, Uplo uplo) {
  return problem_padded<ExecSpace>(routine, A.A, A.n, uplo);
}
template <class ExecSpace, class VView, class OView, class NView>
auto problem_of(const char* routine, const Packed<VView, OView, NView>& A, Uplo uplo) {
  return problem_packed<ExecSpace>(routine, A.values, A.offsets, A.n, A.nmax, A.storage, uplo);
}

template <class ExecSpace, class T, class BView>
void set_rhs_of(const char* routine, const char* name, Problem<T>& pr, const BView& B) {
  set_rhs_padded<ExecSpace>(routine, name, pr, B);
}
template <class ExecSpace, class T, class VView, class OView>
void set_rhs_of(const char* routine, const char*, Problem<T>& pr,
                const PackedRhs<VView, OView>& B) {
  set_rhs_packed<ExecSpace>(routine, pr, B.values, B.offsets, B.nrhs, B.storage);
}

template <class AView>
inline constexpr bool writable_v = !std::is_const_v<typename AView::value_type>;
template <class AView, class NView>
inline constexpr bool writable_v<Padded<AView, NView>> = writable_v<AView>;
template <class VView, class OView, class NView>
inline constexpr bool writable_v<Packed<VView, OView, NView>> = writable_v<VView>;

template <class ExecSpace, class VA, class InfoView>
void potrf_variable(const ExecSpace& exec, const VA& A, const InfoView& info, const Options& opts) {
  constexpr const char* routine = "potrf";
  static_assert(writable_v<VA>, "batchol::potrf: A must not be const");
  check_options(routine, opts);
  auto pr = problem_of<ExecSpace>(routine, A, opts.uplo);
  check_info_of<ExecSpace>(routine, std::size_t(pr.batch), info);
  set_info(pr, info);
  pr.mirror = opts.write_transposed;
  run_variable<Op::Potrf>(routine, exec, pr, opts);
}

template <class ExecSpace, class VA, class BArg>
void potrs_variable(const ExecSpace& exec, const VA& A, const BArg& B, const Options& opts) {
  constexpr const char* routine = "potrs";
  check_options(routine, opts);
  auto pr = problem_of<ExecSpace>(routine, A, opts.uplo);
  set_rhs_of<ExecSpace>(routine, "B", pr, B);
  run_variable<Op::Potrs>(routine, exec, pr, opts);
}

template <class ExecSpace, class VA, class BArg, class InfoView>
void posv_variable(const ExecSpace& exec, const VA& A, const BArg& B, const InfoView& info,
                   const Options& opts) {
  constexpr const char* routine = "posv";
  static_assert(writable_v<VA>, "batchol::posv: A must not be const");
  check_options(routine, opts);
  auto pr = problem_of<ExecSpace>(routine, A, opts.uplo);
  set_rhs_of<ExecSpace>(routine, "B", pr, B);
  check_info_of<ExecSpace>(routine, std::size_t(pr.batch), info);
  set_info(pr, info);
  pr.mirror = opts.write_transposed;
  run_variable<Op::Posv>(routine, exec, pr, opts);
}

template <class ExecSpace, class VA, class BArg>
void trsv_variable(const ExecSpace& exec, Uplo uplo, Trans trans, const VA& A, const BArg& b,
                   const Options& opts) {
  constexpr const char* routine = "trsv";
  if (uplo != Uplo::Lower && uplo != Uplo::Upper)
    fail(routine, "uplo", "must be Uplo::Lower or Uplo::Upper");
  if (trans != Trans::NoTranspose && trans != Trans::Transpose)
    fail(routine, "trans", "must be Trans::NoTranspose or Trans::Transpose");
  check_options(routine, opts);
  auto pr = problem_of<ExecSpace>(routine, A, uplo);
  set_rhs_of<ExecSpace>(routine, "b", pr, b);
  if (pr.nrhs != 1) fail(routine, "b", "must hold one right-hand side per system");
  // Upper arrives as the lower triangle of the transpose, which flips op().
  if ((trans == Trans::Transpose) != (uplo == Uplo::Upper))
    run_variable<Op::TrsvT>(routine, exec, pr, opts);
  else
    run_variable<Op::TrsvN>(routine, exec, pr, opts);
}

}  // namespace detail

// Cholesky factorization of every matrix of a variable-size batch
// (padded(A, n) or packed(...)), in place, in the triangle opts.uplo.
// info(i) as the fixed-size potrf's, or a negative code above.
template <class ExecSpace, class AView, class NView, class InfoView>
void potrf(const ExecSpace& exec, const Padded<AView, NView>& A, const InfoView& info,
           const Options& opts = Options{}) {
  detail::potrf_variable(exec, A, info, opts);
}
template <class ExecSpace, class VView, class OView, class NView, class InfoView>
void potrf(const ExecSpace& exec, const Packed<VView, OView, NView>& A, const InfoView& info,
           const Options& opts = Options{}) {
  detail::potrf_variable(exec, A, info, opts);
}

// Solve A X = B with the factors potrf left in a variable-size batch; B is a
// View (batch, nmax) or (batch, nmax, nrhs), or packed_rhs(...).
template <class ExecSpace, class AView, class NView, class BArg>
void potrs(const ExecSpace& exec, const Padded<AView, NView>& A, const BArg& B,
           const Options& opts = Options{}) {
  detail::potrs_variable(exec, A, B, opts);
}
template <class ExecSpace, class VView, class OView, class NView, class BArg>
void potrs(const ExecSpace& exec, const Packed<VView, OView, NView>& A, const BArg& B,
           const Options& opts = Options{}) {
  detail::potrs_variable(exec, A, B, opts);
}

// Factor and solve a variable-size batch in one kernel; a matrix whose
// factorization fails (or whose description is invalid) keeps its B.
template <class ExecSpace, class AView, class NView, class BArg, class InfoView>
void posv(const ExecSpace& exec, const Padded<AView, NView>& A, const BArg& B, const InfoView& info,
          const Options& opts = Options{}) {
  detail::posv_variable(exec, A, B, info, opts);
}
template <class ExecSpace, class VView, class OView, class NView, class BArg, class InfoView>
void posv(const ExecSpace& exec, const Packed<VView, OView, NView>& A, const BArg& B,
          const InfoView& info, const Options& opts = Options{}) {
  detail::posv_variable(exec, A, B, info, opts);
}

// op(T) x = b with T the triangle `uplo` of each matrix of a variable-size
// batch; b is a View (batch, nmax) or packed_rhs(values, offsets) (nrhs 1).
template <class ExecSpace, class AView, class NView, class BArg>
void trsv(const ExecSpace& exec, Uplo uplo, Trans trans, const Padded<AView, NView>& A,
          const BArg& b, const Options& opts = Options{}) {
  detail::trsv_variable(exec, uplo, trans, A, b, opts);
}
template <class ExecSpace, class VView, class OView, class NView, class BArg>
void trsv(const ExecSpace& exec, Uplo uplo, Trans trans, const Packed<VView, OView, NView>& A,
          const BArg& b, const Options& opts = Options{}) {
  detail::trsv_variable(exec, uplo, trans, A, b, opts);
}

}  // namespace batchol

#endif
