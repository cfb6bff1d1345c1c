// Device-level API: factor and solve one matrix inside your own kernel.
// batchol::serial::* run on one thread; batchol::team::* on all threads of a
// team (call them from every thread of the team). A and B are rank-2 (or rank-1
// for a single right-hand side) Views of any layout, in any memory the calling
// thread can reach (global memory or team scratch). Scalars: float, double,
// Kokkos::complex<float> and Kokkos::complex<double> (Hermitian: A = L L^H,
// with the host-level calls' info rules; logdet is then real).
//
// Every call returns an int, uniform across the team: 0 on success; for potrf
// and posv j > 0 when the leading minor of order j is not positive definite;
// -1 when A is not square, -2 when B does not have n rows (LAPACK's convention
// for a bad argument, since device code cannot throw).
#ifndef BATCHOL_DEVICE_HPP
#define BATCHOL_DEVICE_HPP

#include <detail/Batchol_KernelTeam.hpp>

namespace batchol {
namespace detail {

template <class View>
KOKKOS_INLINE_FUNCTION Strided<typename View::value_type> strided_of(const View& v) {
  static_assert(rank_v<View> == 1 || rank_v<View> == 2,
                "batchol: expected a rank-1 or rank-2 View");
  if constexpr (rank_v<View> == 2)
    return {v.data(), std::ptrdiff_t(v.stride(0)), std::ptrdiff_t(v.stride(1))};
  else
    return {v.data(), std::ptrdiff_t(v.stride(0)), 0};
}

template <class View>
KOKKOS_INLINE_FUNCTION int columns_of(const View& v) {
  if constexpr (rank_v<View> == 2)
    return static_cast<int>(v.extent(1));
  else
    return 1;
}

template <class AView>
KOKKOS_INLINE_FUNCTION bool square(const AView& A) {
  static_assert(rank_v<AView> == 2, "batchol: A must be a rank-2 View (n, n)");
  return A.extent(0) == A.extent(1);
}

template <class AView, class BView>
KOKKOS_INLINE_FUNCTION int check_device_args(const AView& A, const BView& B) {
  static_assert(
      std::is_same_v<typename AView::non_const_value_type, typename BView::non_const_value_type>,
      "batchol: A and B must have the same scalar type");
  if (!square(A)) return -1;
  if (B.extent(0) != A.extent(0)) return -2;
  return 0;
}

// Upper arrives as the lower triangle of the transpose, which flips op()
// (ConjTranspose transposes too; for real scalars it is Transpose).
KOKKOS_INLINE_FUNCTION bool lower_transposed(Uplo uplo, Trans trans) {
  return (trans != Trans::NoTranspose) != (uplo == Uplo::Upper);
}

// The conjugation flag of the solves (Problem::conj): for complex scalars,
// potrs and posv of an Upper matrix (its transposed view holds conj(L)), and
// trsv by its op.
template <class View>
KOKKOS_INLINE_FUNCTION bool solve_conj(Uplo uplo) {
  return is_complex_v<typename View::non_const_value_type> && uplo == Uplo::Upper;
}
template <class View>
KOKKOS_INLINE_FUNCTION bool trsv_conj(Trans trans) {
  return is_complex_v<typename View::non_const_value_type> && trans == Trans::ConjTranspose;
}

}  // namespace detail

namespace serial {

template <class AView>
KOKKOS_INLINE_FUNCTION int potrf(const AView& A, Uplo uplo = Uplo::Lower) {
  if (!detail::square(A)) return -1;
  return detail::serial_potrf(detail::as_lower(detail::strided_of(A), uplo),
                              static_cast<int>(A.extent(0)));
}

template <class AView, class BView>
KOKKOS_INLINE_FUNCTION int potrs(const AView& A, const BView& B, Uplo uplo = Uplo::Lower) {
  if (const int bad = detail::check_device_args(A, B)) return bad;
  detail::serial_potrs(detail::as_const(detail::as_lower(detail::strided_of(A), uplo)),
                       static_cast<int>(A.extent(0)), detail::strided_of(B), detail::columns_of(B),
                       detail::solve_conj<AView>(uplo));
  return 0;
}

// Factor, then solve when the factorization succeeded (B is untouched otherwise).
template <class AView, class BView>
KOKKOS_INLINE_FUNCTION int posv(const AView& A, const BView& B, Uplo uplo = Uplo::Lower) {
  if (const int bad = detail::check_device_args(A, B)) return bad;
  if (const int info = potrf(A, uplo)) return info;
  return potrs(A, B, uplo);
}

template <class AView, class BView>
KOKKOS_INLINE_FUNCTION int trsv(Uplo uplo, Trans trans, const AView& A, const BView& b) {
  if (const int bad = detail::check_device_args(A, b)) return bad;
  const auto l = detail::as_const(detail::as_lower(detail::strided_of(A), uplo));
  const int n = static_cast<int>(A.extent(0));
  const bool conj = detail::trsv_conj<AView>(trans);
  if (detail::lower_transposed(uplo, trans))
    detail::serial_trsv(detail::op_t<detail::Op::TrsvT>{}, l, n, detail::strided_of(b),
                        detail::columns_of(b), conj);
  else
    detail::serial_trsv(detail::op_t<detail::Op::TrsvN>{}, l, n, detail::strided_of(b),
                        detail::columns_of(b), conj);
  return 0;
}

// The inverse from the factor in A (see batchol::potri): 0, or j > 0 when
// L_jj is zero (A is then unchanged).
template <class AView>
KOKKOS_INLINE_FUNCTION int potri(const AView& A, Uplo uplo = Uplo::Lower) {
  if (!detail::square(A)) return -1;
  return detail::serial_potri(detail::as_lower(detail::strided_of(A), uplo),
                              static_cast<int>(A.extent(0)));
}

// log det A from the factor in L (a NaN if L is not square); real for
// complex L.
template <class LView>
KOKKOS_INLINE_FUNCTION detail::real_t<typename LView::non_const_value_type> logdet(
    const LView& L, Uplo uplo = Uplo::Lower) {
  using R = detail::real_t<typename LView::non_const_value_type>;
  if (!detail::square(L)) return detail::quiet_nan<R>();
  return detail::serial_logdet(detail::as_const(detail::as_lower(detail::strided_of(L), uplo)),
                               static_cast<int>(L.extent(0)));
}

}  // namespace serial

namespace team {

// Bytes of level-0 team scratch that team::potrf and team::posv use for their
// panel; add it to your own in TeamPolicy::set_scratch_size(0, PerTeam(...)).
// With less scratch the calls still work, factoring each panel in place.
template <class T, class ExecSpace = Kokkos::DefaultExecutionSpace>
std::size_t potrf_scratch_size(int n) {
  return Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                      Kokkos::MemoryUnmanaged>::shmem_size(detail::team_potrf_work_count(n)) +
         alignof(T);
}

template <class Member, class AView>
KOKKOS_INLINE_FUNCTION int potrf(const Member& member, const AView& A, Uplo uplo = Uplo::Lower) {
  using T = typename AView::value_type;
  if (!detail::square(A)) return -1;
  const int n = static_cast<int>(A.extent(0));
  // Take the panel from a copy of the team's scratch allocator: what the copy
  // hands out is free again for the caller's next allocation once we return.
  auto scratch = member.team_scratch(0);
  T* work = static_cast<T*>(
      scratch.get_shmem_aligned(detail::team_potrf_work_count(n) * sizeof(T), alignof(T)));
  return detail::team_potrf(member, detail::as_lower(detail::strided_of(A), uplo), n, work);
}

template <class Member, class AView, class BView>
KOKKOS_INLINE_FUNCTION int potrs(const Member& member, const AView& A, const BView& B,
                                 Uplo uplo = Uplo::Lower) {
  if (const int bad = detail::check_device_args(A, B)) return bad;
  detail::team_potrs(member, detail::as_const(detail::as_lower(detail::strided_of(A), uplo)),
                     static_cast<int>(A.extent(0)), detail::strided_of(B), detail::columns_of(B),
                     detail::solve_conj<AView>(uplo));
  return 0;
}

template <class Member, class AView, class BView>
KOKKOS_INLINE_FUNCTION int posv(const Member& member, const AView& A, const BView& B,
                                Uplo uplo = Uplo::Lower) {
  if (const int bad = detail::check_device_args(A, B)) return bad;
  if (const int info = potrf(member, A, uplo)) return info;
  return potrs(member, A, B, uplo);
}

template <class Member, class AView, class BView>
KOKKOS_INLINE_FUNCTION int trsv(const Member& member, Uplo uplo, Trans trans, const AView& A,
                                const BView& b) {
  if (const int bad = detail::check_device_args(A, b)) return bad;
  const auto l = detail::as_const(detail::as_lower(detail::strided_of(A), uplo));
  const int n = static_cast<int>(A.extent(0));
  const bool conj = detail::trsv_conj<AView>(trans);
  if (detail::lower_transposed(uplo, trans))
    detail::team_trsv(member, detail::op_t<detail::Op::TrsvT>{}, l, n, detail::strided_of(b),
                      detail::columns_of(b), conj);
  else
    detail::team_trsv(member, detail::op_t<detail::Op::TrsvN>{}, l, n, detail::strided_of(b),
                      detail::columns_of(b), conj);
  return 0;
}

// Bytes of level-0 team scratch that team::potri uses; with less it still
// works, with one thread per column product.
template <class T, class ExecSpace = Kokkos::DefaultExecutionSpace>
std::size_t potri_scratch_size(int n) {
  return Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                      Kokkos::MemoryUnmanaged>::shmem_size(detail::team_potri_work_count(n)) +
         alignof(T);
}

template <class Member, class AView>
KOKKOS_INLINE_FUNCTION int potri(const Member& member, const AView& A, Uplo uplo = Uplo::Lower) {
  using T = typename AView::value_type;
  if (!detail::square(A)) return -1;
  const int n = static_cast<int>(A.extent(0));
  auto scratch = member.team_scratch(0);
  T* work = static_cast<T*>(
      scratch.get_shmem_aligned(detail::team_potri_work_count(n) * sizeof(T), alignof(T)));
  return detail::team_potri(member, detail::as_lower(detail::strided_of(A), uplo), n, work);
}

template <class Member, class LView>
KOKKOS_INLINE_FUNCTION detail::real_t<typename LView::non_const_value_type> logdet(
    const Member& member, const LView& L, Uplo uplo = Uplo::Lower) {
  using R = detail::real_t<typename LView::non_const_value_type>;
  if (!detail::square(L)) return detail::quiet_nan<R>();
  return detail::team_logdet(member,
                             detail::as_const(detail::as_lower(detail::strided_of(L), uplo)),
                             static_cast<int>(L.extent(0)));
}

}  // namespace team
}  // namespace batchol

#endif
