// cuSOLVER's dense routines for one matrix, its 64-bit API (cusolverDnXpotrf,
// cusolverDnXpotrs), called once per matrix of the batch: what a user with one
// or a few large matrices calls, and the reference for Batchol's large-matrix
// factorization. Only on batches of at most cuda::per_matrix_max_batch, and
// like the other NVIDIA competitors only on LayoutRight batches (each matrix
// contiguous, read column-major). CUDA builds only.
#ifndef BATCHOL_BENCH_COMP_CUDA_XPOTRF_HPP
#define BATCHOL_BENCH_COMP_CUDA_XPOTRF_HPP

#include <comp_cuda.hpp>

#include <algorithm>
#include <memory>

namespace bench {
namespace cuda {

// What every slot of a series shares, made once, untimed: cuSOLVER's
// parameters and workspaces, and a column-major copy of one matrix's
// right-hand sides.
template <class T>
struct XpotrfState {
  std::string key;
  cusolverDnParams_t params = nullptr;
  Kokkos::View<char*, MemSpace> device;  // Xpotrf's workspaces
  std::unique_ptr<char[]> host;
  std::size_t device_bytes = 0, host_bytes = 0;
  Kokkos::View<T*, MemSpace> rhs;           // n x nrhs column-major, for nrhs > 1
  Kokkos::View<int*, MemSpace> solve_info;  // posv: Xpotrs' info, not over Xpotrf's

  XpotrfState() { check(cusolverDnCreateParams(&params), "cusolverDnCreateParams"); }
  ~XpotrfState() { cusolverDnDestroyParams(params); }
  XpotrfState(const XpotrfState&) = delete;
  XpotrfState& operator=(const XpotrfState&) = delete;
};

// src is rows x cols column-major; dst gets its transpose, cols x rows.
template <class T>
void transpose(cublasHandle_t h, int rows, int cols, const T* src, T* dst) {
  const T one = 1, zero = 0;  // beta = 0: the second operand (src again) is not read
  check(geam(h, CUBLAS_OP_T, CUBLAS_OP_T, cols, rows, &one, src, rows, &zero, src, rows, dst, cols),
        "cublas<t>geam");
}

}  // namespace cuda

// "cusolver_xpotrf": potrf (Xpotrf), potrs (Xpotrs), posv (Xpotrf then
// Xpotrs), any number of right-hand sides.
//
// Batchol's lower triangle of a row-major matrix is cuSOLVER's upper one
// column-major, so the fill mode is upper, as for "cusolver";
// "cusolver_xpotrf_upper" takes cuSOLVER's lower fill mode, Batchol's upper
// triangle (the matrices hold both), as "cusolver_upper" does: on an H200
// Xpotrf is 2.6x faster that way at n = 4096 (1.8 against 4.8 ms). The right-hand
// sides of a LayoutRight batch are row-major n x nrhs, which Xpotrs cannot
// take: with more than one, each matrix's are transposed to a column-major
// buffer and back by cuBLAS geam, timed, as a user holding them row-major
// would have to (about 4 n nrhs values moved against 2 n^2 nrhs flops).
template <class T, class Layout>
class CusolverXpotrfImpl final : public Impl<T, Layout> {
  using State = cuda::XpotrfState<T>;
  bool upper_;  // Batchol's upper triangle: cuSOLVER's lower fill mode
  cublasFillMode_t fill;

 public:
  explicit CusolverXpotrfImpl(bool upper)
      : upper_(upper), fill(upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER) {}
  std::string name() const override { return upper_ ? "cusolver_xpotrf_upper" : "cusolver_xpotrf"; }
  FactorKind factor_kind() const override {
    return upper_ ? FactorKind::CholUpper : FactorKind::CholLower;
  }
  bool supports(const Case& c) const override {
    return std::is_same_v<Layout, Kokkos::LayoutRight> && std::is_same_v<Exec, Kokkos::Cuda> &&
           c.basic() && c.routine != Routine::Trsv && c.batch <= cuda::per_matrix_max_batch;
  }

  void attach(const Exec& exec, const Case& c, Slot<T, Layout>& s) const override {
    auto& h = cuda::handles(exec);
    auto aux = std::make_shared<cuda::SharedAux<T, Layout, State>>();
    aux->state =
        cuda::series_state<State>(name() + "/" + c.routine_name() + "/" + std::to_string(c.n), [&] {
          auto st = std::make_shared<State>();
          const auto type = cuda::data_type<T>();
          cuda::check(cusolverDnXpotrf_bufferSize(h.solver, st->params, fill, c.n, type, s.A.data(),
                                                  c.n, type, &st->device_bytes, &st->host_bytes),
                      "cusolverDnXpotrf_bufferSize");
          const auto alloc = [](const std::string& label) {
            return Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
          };
          st->device = Kokkos::View<char*, MemSpace>(alloc("xpotrf_work"),
                                                     std::max<std::size_t>(st->device_bytes, 1));
          st->host = std::make_unique<char[]>(std::max<std::size_t>(st->host_bytes, 1));
          if (c.has_rhs() && c.nrhs > 1)
            st->rhs = Kokkos::View<T*, MemSpace>(alloc("xpotrs_rhs"), std::size_t(c.n) * c.nrhs);
          st->solve_info = Kokkos::View<int*, MemSpace>("xpotrs_info", 1);
          return st;
        });
    s.aux = aux;
  }

  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    const State& st = *static_cast<const cuda::SharedAux<T, Layout, State>&>(*s.aux).state;
    auto& h = cuda::handles(exec);
    const auto type = cuda::data_type<T>();
    const std::int64_t n = c.n, nrhs = c.nrhs;
    for (std::int64_t i = 0; i < c.batch; ++i) {
      T* a = s.A.data() + i * n * n;
      if (c.routine != Routine::Potrs)
        cuda::check(
            cusolverDnXpotrf(h.solver, st.params, fill, n, type, a, n, type, st.device.data(),
                             st.device_bytes, st.host.get(), st.host_bytes, s.info.data() + i),
            "cusolverDnXpotrf");
      if (c.routine == Routine::Potrf) continue;
      T* b = s.B.data() + i * n * nrhs;
      T* x = nrhs == 1 ? b : st.rhs.data();  // one column is the same either way
      if (nrhs > 1) cuda::transpose(h.blas, c.nrhs, c.n, b, x);
      // Xpotrs' info only reports a bad argument (so does its status): for
      // posv it must not overwrite Xpotrf's.
      int* info = c.routine == Routine::Posv ? st.solve_info.data() : s.info.data() + i;
      cuda::check(
          cusolverDnXpotrs(h.solver, st.params, fill, n, nrhs, type, a, n, type, x, n, info),
          "cusolverDnXpotrs");
      if (nrhs > 1) cuda::transpose(h.blas, c.n, c.nrhs, x, b);
    }
  }
};

}  // namespace bench

#endif
