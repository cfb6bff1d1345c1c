// Eigen's fixed-size LLT, one matrix at a time in an OpenMP parallel loop, for
// the small sizes Eigen unrolls at compile time. Host execution spaces only.
#ifndef BATCHOL_BENCH_COMP_EIGEN_HPP
#define BATCHOL_BENCH_COMP_EIGEN_HPP

#include <bench_impl.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace bench {

// The sizes instantiated (the harness' default grid up to 16).
inline constexpr int eigen_sizes[] = {2, 3, 4, 5, 6, 8, 10, 12, 16};

template <int N, class T, class Layout>
void eigen_llt(const Case& c, const Slot<T, Layout>& s) {
  using Mat = Eigen::Matrix<T, N, N>;
  using Vec = Eigen::Matrix<T, N, 1>;
  using Strides = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
  const Eigen::Index a_rs = s.A.stride(1), a_cs = s.A.stride(2);
  const Eigen::Index b_rs = c.has_rhs() ? s.B.stride(1) : 0;
  const bool solve = c.routine == Routine::Posv;
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < c.batch; ++b) {
    // Eigen's Stride<outer, inner> on a column-major map: outer = column stride.
    Eigen::Map<Mat, 0, Strides> a(&s.A(b, 0, 0), N, N, Strides(a_cs, a_rs));
    Eigen::LLT<Mat> llt(a);
    if (llt.info() != Eigen::Success) {
      s.info(b) = 1;  // Eigen does not say which minor failed
      continue;
    }
    a.template triangularView<Eigen::Lower>() = llt.matrixL();
    s.info(b) = 0;
    if (solve) {
      Eigen::Map<Vec, 0, Eigen::InnerStride<>> x(&s.B(b, 0, 0), N, Eigen::InnerStride<>(b_rs));
      x = llt.solve(Vec(x));
    }
  }
}

template <class T, class Layout>
class EigenImpl final : public Impl<T, Layout> {
 public:
  std::string name() const override { return "eigen_llt"; }
  bool supports(const Case& c) const override {
    // posv solves one right-hand side (a fixed-size vector).
    const bool posv = c.routine == Routine::Posv && c.nrhs == 1;
    if (!exec_is_host || (c.routine != Routine::Potrf && !posv)) return false;
    for (const int n : eigen_sizes)
      if (n == c.n) return true;
    return false;
  }
  void run(const Exec&, const Case& c, const Slot<T, Layout>& s) const override {
    if constexpr (exec_is_host)
      dispatch(c, s, std::integer_sequence<int, 2, 3, 4, 5, 6, 8, 10, 12, 16>{});
  }

 private:
  template <int... Ns>
  static void dispatch(const Case& c, const Slot<T, Layout>& s, std::integer_sequence<int, Ns...>) {
    ((c.n == Ns ? eigen_llt<Ns>(c, s) : void()), ...);
  }
};

}  // namespace bench

#endif
