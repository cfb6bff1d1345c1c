// The data every implementation of a case starts from, generated on the
// execution space: a batch of SPD matrices, its Cholesky factor, and the
// right-hand sides. Entries come from a counter-based hash, so the same case
// gives the same numbers on every device and layout, without any host work.
#ifndef BATCHOL_BENCH_DATA_HPP
#define BATCHOL_BENCH_DATA_HPP

#include <bench_env.hpp>
#include <bench_problem.hpp>

#include <detail/Batchol_Compat.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace bench {

template <class T, class Layout>
using Mat3 = Kokkos::View<T***, Layout, MemSpace>;
template <class T, class Layout>
using Vec2 = Kokkos::View<T**, Layout, MemSpace, Kokkos::MemoryUnmanaged>;
using Info = Kokkos::View<int*, MemSpace>;

// A uniform number in [0, 1) from a 64-bit counter (splitmix64 finalizer).
KOKKOS_INLINE_FUNCTION double hash_unit(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

// Symmetric, off-diagonal entries in [-1, 1), diagonal in [n, n+1): strictly
// diagonally dominant, so SPD with eigenvalues in [1, 2n+1] (condition < 2n+1).
// Cholesky never pivots, so the values do not change the timing.
template <class T, class Layout>
struct FillSpd {
  Mat3<T, Layout> A;
  int n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    const std::uint64_t base = static_cast<std::uint64_t>(b) * std::uint64_t(n) * std::uint64_t(n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        const double u = hash_unit(base + std::uint64_t(i) * n + j);
        const T v = i == j ? T(n + u) : T(2 * u - 1);
        A(b, i, j) = v;
        A(b, j, i) = v;
      }
  }
};

// FillSpd's matrix with its leading 2 x 2 block replaced by [1 m; m 1],
// m = 1 - 2^-40, and that block's rows and columns otherwise zero: SPD in
// double (the second pivot is about 2^-39), exactly singular in float, where m
// rounds to 1 and the second pivot is 1 - 1 * 1 whatever the order of the
// operations (posv_mixed's fallback data).
template <class T, class Layout>
struct MakeFloatSingular {
  Mat3<T, Layout> A;
  int n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 2 && j < i; ++j) {
        const T v = i == 1 ? T(1) - T(1) / T(1099511627776.0) : T(0);
        A(b, i, j) = v;
        A(b, j, i) = v;
      }
    A(b, 0, 0) = T(1);
    if (n > 1) A(b, 1, 1) = T(1);
  }
};

template <class T, class Layout>
struct FillRhs {
  Mat3<T, Layout> B;
  int n, nrhs;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    const std::uint64_t base =
        (std::uint64_t(1) << 62) + static_cast<std::uint64_t>(b) * std::uint64_t(n) * nrhs;
    for (int i = 0; i < n; ++i)
      for (int q = 0; q < nrhs; ++q)
        B(b, i, q) = T(hash_unit(base + std::uint64_t(i) * nrhs + q) - 0.5);
  }
};

// The reference factor for the solve benchmarks: L in the lower triangle and
// L^T in the upper one, so that trsv on either triangle sees a well-conditioned
// triangular matrix. Computed with the plain scalar algorithm, not with Batchol.
template <class T, class Layout>
struct FactorMirrored {
  Mat3<T, Layout> A;
  int n;
  // (64-bit indices: with int ones GCC 12 inlined into Kokkos 4's OpenMP
  // parallel_for warns that i = j + 1 could overflow.)
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    for (std::int64_t j = 0; j < n; ++j) {
      T d = A(b, j, j);
      for (std::int64_t k = 0; k < j; ++k) d -= A(b, j, k) * A(b, j, k);
      const T s = batchol::detail::sqrt(d);
      A(b, j, j) = s;
      for (std::int64_t i = j + 1; i < n; ++i) {
        T v = A(b, i, j);
        for (std::int64_t k = 0; k < j; ++k) v -= A(b, i, k) * A(b, j, k);
        A(b, i, j) = v / s;
        A(b, j, i) = v / s;
      }
    }
  }
};

// The same factor a column at a time, every matrix at once: for large
// orders, where a thread per matrix would take minutes (n = 8192: 1.8e11
// dependent flops on one thread). Pivot takes column j's diagonal, the call
// operator row j + 1 + e % (n - j - 1) of matrix e / (n - j - 1); the
// arithmetic is FactorMirrored's.
template <class T, class Layout>
struct FactorColumn {
  struct Pivot {};
  Mat3<T, Layout> A;
  std::int64_t n, j;
  KOKKOS_INLINE_FUNCTION void operator()(Pivot, const std::int64_t b) const {
    T d = A(b, j, j);
    for (std::int64_t k = 0; k < j; ++k) d -= A(b, j, k) * A(b, j, k);
    A(b, j, j) = batchol::detail::sqrt(d);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const std::int64_t rows = n - j - 1, b = e / rows, i = j + 1 + e % rows;
    T v = A(b, i, j);
    for (std::int64_t k = 0; k < j; ++k) v -= A(b, i, k) * A(b, j, k);
    const T l = v / A(b, j, j);
    A(b, i, j) = l;
    A(b, j, i) = l;
  }
};

