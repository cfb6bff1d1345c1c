// Host-level API: one call factors or solves a whole batch, asynchronously on
// the given execution space instance (no fence, no host-device copy).
#ifndef BATCHOL_BATCHED_HPP
#define BATCHOL_BATCHED_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Check.hpp>
#include <detail/Batchol_Describe.hpp>
#include <detail/Batchol_Dispatch.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Shifted.hpp>

namespace batchol {

// The operations, named for path_available (batchol::Op::Posv, ...).
using Op = detail::Op;

// Whether `path` can run operation OP on ExecSpace in this build (Auto and
// Generic always can), on batches of one order or (variable_size) of several
// (Batchol_Variable.hpp); a call asking for a path it cannot run throws.
// Tests and benchmarks enumerate paths with it.
template <class ExecSpace, Op OP = Op::Potrf>
constexpr bool path_available(Path path, bool variable_size = false) {
  return detail::provides<ExecSpace, OP>(path, variable_size);
}

namespace detail {

// The logdet output of potrf and posv, when the call has none.
struct NoLogdet {};

template <class ExecSpace, class AView, class LogdetView, class T>
void set_logdet(const char* routine, const AView& A, const LogdetView& logdet, Problem<T>& pr) {
  if constexpr (!std::is_same_v<LogdetView, NoLogdet>) {
    check_out<ExecSpace>(routine, "logdet", A, logdet);
    set_out(pr, logdet);
  }
}

template <class ExecSpace, class AView, class InfoView, class LogdetView>
void potrf_call(const ExecSpace& exec, const AView& A, const InfoView& info,
                const LogdetView& logdet, const Options& opts) {
  constexpr const char* routine = "potrf";
  check_matrices<ExecSpace, AView, true>(routine, A);
  static_assert(!std::is_const_v<typename AView::value_type>,
                "batchol::potrf: A must not be const");
  check_info<ExecSpace>(routine, A, info);
  auto pr = problem_for(A, opts.uplo);
  set_logdet<ExecSpace>(routine, A, logdet, pr);
  check_options(routine, opts);
  set_info(pr, info);
  pr.mirror = opts.write_transposed;
  pr.fast_math = opts.fast_math;
  run<Op::Potrf>(routine, exec, pr, opts);
}

template <class ExecSpace, class AView, class BView, class InfoView, class LogdetView>
void posv_call(const ExecSpace& exec, const AView& A, const BView& B, const InfoView& info,
               const LogdetView& logdet, const Options& opts) {
  constexpr const char* routine = "posv";
  check_matrices<ExecSpace, AView, true>(routine, A);
  static_assert(!std::is_const_v<typename AView::value_type>, "batchol::posv: A must not be const");
  check_rhs<ExecSpace>(routine, "B", A, B);
  check_info<ExecSpace>(routine, A, info);
  auto pr = problem_for(A, opts.uplo);
  set_logdet<ExecSpace>(routine, A, logdet, pr);
  check_options(routine, opts);
  set_rhs(pr, B);
  set_info(pr, info);
  pr.mirror = opts.write_transposed;
  pr.fast_math = opts.fast_math;
  run<Op::Posv>(routine, exec, pr, opts);
}

}  // namespace detail

// Cholesky factorization of every matrix of A (batch, n, n), in place, in the
// triangle opts.uplo. info(i) = 0, or j > 0 when the leading minor of order j
// of matrix i is not positive definite (or a NaN/Inf reached pivot j).
template <class ExecSpace, class AView, class InfoView>
void potrf(const ExecSpace& exec, const AView& A, const InfoView& info,
           const Options& opts = Options{}) {
  detail::potrf_call(exec, A, info, detail::NoLogdet{}, opts);
}

// potrf that also writes logdet(i) = log det A_i = 2 sum_j log L_jj (a quiet
// NaN where info(i) != 0), the value batchol::logdet computes from the
// factor; real (float or double) for complex matrices. On the Cuda path the
// factorization kernels up to n = 512 take it as they factor, with no pass
// over memory of its own; after the large-matrix factorization and on the
// other paths, logdet runs as a pass of its own.
template <class ExecSpace, class AView, class InfoView, class LogdetView>
void potrf(const ExecSpace& exec, const AView& A, const InfoView& info, const LogdetView& logdet,
           const Options& opts = Options{}) {
  detail::potrf_call(exec, A, info, logdet, opts);
}

// Solve A X = B with the factor potrf left in A. B is (batch, n) or
// (batch, n, nrhs) and is overwritten by X.
template <class ExecSpace, class AView, class BView>
void potrs(const ExecSpace& exec, const AView& A, const BView& B, const Options& opts = Options{}) {
  constexpr const char* routine = "potrs";
  detail::check_matrices<ExecSpace, AView, true>(routine, A);
  detail::check_rhs<ExecSpace>(routine, "B", A, B);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_rhs(pr, B);
  pr.fast_math = opts.fast_math;
  detail::run<Op::Potrs>(routine, exec, pr, opts);
}

// Factor and solve in one kernel. A matrix whose factorization fails keeps its
// right-hand sides unchanged (as LAPACK ?posv does).
template <class ExecSpace, class AView, class BView, class InfoView>
void posv(const ExecSpace& exec, const AView& A, const BView& B, const InfoView& info,
          const Options& opts = Options{}) {
  detail::posv_call(exec, A, B, info, detail::NoLogdet{}, opts);
}

// posv that also writes logdet(i) as potrf's overload above does.
template <class ExecSpace, class AView, class BView, class InfoView, class LogdetView>
void posv(const ExecSpace& exec, const AView& A, const BView& B, const InfoView& info,
          const LogdetView& logdet, const Options& opts = Options{}) {
  detail::posv_call(exec, A, B, info, logdet, opts);
}

// Triangular solve op(T) x = b with T the triangle `uplo` of each matrix of A
// (non-unit diagonal), op(T) = T, T^T or T^H. b is (batch, n), overwritten
// by x. opts.uplo is not read: `uplo` names the triangle.
template <class ExecSpace, class AView, class BView>
void trsv(const ExecSpace& exec, Uplo uplo, Trans trans, const AView& A, const BView& b,
          const Options& opts = Options{}) {
  constexpr const char* routine = "trsv";
  static_assert(detail::rank_v<BView> == 2, "batchol::trsv: b must be a View of rank 2 (batch, n)");
  detail::check_matrices<ExecSpace, AView, true>(routine, A);
  detail::check_rhs<ExecSpace>(routine, "b", A, b);
  if (uplo != Uplo::Lower && uplo != Uplo::Upper)
    detail::fail(routine, "uplo", "must be Uplo::Lower or Uplo::Upper");
  if (trans != Trans::NoTranspose && trans != Trans::Transpose && trans != Trans::ConjTranspose)
    detail::fail(routine, "trans", "must be Trans::NoTranspose, Transpose or ConjTranspose");
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, uplo);
  detail::set_rhs(pr, b);
  pr.fast_math = opts.fast_math;
  // trsv conjugates by its op, not by its triangle.
  pr.conj =
      detail::is_complex_v<typename AView::non_const_value_type> && trans == Trans::ConjTranspose;
  // Upper arrives as the lower triangle of the transpose, which flips op()
  // (and keeps the conjugation: (T^T)^H = conj(T)).
  const bool transpose_lower = (trans != Trans::NoTranspose) != (uplo == Uplo::Upper);
  if (transpose_lower)
    detail::run<Op::TrsvT>(routine, exec, pr, opts);
  else
    detail::run<Op::TrsvN>(routine, exec, pr, opts);
}

