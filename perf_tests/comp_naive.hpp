// The plain scalar baseline of Lemaitre & Lacassagne: one thread per matrix,
// the textbook triple loops on View subscripts, compiled with the same flags
// as the library. It runs on every execution space.
#ifndef BATCHOL_BENCH_COMP_NAIVE_HPP
#define BATCHOL_BENCH_COMP_NAIVE_HPP

#include <bench_impl.hpp>

namespace bench {

template <class T, class Layout>
struct NaiveKernel {
  Mat3<T, Layout> A, B;
  Info info;
  Case c;

  KOKKOS_INLINE_FUNCTION int potrf(std::int64_t b) const {
    for (int j = 0; j < c.n; ++j) {
      T d = A(b, j, j);
      for (int k = 0; k < j; ++k) d -= A(b, j, k) * A(b, j, k);
      if (!(d > T(0))) return j + 1;
      const T s = batchol::detail::sqrt(d);
      A(b, j, j) = s;
      for (int i = j + 1; i < c.n; ++i) {
        T v = A(b, i, j);
        for (int k = 0; k < j; ++k) v -= A(b, i, k) * A(b, j, k);
        A(b, i, j) = v / s;
      }
    }
    return 0;
  }

  // Solve with the lower (upper) triangle of A, op = identity or transpose.
  KOKKOS_INLINE_FUNCTION void trsv(std::int64_t b, bool lower, bool trans) const {
    // op(T) is lower triangular when exactly one of (lower, !trans) holds.
    const bool forward = lower != trans;
    const auto t = [&](int i, int k) { return trans ? A(b, k, i) : A(b, i, k); };
    for (int q = 0; q < c.nrhs; ++q) {
      if (forward) {
        for (int i = 0; i < c.n; ++i) {
          T v = B(b, i, q);
          for (int k = 0; k < i; ++k) v -= t(i, k) * B(b, k, q);
          B(b, i, q) = v / A(b, i, i);
        }
      } else {
        for (int i = c.n - 1; i >= 0; --i) {
          T v = B(b, i, q);
          for (int k = i + 1; k < c.n; ++k) v -= t(i, k) * B(b, k, q);
          B(b, i, q) = v / A(b, i, i);
        }
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    switch (c.routine) {
      case Routine::Potrf:
        info(b) = potrf(b);
        break;
      case Routine::Trsv:
        trsv(b, c.uplo == batchol::Uplo::Lower, c.trans == batchol::Trans::Transpose);
        break;
      case Routine::Potrs:
        trsv(b, true, false);
        trsv(b, true, true);
        break;
      case Routine::Posv: {
        const int i = potrf(b);
        info(b) = i;
        if (i == 0) {
          trsv(b, true, false);
          trsv(b, true, true);
        }
        break;
      }
      case Routine::Potri:  // not measured: see supports()
      case Routine::Logdet:
      case Routine::PosvMixed:
      case Routine::PotrfShifted:
        break;
    }
  }
};

template <class T, class Layout>
class NaiveImpl final : public Impl<T, Layout> {
 public:
  std::string name() const override { return "naive_loop"; }
  bool supports(const Case& c) const override { return c.basic(); }
  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    Kokkos::parallel_for(
        "bench::naive",
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, c.batch),
        NaiveKernel<T, Layout>{s.A, s.B, s.info, c});
  }
};

}  // namespace bench

#endif
