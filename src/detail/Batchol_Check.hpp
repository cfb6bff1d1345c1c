// Argument checks of the host-level calls. Everything here runs before any
// launch; a bad argument throws std::invalid_argument naming it.
#ifndef BATCHOL_CHECK_HPP
#define BATCHOL_CHECK_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Problem.hpp>

#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace batchol::detail {

[[noreturn]] inline void fail(const char* routine, const char* argument, const std::string& what) {
  throw std::invalid_argument(std::string("batchol::") + routine + ": argument '" + argument +
                              "' " + what);
}

inline std::string str(std::size_t v) {
  return std::to_string(v);
}

// Compile-time requirements on a View argument: the wrong rank, scalar type or
// memory space is a compile error, not a run-time surprise.
template <class ExecSpace, class View, int Rank>
constexpr void static_check_view() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "batchol: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<View>::value, "batchol: arguments must be Kokkos::View");
  static_assert(rank_v<View> == Rank, "batchol: a View argument has the wrong rank");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "batchol: a View argument is not accessible from the execution space");
}

template <class View>
constexpr void static_check_scalar() {
  using T = typename View::non_const_value_type;
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "batchol: the scalar type must be float or double (complex scalars: potrf, "
                "potrs, posv, trsv, potri, logdet and potrf_shifted)");
}

// COMPLEX: the routine also takes Kokkos::complex<float> and
// Kokkos::complex<double> (Hermitian matrices).
template <class View, bool COMPLEX>
constexpr void static_check_scalar_of() {
  using T = typename View::non_const_value_type;
  if constexpr (COMPLEX && !std::is_same_v<T, float> && !std::is_same_v<T, double>)
    static_assert(
        std::is_same_v<T, Kokkos::complex<float>> || std::is_same_v<T, Kokkos::complex<double>>,
        "batchol: the scalar type must be float, double, Kokkos::complex<float> or "
        "Kokkos::complex<double>");
  else
    static_check_scalar<View>();
}

template <class ExecSpace, class AView, bool COMPLEX = false>
void check_matrices(const char* routine, const AView& A) {
  static_check_view<ExecSpace, AView, 3>();
  static_check_scalar_of<AView, COMPLEX>();
  if (A.extent(1) != A.extent(2))
    fail(routine, "A",
         "must be square in its last two extents (batch, n, n); got (" + str(A.extent(0)) + ", " +
             str(A.extent(1)) + ", " + str(A.extent(2)) + ")");
  if (A.extent(1) > std::size_t(INT_MAX)) fail(routine, "A", "has n > INT_MAX");
}

// info for a batch of `batch` matrices.
template <class ExecSpace, class InfoView>
void check_info_of(const char* routine, std::size_t batch, const InfoView& info) {
  static_check_view<ExecSpace, InfoView, 1>();
  static_assert(std::is_same_v<typename InfoView::value_type, int>,
                "batchol: info must be a View<int*> (non-const)");
  if (info.extent(0) != batch)
    fail(routine, "info",
         "must have one entry per matrix: extent " + str(info.extent(0)) + " for a batch of " +
             str(batch));
}

template <class ExecSpace, class AView, class InfoView>
void check_info(const char* routine, const AView& A, const InfoView& info) {
  check_info_of<ExecSpace>(routine, A.extent(0), info);
}

// One output value per matrix of A (logdet's), of A's real scalar type (the
// scalar type itself for float and double).
template <class ExecSpace, class AView, class OutView>
void check_out(const char* routine, const char* name, const AView& A, const OutView& out) {
  static_check_view<ExecSpace, OutView, 1>();
  static_assert(std::is_same_v<typename OutView::value_type,
                               typename real_of<typename AView::non_const_value_type>::type>,
                "batchol: a per-matrix output must be a non-const View of the real scalar type "
                "of A");
  if (out.extent(0) != A.extent(0))
    fail(routine, name,
         "must have one entry per matrix: extent " + str(out.extent(0)) + " for a batch of " +
             str(A.extent(0)));
}

// Right-hand sides B of scalar T for `batch` systems of order n (the largest
// order of a variable-size batch).
template <class ExecSpace, class T, class BView>
void check_rhs_of(const char* routine, const char* name, std::size_t batch, std::size_t n,
                  const BView& B) {
  static_assert(rank_v<BView> == 2 || rank_v<BView> == 3,
                "batchol: right-hand sides must be a View of rank 2 (batch, n) or 3 (batch, n, "
                "nrhs)");
  static_check_view<ExecSpace, BView, rank_v<BView>>();
  static_assert(!std::is_const_v<typename BView::value_type>,
                "batchol: right-hand sides are overwritten by the solution and cannot be const");
  static_assert(std::is_same_v<typename BView::value_type, T>,
                "batchol: A and the right-hand sides must have the same scalar type");
  if (B.extent(0) != batch)
    fail(routine, name,
         "must hold one system per matrix: extent(0) is " + str(B.extent(0)) + " for a batch of " +
             str(batch));
  if (B.extent(1) != n)
    fail(routine, name, "must have n = " + str(n) + " rows; got extent(1) = " + str(B.extent(1)));
  if (rank_v<BView> == 3 && B.extent(rank_v<BView> - 1) > std::size_t(INT_MAX))
    fail(routine, name, "has nrhs > INT_MAX");
}

template <class ExecSpace, class AView, class BView>
void check_rhs(const char* routine, const char* name, const AView& A, const BView& B) {
  check_rhs_of<ExecSpace, typename AView::non_const_value_type>(routine, name, A.extent(0),
                                                                A.extent(1), B);
}

inline void check_options(const char* routine, const Options& opts) {
  if (opts.uplo != Uplo::Lower && opts.uplo != Uplo::Upper)
    fail(routine, "opts.uplo", "must be Uplo::Lower or Uplo::Upper");
  if (opts.path != Path::Auto && opts.path != Path::Generic && opts.path != Path::Host &&
      opts.path != Path::Cuda && opts.path != Path::Blocked)
    fail(routine, "opts.path", "must be Path::Auto, Generic, Host, Cuda or Blocked");
}

}  // namespace batchol::detail

#endif