// The Views one run of a kernel touches. B is (batch, n, nrhs); a routine
// taking a rank-2 right-hand side sees the same memory through b2().
template <class T, class Layout>
struct Slot {
  struct Aux {
    virtual ~Aux() = default;
    // Restores input the implementation keeps outside A and B (e.g. in its own
    // storage format) along with them.
    virtual void restore() {}
  };
  Mat3<T, Layout> A, B;
  Info info;
  // Results that are neither in A nor in B, only written: potrf_shifted's
  // factor L (its A is only read), logdet's values and potrf_shifted's shifts
  // (out), posv_mixed's refinement steps (iter).
  Mat3<T, Layout> L;
  Kokkos::View<T*, MemSpace> out;
  Info iter;
  std::shared_ptr<Aux> aux;  // per-slot state of an implementation (pointer arrays, ...)

  Vec2<T, Layout> b2() const { return Vec2<T, Layout>(B.data(), B.extent(0), B.extent(1)); }

  // outputs: false for the pristine input, which needs no result Views.
  static Slot allocate(const Case& c, const std::string& label, bool outputs = true) {
    Slot s;
    const auto alloc = [&](const char* what) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, label + what);
    };
    s.A = Mat3<T, Layout>(alloc("_A"), c.batch, c.n, c.n);
    if (c.has_rhs()) s.B = Mat3<T, Layout>(alloc("_B"), c.batch, c.n, c.nrhs);
    s.info = Info(alloc("_info"), c.batch);
    if (!outputs) return s;
    // Values no correct run leaves, so that an implementation that writes
    // nothing fails its check.
    if (c.routine == Routine::PotrfShifted) s.L = Mat3<T, Layout>(alloc("_L"), c.batch, c.n, c.n);
    if (c.routine == Routine::Logdet || c.routine == Routine::PotrfShifted) {
      s.out = Kokkos::View<T*, MemSpace>(alloc("_out"), c.batch);
      Kokkos::deep_copy(s.out, std::numeric_limits<T>::quiet_NaN());
    }
    if (c.routine == Routine::PosvMixed) {
      s.iter = Info(alloc("_iter"), c.batch);
      Kokkos::deep_copy(s.iter, std::numeric_limits<int>::min());
    }
    return s;
  }

  void copy_from(const Exec& exec, const Slot& src) const {
    Kokkos::deep_copy(exec, A, src.A);
    if (B.size()) Kokkos::deep_copy(exec, B, src.B);
    Kokkos::deep_copy(exec, info, 0);
    if (aux) aux->restore();
  }

  std::size_t bytes() const {
    return (A.size() + B.size() + L.size() + out.size()) * sizeof(T) +
           (info.size() + iter.size()) * sizeof(int);
  }
};

// The canonical data of a case: A0 the SPD batch, F0 its mirrored factor (for
// the solves), B0 the right-hand sides; with host copies for the checks.
template <class T, class Layout>
struct DataSet {
  Case c;
  Mat3<T, Layout> A0, F0, B0;
  Kokkos::View<T***, Layout, Kokkos::HostSpace> hA0, hF0, hB0;

  // The input of the canonical format: A0 or F0, and B0.
  Slot<T, Layout> canonical_input() const {
    Slot<T, Layout> s;
    s.A = c.starts_from_factor() ? F0 : A0;
    s.B = B0;
    return s;
  }

  static DataSet make(const Exec& exec, const Case& c) {
    DataSet d;
    d.c = c;
    const Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>> range(exec, 0, c.batch);
    d.A0 =
        Mat3<T, Layout>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A0"), c.batch, c.n, c.n);
    Kokkos::parallel_for("bench::fill_spd", range, FillSpd<T, Layout>{d.A0, c.n});
    if (c.float_fails)
      Kokkos::parallel_for("bench::float_singular", range, MakeFloatSingular<T, Layout>{d.A0, c.n});
    if (c.starts_from_factor()) {
      d.F0 =
          Mat3<T, Layout>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "F0"), c.batch, c.n, c.n);
      if (c.n <= 128) {
        Kokkos::deep_copy(exec, d.F0, d.A0);
        Kokkos::parallel_for("bench::factor", range, FactorMirrored<T, Layout>{d.F0, c.n});
      } else {
        // On a LayoutLeft copy: a column step's threads read consecutive rows.
        using Left = Kokkos::LayoutLeft;
        using Index = Kokkos::IndexType<std::int64_t>;
        using Pivot = typename FactorColumn<T, Left>::Pivot;
        Mat3<T, Left> left(Kokkos::view_alloc(Kokkos::WithoutInitializing, "F0_left"), c.batch, c.n,
                           c.n);
        Kokkos::deep_copy(exec, left, d.A0);
        for (std::int64_t j = 0; j < c.n; ++j) {
          const FactorColumn<T, Left> f{left, c.n, j};
          Kokkos::parallel_for("bench::factor_pivot",
                               Kokkos::RangePolicy<Exec, Pivot, Index>(exec, 0, c.batch), f);
          Kokkos::parallel_for("bench::factor_column",
                               Kokkos::RangePolicy<Exec, Index>(exec, 0, c.batch * (c.n - j - 1)),
                               f);
        }
        Kokkos::deep_copy(exec, d.F0, left);
      }
    }
    if (c.has_rhs()) {
      d.B0 = Mat3<T, Layout>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B0"), c.batch, c.n,
                             c.nrhs);
      Kokkos::parallel_for("bench::fill_rhs", range, FillRhs<T, Layout>{d.B0, c.n, c.nrhs});
    }
    exec.fence();
    d.hA0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.A0);
    if (d.F0.size()) d.hF0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.F0);
    if (d.B0.size()) d.hB0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.B0);
    return d;
  }
};

}  // namespace bench

#endif