// The inverse of every matrix from the factor potrf left in A, in place in
// the triangle opts.uplo (LAPACK ?potri: inv(L)^T inv(L), inv(L)^H inv(L)
// for complex matrices, whose inverse's diagonal is then real); with
// opts.write_transposed the other triangle receives it too (conjugated). info(i) = 0, or
// j > 0 when L_jj is zero (singular): that matrix is left unchanged.
template <class ExecSpace, class AView, class InfoView>
void potri(const ExecSpace& exec, const AView& A, const InfoView& info,
           const Options& opts = Options{}) {
  constexpr const char* routine = "potri";
  detail::check_matrices<ExecSpace, AView, true>(routine, A);
  static_assert(!std::is_const_v<typename AView::value_type>,
                "batchol::potri: A must not be const");
  detail::check_info<ExecSpace>(routine, A, info);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_info(pr, info);
  pr.mirror = opts.write_transposed;
  detail::run<Op::Potri>(routine, exec, pr, opts);
}

// out(i) = log det A_i = 2 sum_j log L_jj from the factor potrf left in L (the
// triangle opts.uplo) and potrf's info: a quiet NaN where info(i) != 0. out
// has L's real scalar type (double for Kokkos::complex<double>).
template <class ExecSpace, class LView, class InfoView, class OutView>
void logdet(const ExecSpace& exec, const LView& L, const InfoView& info, const OutView& out,
            const Options& opts = Options{}) {
  constexpr const char* routine = "logdet";
  detail::check_matrices<ExecSpace, LView, true>(routine, L);
  detail::static_check_view<ExecSpace, InfoView, 1>();
  static_assert(std::is_same_v<typename InfoView::non_const_value_type, int>,
                "batchol: info must be a View<int*>");
  if (info.extent(0) != L.extent(0))
    detail::fail(routine, "info", "must have one entry per matrix");
  detail::check_out<ExecSpace>(routine, "out", L, out);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(L, opts.uplo);
  // Read only, like A.
  pr.info = const_cast<int*>(info.data());
  pr.info_s = static_cast<std::ptrdiff_t>(info.stride(0));
  detail::set_out(pr, out);
  detail::run<Op::Logdet>(routine, exec, pr, opts);
}

