// Host-level API: one call factors or solves a whole batch, asynchronously on
// the given execution space instance (no fence, no host-device copy).
#ifndef BATCHOL_BATCHED_HPP
#define BATCHOL_BATCHED_HPP

#include <detail/Batchol_Dispatch.hpp>

namespace batchol {
namespace detail {

template <class AView>
Problem<typename AView::non_const_value_type> problem_for(const AView& A, Uplo uplo) {
  Problem<typename AView::non_const_value_type> pr;
  pr.batch = static_cast<std::int64_t>(A.extent(0));
  pr.n = static_cast<int>(A.extent(1));
  // potrs and trsv accept a const A and never write through this pointer.
  pr.a = const_cast<typename AView::non_const_value_type*>(A.data());
  pr.a_bs = static_cast<std::ptrdiff_t>(A.stride(0));
  const auto lower = as_lower(
      Strided<const typename AView::non_const_value_type>{nullptr, std::ptrdiff_t(A.stride(1)),
                                                          std::ptrdiff_t(A.stride(2))},
      uplo);
  pr.a_rs = lower.rs;
  pr.a_cs = lower.cs;
  return pr;
}

template <class T, class BView>
void set_rhs(Problem<T>& pr, const BView& B) {
  pr.b = B.data();
  pr.b_bs = static_cast<std::ptrdiff_t>(B.stride(0));
  pr.b_rs = static_cast<std::ptrdiff_t>(B.stride(1));
  if constexpr (rank_v<BView> == 3) {
    pr.b_cs = static_cast<std::ptrdiff_t>(B.stride(2));
    pr.nrhs = static_cast<int>(B.extent(2));
  } else {
    pr.b_cs = 0;
    pr.nrhs = 1;
  }
}

template <class T, class InfoView>
void set_info(Problem<T>& pr, const InfoView& info) {
  pr.info = info.data();
  pr.info_s = static_cast<std::ptrdiff_t>(info.stride(0));
}

}  // namespace detail

// Cholesky factorization of every matrix of A (batch, n, n), in place, in the
// triangle opts.uplo. info(i) = 0, or j > 0 when the leading minor of order j
// of matrix i is not positive definite (or a NaN/Inf reached pivot j).
template <class ExecSpace, class AView, class InfoView>
void potrf(const ExecSpace& exec, const AView& A, const InfoView& info,
           const Options& opts = Options{}) {
  constexpr const char* routine = "potrf";
  detail::check_matrices<ExecSpace>(routine, A);
  static_assert(!std::is_const_v<typename AView::value_type>,
                "batchol::potrf: A must not be const");
  detail::check_info<ExecSpace>(routine, A, info);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_info(pr, info);
  pr.mirror = opts.write_transposed;
  detail::launch<detail::PotrfOp>(routine, exec, pr, opts);
}

// Solve A X = B with the factor potrf left in A. B is (batch, n) or
// (batch, n, nrhs) and is overwritten by X.
template <class ExecSpace, class AView, class BView>
void potrs(const ExecSpace& exec, const AView& A, const BView& B, const Options& opts = Options{}) {
  constexpr const char* routine = "potrs";
  detail::check_matrices<ExecSpace>(routine, A);
  detail::check_rhs<ExecSpace>(routine, "B", A, B);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_rhs(pr, B);
  detail::launch<detail::PotrsOp>(routine, exec, pr, opts);
}

// Factor and solve in one kernel. A matrix whose factorization fails keeps its
// right-hand sides unchanged (as LAPACK ?posv does).
template <class ExecSpace, class AView, class BView, class InfoView>
void posv(const ExecSpace& exec, const AView& A, const BView& B, const InfoView& info,
          const Options& opts = Options{}) {
  constexpr const char* routine = "posv";
  detail::check_matrices<ExecSpace>(routine, A);
  static_assert(!std::is_const_v<typename AView::value_type>, "batchol::posv: A must not be const");
  detail::check_rhs<ExecSpace>(routine, "B", A, B);
  detail::check_info<ExecSpace>(routine, A, info);
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, opts.uplo);
  detail::set_rhs(pr, B);
  detail::set_info(pr, info);
  pr.mirror = opts.write_transposed;
  detail::launch<detail::PosvOp>(routine, exec, pr, opts);
}

// Triangular solve op(T) x = b with T the triangle `uplo` of each matrix of A
// (non-unit diagonal), op(T) = T or T^T. b is (batch, n), overwritten by x.
// opts.uplo is not read: `uplo` names the triangle.
template <class ExecSpace, class AView, class BView>
void trsv(const ExecSpace& exec, Uplo uplo, Trans trans, const AView& A, const BView& b,
          const Options& opts = Options{}) {
  constexpr const char* routine = "trsv";
  static_assert(detail::rank_v<BView> == 2, "batchol::trsv: b must be a View of rank 2 (batch, n)");
  detail::check_matrices<ExecSpace>(routine, A);
  detail::check_rhs<ExecSpace>(routine, "b", A, b);
  if (uplo != Uplo::Lower && uplo != Uplo::Upper)
    detail::fail(routine, "uplo", "must be Uplo::Lower or Uplo::Upper");
  if (trans != Trans::NoTranspose && trans != Trans::Transpose)
    detail::fail(routine, "trans", "must be Trans::NoTranspose or Trans::Transpose");
  detail::check_options(routine, opts);
  auto pr = detail::problem_for(A, uplo);
  detail::set_rhs(pr, b);
  // Upper arrives as the lower triangle of the transpose, which flips op().
  const bool transpose_lower = (trans == Trans::Transpose) != (uplo == Uplo::Upper);
  if (transpose_lower)
    detail::launch<detail::TrsvOp<detail::TransposeTag>>(routine, exec, pr, opts);
  else
    detail::launch<detail::TrsvOp<detail::NoTransposeTag>>(routine, exec, pr, opts);
}

}  // namespace batchol

#endif
