// One team, one matrix, lower triangle: Kurzak et al.'s non-resident
// left-looking Cholesky. The current panel of NB columns lives in a work buffer
// (team scratch) while each thread accumulates its row of the panel update in a
// register array; the panels to its left are streamed from A. Rows are spread
// over the team's threads. Each element receives its updates in the same order
// as serial_potrf, so the two agree to the bit when the compiler contracts alike.
//
// Complex Hermitian matrices (A = L L^H) take the same code: the updates
// multiply by the conjugate, and the pivot is the real part of the updated
// diagonal. As in LAPACK's ?potrf the imaginary part of A's diagonal is not
// used (a Hermitian matrix built in floating point may carry rounding
// there), but a NaN or infinite one fails as a bad pivot would, at its
// column. For real scalars each of these is the identity
// (Batchol_Scalar.hpp).
#ifndef BATCHOL_KERNEL_TEAM_HPP
#define BATCHOL_KERNEL_TEAM_HPP

#include <detail/Batchol_KernelSerial.hpp>
#include <detail/Batchol_Scalar.hpp>

namespace batchol::detail {

// Panel width of the Generic path: the register array is NB wide, and the work
// buffer is n x NB scalars.
inline constexpr int generic_nb = 8;

KOKKOS_INLINE_FUNCTION constexpr std::size_t team_potrf_work_count(int n) {
  return static_cast<std::size_t>(n) * generic_nb;
}

// work: team_potrf_work_count(n) scalars shared by the team, or nullptr to
// factor each panel in place (same result, more traffic to A). `flush`
// (Options::fast_math on the Generic path): a subnormal pivot fails, as on
// the paths whose approximate square roots flush it to zero, so that every
// path reports the same info; nothing else changes.
template <class Member, class T>
KOKKOS_INLINE_FUNCTION int team_potrf(const Member& member, Strided<T> a, int n, T* work,
                                      bool flush = false) {
  using R = real_t<T>;
  constexpr int NB = generic_nb;
  int info = 0;
  for (int k0 = 0; k0 < n && info == 0; k0 += NB) {
    const int w = min_int(NB, n - k0);
    const int rows = n - k0;
    const Strided<T> p = work ? Strided<T>{work, 1, rows} : Strided<T>{&a(k0, k0), a.rs, a.cs};

    // Load the panel and apply every column to its left.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, rows), [&](const int r) {
      const int i = k0 + r;
      const int cols = min_int(w, r + 1);
      T acc[NB];
      for (int c = 0; c < NB; ++c) acc[c] = c < cols ? a(i, k0 + c) : T(0);
      for (int k = 0; k < k0; ++k) {
        const T aik = a(i, k);
        for (int c = 0; c < NB; ++c)
          if (c < cols) acc[c] -= aik * conj_if(true, a(k0 + c, k));
      }
      // A diagonal entry whose imaginary part is NaN or infinite: its pivot fails.
      if (r < w && !imag_finite(a(i, i))) acc[r] = T(quiet_nan<R>());
      for (int c = 0; c < NB; ++c)
        if (c < cols) p(r, c) = acc[c];
    });
    member.team_barrier();

    // Factor the panel right-looking. The diagonal entry keeps the pivot until
    // the second barrier, so that every thread reads the same pivot first.
    for (int j = 0; j < w; ++j) {
      const R d = real_part(p(j, j));
      // Every thread sees the same d: the team leaves together.
      if (!pivot_ok(d) || (flush && d < Limits<R>::min_normal)) {
        info = k0 + j + 1;
        break;
      }
      const R s = detail::sqrt(d);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, j + 1, rows),
                           [&](const int r) { p(r, j) = p(r, j) / s; });
      member.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, j, rows), [&](const int r) {
        if (r == j) {
          p(j, j) = T(s);
          return;
        }
        const T lrj = p(r, j);
        const int last = min_int(w - 1, r);
        for (int c = j + 1; c <= last; ++c) p(r, c) -= lrj * conj_if(true, p(c, j));
      });
      member.team_barrier();
    }

    if (work) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, rows), [&](const int r) {
        const int cols = min_int(w, r + 1);
        for (int c = 0; c < cols; ++c) a(k0 + r, k0 + c) = p(r, c);
      });
      member.team_barrier();
    }
  }
  return info;
}

// Solve with L or L^T for nrhs columns of b, column-oriented. The solved entry
// of step j is divided in place one step later, when nobody reads it any more,
// which leaves a single barrier per column. `conj`: with conj(L) instead of L
// (complex scalars: L^H instead of L^T).
template <class Member, class T>
KOKKOS_INLINE_FUNCTION void team_trsv(const Member& member, op_t<Op::TrsvN>, Strided<const T> l,
                                      int n, Strided<T> b, int nrhs, bool conj = false) {
  for (int j = 0; j < n; ++j) {
    const T ljj = conj_if(conj, l(j, j));
    const int first = j > 0 ? j - 1 : j + 1;  // row j-1 gets its final division here
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, (n - first) * nrhs), [&](const int t) {
      const int r = first + t / nrhs;
      const int q = t % nrhs;
      if (r == j - 1) {
        b(r, q) = b(r, q) / conj_if(conj, l(r, r));
      } else if (r > j) {
        b(r, q) -= conj_if(conj, l(r, j)) * (b(j, q) / ljj);
      }
    });
    member.team_barrier();
  }
  if (n > 0) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, nrhs), [&](const int q) {
      b(n - 1, q) = b(n - 1, q) / conj_if(conj, l(n - 1, n - 1));
    });
    member.team_barrier();
  }
}

