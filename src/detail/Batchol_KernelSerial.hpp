// One thread, one matrix, in place, lower triangle. Every other path must match
// these to rounding: the updates of each element are applied in the same order
// (k ascending), so the blocked team kernel reproduces them.
#ifndef BATCHOL_KERNEL_SERIAL_HPP
#define BATCHOL_KERNEL_SERIAL_HPP

#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Scalar.hpp>
#include <detail/Batchol_Strided.hpp>

namespace batchol::detail {

// Left-looking (Crout) Cholesky, A = L L^T (L L^H for complex A). Returns 0
// or the 1-based column whose pivot is not positive and finite (the real
// part of the updated diagonal entry; a diagonal entry with a NaN or
// infinite imaginary part fails too, as in team_potrf); columns before it
// then hold the factor.
template <class T>
KOKKOS_INLINE_FUNCTION int serial_potrf(Strided<T> a, int n) {
  using R = real_t<T>;
  for (int j = 0; j < n; ++j) {
    R d = real_part(a(j, j));
    for (int k = 0; k < j; ++k) d -= abs2(a(j, k));
    if (!imag_finite(a(j, j)) || !pivot_ok(d)) return j + 1;
    const R s = detail::sqrt(d);
    a(j, j) = T(s);
    for (int i = j + 1; i < n; ++i) {
      T v = a(i, j);
      for (int k = 0; k < j; ++k) v -= a(i, k) * conj_if(true, a(j, k));
      a(i, j) = v / s;
    }
  }
  return 0;
}

// Solve L x = b (Op::TrsvN) or L^T x = b (Op::TrsvT) for nrhs columns of b;
// `conj`: with conj(L) instead of L (complex scalars: L^H instead of L^T).
template <class T>
KOKKOS_INLINE_FUNCTION void serial_trsv(op_t<Op::TrsvN>, Strided<const T> l, int n, Strided<T> b,
                                        int nrhs, bool conj = false) {
  for (int q = 0; q < nrhs; ++q) {
    for (int i = 0; i < n; ++i) {
      T v = b(i, q);
      for (int k = 0; k < i; ++k) v -= conj_if(conj, l(i, k)) * b(k, q);
      b(i, q) = v / conj_if(conj, l(i, i));
    }
  }
}

template <class T>
KOKKOS_INLINE_FUNCTION void serial_trsv(op_t<Op::TrsvT>, Strided<const T> l, int n, Strided<T> b,
                                        int nrhs, bool conj = false) {
  for (int q = 0; q < nrhs; ++q) {
    for (int i = n - 1; i >= 0; --i) {
      T v = b(i, q);
      for (int k = n - 1; k > i; --k) v -= conj_if(conj, l(k, i)) * b(k, q);
      b(i, q) = v / conj_if(conj, l(i, i));
    }
  }
}

// L L^H x = b. `conj`: the factor given is conj(L) (a complex Upper problem
// seen through the transposed strides holds U^T = conj(L)).
template <class T>
KOKKOS_INLINE_FUNCTION void serial_potrs(Strided<const T> l, int n, Strided<T> b, int nrhs,
                                         bool conj = false) {
  serial_trsv(op_t<Op::TrsvN>{}, l, n, b, nrhs, conj);
  serial_trsv(op_t<Op::TrsvT>{}, l, n, b, nrhs, !conj);
}

// Copy the strict lower triangle into the strict upper one (conjugated for
// complex scalars).
template <class T>
KOKKOS_INLINE_FUNCTION void serial_mirror(Strided<T> a, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < i; ++j) a(j, i) = conj_if(true, a(i, j));
}

// log det A = 2 sum log L_jj of a factor (0 for n = 0); for a complex
// factor the diagonal's real part (potrf leaves it real and positive).
template <class T>
KOKKOS_INLINE_FUNCTION real_t<T> serial_logdet(Strided<const T> l, int n) {
  real_t<T> s = 0;
  for (int j = 0; j < n; ++j) s += detail::log(real_part(l(j, j)));
  return 2 * s;
}

// potri's info: 0, or the 1-based column of the first zero on the diagonal of
// the factor (LAPACK ?trtri's test: only an exact zero makes it singular).
template <class T>
KOKKOS_INLINE_FUNCTION int potri_info(Strided<const T> l, int n) {
  for (int j = 0; j < n; ++j)
    if (l(j, j) == T(0)) return j + 1;
  return 0;
}

// inv(A) = inv(L)^T inv(L) in place in the lower triangle, as LAPACK ?potri:
// ?trti2 (columns right to left, each column times the inverse to its right),
// then ?lauu2 (row i of inv(L)^T inv(L) reads only rows i.. of inv(L), so rows
// are overwritten top down, the diagonal entry last). Returns potri_info; the
// matrix is left unchanged when it is nonzero.
template <class T>
KOKKOS_INLINE_FUNCTION int serial_potri(Strided<T> a, int n) {
  if (const int info = potri_info(as_const(a), n)) return info;
  for (int j = n - 1; j >= 0; --j) {
    a(j, j) = T(1) / a(j, j);
    const T ajj = -a(j, j);
    // x := inv(L22) x with x = a(j+1:, j), bottom up so each x_k is still old.
    for (int i = n - 1; i > j; --i) {
      T v = T(0);
      for (int k = j + 1; k <= i; ++k) v += a(i, k) * a(k, j);
      a(i, j) = ajj * v;
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < i; ++c) {
      T v = T(0);
      for (int k = i; k < n; ++k) v += conj_if(true, a(k, i)) * a(k, c);
      a(i, c) = v;
    }
    real_t<T> d = 0;  // real for a Hermitian inverse, as LAPACK's ?lauu2 makes it
    for (int k = i; k < n; ++k) d += abs2(a(k, i));
    a(i, i) = T(d);
  }
  return 0;
}

}  // namespace batchol::detail

#endif
