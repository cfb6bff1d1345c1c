// cuBLAS gemm as the rate reference of a large factorization: a blocked
// Cholesky spends most of its n^3/3 flops in gemm-like trailing updates, so
// gemm's rate at the same n is about what a factorization can approach. CUDA
// builds only, LayoutRight, potrf, batches of at most cuda::per_matrix_max_batch.
#ifndef BATCHOL_BENCH_COMP_CUDA_GEMM_HPP
#define BATCHOL_BENCH_COMP_CUDA_GEMM_HPP

#include <comp_cuda.hpp>

namespace bench {
namespace cuda {

template <class T>
struct GemmState {
  std::string key;
  Kokkos::View<T*, MemSpace> product;  // C, n x n, shared by every matrix
};

}  // namespace cuda

// "cublas_gemm": C = A A^T (n x n times n x n) for each matrix A of the
// batch, in the potrf series' place, on the same fresh input through the same
// protocol. Its GF_per_s counts the gemm's 2 n^3 flops per matrix, so it
// reads against the factorizations' rate (n^3/3 per matrix). It solves
// nothing, so nothing is checked: C is scratch, and the matrices are left as
// they are.
template <class T, class Layout>
class CublasGemmImpl final : public Impl<T, Layout> {
  using State = cuda::GemmState<T>;

 public:
  std::string name() const override { return "cublas_gemm"; }
  bool supports(const Case& c) const override {
    return std::is_same_v<Layout, Kokkos::LayoutRight> && std::is_same_v<Exec, Kokkos::Cuda> &&
           c.routine == Routine::Potrf && c.batch <= cuda::per_matrix_max_batch;
  }
  bool checked() const override { return false; }
  double flops_per_matrix(const Case& c) const override { return 2.0 * double(c.n) * c.n * c.n; }

  void attach(const Exec&, const Case& c, Slot<T, Layout>& s) const override {
    auto aux = std::make_shared<cuda::SharedAux<T, Layout, State>>();
    aux->state = cuda::series_state<State>(std::to_string(c.n), [&] {
      auto st = std::make_shared<State>();
      st->product = Kokkos::View<T*, MemSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "gemm_C"), std::size_t(c.n) * c.n);
      return st;
    });
    s.aux = aux;
  }

  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    const State& st = *static_cast<const cuda::SharedAux<T, Layout, State>&>(*s.aux).state;
    auto& h = cuda::handles(exec);
    const int n = c.n;
    const T one = 1, zero = 0;
    T* product = st.product.data();
    for (std::int64_t i = 0; i < c.batch; ++i) {
      const T* a = s.A.data() + i * std::int64_t(n) * n;
      cuda::check(cuda::gemm(h.blas, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, a, n, a, n, &zero,
                             product, n),
                  "cublas<t>gemm");
    }
  }
};

}  // namespace bench

#endif
