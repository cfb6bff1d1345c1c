// One thread, one matrix, in place, lower triangle. Every other path must match
// these to rounding: the updates of each element are applied in the same order
// (k ascending), so the blocked team kernel reproduces them.
#ifndef BATCHOL_KERNEL_SERIAL_HPP
#define BATCHOL_KERNEL_SERIAL_HPP

#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Strided.hpp>

namespace batchol::detail {

// Left-looking (Crout) Cholesky. Returns 0 or the 1-based column whose pivot is
// not positive and finite; columns before it then hold the factor.
template <class T>
KOKKOS_INLINE_FUNCTION int serial_potrf(Strided<T> a, int n) {
  for (int j = 0; j < n; ++j) {
    T d = a(j, j);
    for (int k = 0; k < j; ++k) d -= a(j, k) * a(j, k);
    if (!pivot_ok(d)) return j + 1;
    const T s = detail::sqrt(d);
    a(j, j) = s;
    for (int i = j + 1; i < n; ++i) {
      T v = a(i, j);
      for (int k = 0; k < j; ++k) v -= a(i, k) * a(j, k);
      a(i, j) = v / s;
    }
  }
  return 0;
}

// Solve L x = b (Op::TrsvN) or L^T x = b (Op::TrsvT) for nrhs columns of b.
template <class T>
KOKKOS_INLINE_FUNCTION void serial_trsv(op_t<Op::TrsvN>, Strided<const T> l, int n, Strided<T> b,
                                        int nrhs) {
  for (int q = 0; q < nrhs; ++q) {
    for (int i = 0; i < n; ++i) {
      T v = b(i, q);
      for (int k = 0; k < i; ++k) v -= l(i, k) * b(k, q);
      b(i, q) = v / l(i, i);
    }
  }
}

template <class T>
KOKKOS_INLINE_FUNCTION void serial_trsv(op_t<Op::TrsvT>, Strided<const T> l, int n, Strided<T> b,
                                        int nrhs) {
  for (int q = 0; q < nrhs; ++q) {
    for (int i = n - 1; i >= 0; --i) {
      T v = b(i, q);
      for (int k = n - 1; k > i; --k) v -= l(k, i) * b(k, q);
      b(i, q) = v / l(i, i);
    }
  }
}

template <class T>
KOKKOS_INLINE_FUNCTION void serial_potrs(Strided<const T> l, int n, Strided<T> b, int nrhs) {
  serial_trsv(op_t<Op::TrsvN>{}, l, n, b, nrhs);
  serial_trsv(op_t<Op::TrsvT>{}, l, n, b, nrhs);
}

// Copy the strict lower triangle into the strict upper one.
template <class T>
KOKKOS_INLINE_FUNCTION void serial_mirror(Strided<T> a, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < i; ++j) a(j, i) = a(i, j);
}

}  // namespace batchol::detail

#endif
