// A host-level call's Views, once checked (Batchol_Check.hpp), reduced to the
// Problem every path reads (Batchol_Problem.hpp): pointers and strides, with
// an Upper triangle seen as the Lower triangle of the transpose.
#ifndef BATCHOL_DESCRIBE_HPP
#define BATCHOL_DESCRIBE_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Scalar.hpp>
#include <detail/Batchol_Strided.hpp>

#include <cstddef>
#include <cstdint>

namespace batchol::detail {

// The matrices of A (batch, n, n), triangle `uplo`.
template <class AView>
Problem<typename AView::non_const_value_type> problem_for(const AView& A, Uplo uplo) {
  using T = typename AView::non_const_value_type;
  Problem<T> pr;
  pr.batch = static_cast<std::int64_t>(A.extent(0));
  pr.n = static_cast<int>(A.extent(1));
  // potrs and trsv accept a const A and never write through this pointer.
  pr.a = const_cast<T*>(A.data());
  pr.a_bs = static_cast<std::ptrdiff_t>(A.stride(0));
  const auto lower = as_lower(
      Strided<const T>{nullptr, std::ptrdiff_t(A.stride(1)), std::ptrdiff_t(A.stride(2))}, uplo);
  pr.a_rs = lower.rs;
  pr.a_cs = lower.cs;
  // A complex Upper triangle seen this way holds U^T = conj(L): the solves
  // conjugate (trsv sets its own, from its op).
  pr.conj = is_complex_v<T> && uplo == Uplo::Upper;
  return pr;
}

// The right-hand sides B: (batch, n) or (batch, n, nrhs).
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

template <class T, class OutView>
void set_out(Problem<T>& pr, const OutView& out) {
  pr.out = out.data();
  pr.out_s = static_cast<std::ptrdiff_t>(out.stride(0));
}

}  // namespace batchol::detail

#endif