// Mixed-precision posv of double systems (LAPACK dsposv, batched): each
// matrix is factored in float, its solution refined with residuals in
// double until dsposv's test holds (|r| <= |x| |A| eps sqrt(n), inf-norms);
// a matrix whose float route fails (A or B outside float's range, the float
// factorization fails, or no convergence in 30 steps) is solved by a double
// potrf + potrs instead. B (batch, n) or (batch, n, nrhs) is overwritten by
// X. iter(i) >= 0: the refinement steps taken, A unchanged; iter(i) < 0: the
// fallback ran (-2 range, -3 float factorization, -31 no convergence) and A
// holds the double factor. info(i) as posv's (nonzero only when the double
// factorization fails too; B then unchanged). The Cuda path takes n <= 64
// (one kernel per batch: A read once, never written unless the fallback
// runs), the Generic path the rest; opts.write_transposed must be false,
// opts.fast_math is not read.
template <class ExecSpace, class AView, class BView, class InfoView, class IterView>
void posv_mixed(const ExecSpace& exec, const AView& A, const BView& B, const InfoView& info,
                const IterView& iter, const Options& opts = Options{}) {
  constexpr const char* routine = "posv_mixed";
  detail::check_matrices<ExecSpace>(routine, A);
  static_assert(std::is_same_v<typename AView::value_type, double>,
                "batchol::posv_mixed: A must be a non-const View of double");
  detail::check_rhs<ExecSpace>(routine, "B", A, B);
  detail::check_info<ExecSpace>(routine, A, info);
  detail::static_check_view<ExecSpace, IterView, 1>();
  static_assert(std::is_same_v<typename IterView::value_type, int>,
                "batchol::posv_mixed: iter must be a non-const View<int*>");
  if (iter.extent(0) != A.extent(0))
    detail::fail(routine, "iter", "must have one entry per matrix");
  detail::check_options(routine, opts);
  if (opts.write_transposed)
    detail::fail(routine, "opts.write_transposed", "must be false (not supported by posv_mixed)");
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_rhs(pr, B);
  detail::set_info(pr, info);
  pr.iter = iter.data();
  pr.iter_s = static_cast<std::ptrdiff_t>(iter.stride(0));
  detail::run<Op::PosvMixed>(routine, exec, pr, opts);
}

