// The one data shape every kernel works on: a pointer and two 64-bit strides.
// The public layer turns any View layout into this, and an Upper problem into a
// Lower one by swapping the strides (the upper triangle of A is the lower
// triangle of its transpose), so each algorithm exists once.
#ifndef BATCHOL_STRIDED_HPP
#define BATCHOL_STRIDED_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Problem.hpp>

#include <cstddef>
#include <cstdint>

namespace batchol::detail {

template <class T>
struct Strided {
  T* p;
  std::ptrdiff_t rs;  // distance between rows
  std::ptrdiff_t cs;  // distance between columns

  KOKKOS_FORCEINLINE_FUNCTION T& operator()(std::ptrdiff_t i, std::ptrdiff_t j) const {
    return p[i * rs + j * cs];
  }
  // The same storage seen as the transpose.
  KOKKOS_FORCEINLINE_FUNCTION Strided transposed() const { return {p, cs, rs}; }
};

// The lower-triangle view of a matrix stored in triangle `uplo`.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<T> as_lower(Strided<T> a, Uplo uplo) {
  return uplo == Uplo::Lower ? a : a.transposed();
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<const T> as_const(Strided<T> a) {
  return {a.p, a.rs, a.cs};
}

// Matrix i of a problem, its right-hand sides and its info.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<T> matrix_of(const Problem<T>& pr, std::int64_t i) {
  return {pr.a + i * pr.a_bs, pr.a_rs, pr.a_cs};
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<T> rhs_of(const Problem<T>& pr, std::int64_t i) {
  return {pr.b + i * pr.b_bs, pr.b_rs, pr.b_cs};
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION int& info_of(const Problem<T>& pr, std::int64_t i) {
  return pr.info[i * pr.info_s];
}

// The same for matrix i of order n_i of a variable-size batch (padded or
// packed, Batchol_Problem.hpp).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION int order_of(const Problem<T>& pr, std::int64_t i) {
  return pr.orders[i * pr.orders_s];
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<T> matrix_of(const Problem<T>& pr, std::int64_t i, int n_i) {
  T* p = pr.a_off ? pr.a + pr.a_off[i * pr.a_off_s] : pr.a + i * pr.a_bs;
  return {p, pr.a_rs + pr.a_rn * n_i, pr.a_cs + pr.a_cn * n_i};
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION Strided<T> rhs_of(const Problem<T>& pr, std::int64_t i, int n_i) {
  T* p = pr.b_off ? pr.b + pr.b_off[i * pr.b_off_s] : pr.b + i * pr.b_bs;
  return {p, pr.b_rs + pr.b_rn * n_i, pr.b_cs + pr.b_cn * n_i};
}
// 0 when matrix i of a variable-size batch, of order n_i, and its right-hand
// sides (`rhs`) lie where the problem says they may; else its info code
// (var_bad_order, var_bad_matrix, var_bad_rhs).
template <class T>
KOKKOS_INLINE_FUNCTION int var_check(const Problem<T>& pr, std::int64_t i, int n_i, bool rhs) {
  if (n_i < 0 || n_i > pr.n) return var_bad_order;
  const std::int64_t nn = std::int64_t(n_i) * n_i;
  if (pr.a_off) {
    const std::int64_t off = pr.a_off[i * pr.a_off_s];
    if (off < 0 || off > pr.a_count - nn) return var_bad_matrix;
  }
  if (rhs && pr.b_off) {
    const std::int64_t off = pr.b_off[i * pr.b_off_s];
    if (off < 0 || off > pr.b_count - std::int64_t(n_i) * pr.nrhs) return var_bad_rhs;
  }
  return 0;
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION typename real_of<T>::type& out_of(const Problem<T>& pr,
                                                              std::int64_t i) {
  return pr.out[i * pr.out_s];
}

// Pivot test for every path: rejects <= 0, NaN and +Inf in one expression.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool pivot_ok(T d) {
  return d > T(0) && d <= Limits<T>::max;
}

KOKKOS_FORCEINLINE_FUNCTION int min_int(int a, int b) {
  return a < b ? a : b;
}

}  // namespace batchol::detail

#endif