template <class Member, class T>
KOKKOS_INLINE_FUNCTION void team_trsv(const Member& member, op_t<Op::TrsvT>, Strided<const T> l,
                                      int n, Strided<T> b, int nrhs, bool conj = false) {
  for (int j = n - 1; j >= 0; --j) {
    const T ljj = conj_if(conj, l(j, j));
    const int end = j < n - 1 ? j + 2 : j;  // row j+1 gets its final division here
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, end * nrhs), [&](const int t) {
      const int r = t / nrhs;
      const int q = t % nrhs;
      if (r == j + 1) {
        b(r, q) = b(r, q) / conj_if(conj, l(r, r));
      } else if (r < j) {
        b(r, q) -= conj_if(conj, l(j, r)) * (b(j, q) / ljj);
      }
    });
    member.team_barrier();
  }
  if (n > 0) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, nrhs),
                         [&](const int q) { b(0, q) = b(0, q) / conj_if(conj, l(0, 0)); });
    member.team_barrier();
  }
}

// L L^H x = b. `conj`: the factor given is conj(L) (a complex Upper problem
// seen through the transposed strides holds U^T = conj(L)).
template <class Member, class T>
KOKKOS_INLINE_FUNCTION void team_potrs(const Member& member, Strided<const T> l, int n,
                                       Strided<T> b, int nrhs, bool conj = false) {
  team_trsv(member, op_t<Op::TrsvN>{}, l, n, b, nrhs, conj);
  team_trsv(member, op_t<Op::TrsvT>{}, l, n, b, nrhs, !conj);
}

template <class Member, class T>
KOKKOS_INLINE_FUNCTION void team_mirror(const Member& member, Strided<T> a, int n) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, n), [&](const int i) {
    for (int j = 0; j < i; ++j) a(j, i) = conj_if(true, a(i, j));
  });
  member.team_barrier();
}

template <class Member, class T>
KOKKOS_INLINE_FUNCTION real_t<T> team_logdet(const Member& member, Strided<const T> l, int n) {
  using R = real_t<T>;
  R s = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(member, n),
      [&](const int j, R& acc) { acc += detail::log(real_part(l(j, j))); }, s);
  return 2 * s;
}

// work scratch of team_potri: one column.
KOKKOS_INLINE_FUNCTION constexpr std::size_t team_potri_work_count(int n) {
  return static_cast<std::size_t>(n);
}

// serial_potri with the rows spread over the team. work: team_potri_work_count(n)
// scalars shared by the team, or nullptr to run each column's product on one
// thread (same result).
template <class Member, class T>
KOKKOS_INLINE_FUNCTION int team_potri(const Member& member, Strided<T> a, int n, T* work) {
  // Every thread reads the whole diagonal: the team leaves together.
  if (const int info = potri_info(as_const(a), n)) return info;
  for (int j = n - 1; j >= 0; --j) {
    const T ajj = -T(1) / a(j, j);
    if (work) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, j + 1, n), [&](const int i) {
        T v = T(0);
        for (int k = j + 1; k <= i; ++k) v += a(i, k) * a(k, j);
        work[i] = ajj * v;
      });
      member.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, j, n),
                           [&](const int i) { a(i, j) = i == j ? -ajj : work[i]; });
    } else {
      Kokkos::single(Kokkos::PerTeam(member), [&]() {
        for (int i = n - 1; i > j; --i) {
          T v = T(0);
          for (int k = j + 1; k <= i; ++k) v += a(i, k) * a(k, j);
          a(i, j) = ajj * v;
        }
        a(j, j) = -ajj;
      });
    }
    member.team_barrier();
  }
  for (int i = 0; i < n; ++i) {
    // The off-diagonal entries of row i first: all of them read a(i, i).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, i + 1), [&](const int c) {
      if (c == i) return;
      T v = T(0);
      for (int k = i; k < n; ++k) v += conj_if(true, a(k, i)) * a(k, c);
      a(i, c) = v;
    });
    member.team_barrier();
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      real_t<T> d = 0;  // real for a Hermitian inverse, as LAPACK's ?lauu2 makes it
      for (int k = i; k < n; ++k) d += abs2(a(k, i));
      a(i, i) = T(d);
    });
    member.team_barrier();
  }
  return 0;
}

}  // namespace batchol::detail

#endif