// potrf with shift-and-retry ("jitter"): L receives the Cholesky factors of
// the matrices of A, which is only read. A matrix whose factorization fails is
// factored again from A as A + delta I, delta growing by `policy`: inside the
// factorization's kernel where the Cuda path's group or tile kernel serves
// the order and L has A's layout (most orders up to 128), elsewhere on the
// Generic path, in a launch after it. shift(i) = 0 for a matrix factored as
// it is (its factor is bit for bit potrf's of a copy of A on opts.path), the
// delta that succeeded, or -1 when every try failed (info(i) then is the last
// try's, and L holds what potrf leaves of that try's A + delta I; a NaN is
// never rescued). Only L's triangle (opts.uplo) is written, and with
// write_transposed the other one of the matrices that succeed. A and L have
// the same extents, any layouts, and do not alias; where their layouts agree
// the factorization reads A directly (no copy of A first). Complex matrices:
// the shifts are real, added to the diagonal, and scaled by its real part.
template <class ExecSpace, class AView, class LView, class InfoView, class ShiftView>
void potrf_shifted(const ExecSpace& exec, const AView& A, const LView& L, const InfoView& info,
                   const ShiftView& shift, const Shift& policy = Shift{},
                   const Options& opts = Options{}) {
  constexpr const char* routine = "potrf_shifted";
  using T = typename LView::non_const_value_type;
  detail::check_matrices<ExecSpace, AView, true>(routine, A);
  detail::check_matrices<ExecSpace, LView, true>(routine, L);
  static_assert(!std::is_const_v<typename LView::value_type>,
                "batchol::potrf_shifted: L must not be const");
  static_assert(std::is_same_v<typename AView::non_const_value_type, T>,
                "batchol::potrf_shifted: A and L must have the same scalar type");
  if (L.extent(0) != A.extent(0) || L.extent(1) != A.extent(1))
    detail::fail(routine, "L", "must have the extents of A");
  if (L.extent(0) > 0 && L.extent(1) > 0 && L.data() == A.data())
    detail::fail(routine, "L", "must not alias A (A is the original the retries start from)");
  detail::check_info<ExecSpace>(routine, L, info);
  detail::static_check_view<ExecSpace, ShiftView, 1>();
  static_assert(std::is_same_v<typename ShiftView::value_type, detail::real_t<T>>,
                "batchol::potrf_shifted: shift must be a non-const View of the real scalar type "
                "of A");
  if (shift.extent(0) != A.extent(0))
    detail::fail(routine, "shift", "must have one entry per matrix");
  if (!(policy.start > 0 && policy.start < 1e300) || !(policy.growth > 1 && policy.growth < 1e300))
    detail::fail(routine, "policy", "needs a finite start > 0 and a finite growth > 1");
  if (policy.tries < 0) detail::fail(routine, "policy", "needs tries >= 0");
  detail::check_options(routine, opts);
  auto original = detail::problem_for(A, opts.uplo);
  auto factor = detail::problem_for(L, opts.uplo);
  detail::set_info(factor, info);
  factor.mirror = opts.write_transposed;
  factor.fast_math = opts.fast_math;
  // potrf from A into L: read in place of a copy where the layouts agree.
  if (original.a_bs == factor.a_bs && original.a_rs == factor.a_rs && original.a_cs == factor.a_cs)
    factor.src = original.a;
  else
    detail::copy_lower(exec, original.a, original.a_bs, original.a_rs, original.a_cs, factor);
  // Where the factorization kernel retries the failures itself, it also
  // writes the shifts; elsewhere a launch of its own does both.
  if (detail::retries_in_kernel<ExecSpace>(routine, factor, opts)) {
    factor.shift = shift.data();
    factor.shift_s = static_cast<std::ptrdiff_t>(shift.stride(0));
    factor.shift_start = policy.start;
    factor.shift_growth = policy.growth;
    factor.shift_tries = policy.tries;
    detail::run<Op::Potrf>(routine, exec, factor, opts);
    return;
  }
  detail::run<Op::Potrf>(routine, exec, factor, opts);
  factor.src = nullptr;
  factor.out = shift.data();
  factor.out_s = static_cast<std::ptrdiff_t>(shift.stride(0));
  const detail::ScopedRegion region("batchol::potrf_shifted[Generic]");
  if (factor.batch > 0) detail::shifted::retry(exec, original, factor, policy);
}

}  // namespace batchol

#endif
