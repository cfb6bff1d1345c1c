// Runs the Cuda path through the public API on Kokkos::Cuda and compares it
// with the Generic path on the same inputs: potrf (factor and info, with
// planted failures), posv, potrs and trsv, for LayoutLeft and LayoutRight and
// both triangles, at sizes the kernel table covers and one it does not (that
// one falls back to Generic inside the Cuda path). Needs a GPU; build with
// nvcc_wrapper against a Kokkos with CUDA (see run_kokkos_check.sh).
#include <Batchol.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

using batchol::Options;
using batchol::Path;
using batchol::Trans;
using batchol::Uplo;

// Symmetric, diagonally dominant matrices; every 7th has a negative pivot.
template <class V3>
void fill(const V3& A, int n, bool plant) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Kokkos::Cuda>(0, A.extent(0)), KOKKOS_LAMBDA(int i) {
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            const int lo = r < c ? r : c, hi = r < c ? c : r;
            const unsigned h = (unsigned(i) * 2654435761u) ^ (unsigned(hi * 97 + lo) * 40503u);
            const double u = double(h % 2001u) / 1000.0 - 1.0;
            A(i, r, c) = r == c ? n + 1.0 + u : u;
          }
        if (plant && i % 7 == 3) A(i, i % n, i % n) = -1.0;
      });
}

template <class V>
double max_diff(const V& x, const V& y) {
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  double m = 0;
  const auto* px = hx.data();
  const auto* py = hy.data();
  for (std::size_t k = 0; k < hx.span(); ++k) {
    const bool nx = std::isnan(px[k]), ny = std::isnan(py[k]);
    const double d = (nx || ny) ? (nx == ny ? 0.0 : 1e300) : std::fabs(px[k] - py[k]);
    m = d > m ? d : m;
  }
  return m;
}

// Factor difference where the contract fixes it: all of the lower triangle of
// a successful matrix, the columns before the failing one otherwise (what the
// paths leave in the failing panel may differ).
template <class V3, class VI>
double factor_diff(const V3& x, const V3& y, const VI& info, Uplo uplo) {
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  const int n = int(x.extent(1));
  double m = 0;
  for (std::size_t b = 0; b < x.extent(0); ++b) {
    const int ncol = hi(b) ? hi(b) - 1 : n;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c <= r && c < ncol; ++c) {
        const int i = uplo == Uplo::Lower ? r : c, j = uplo == Uplo::Lower ? c : r;
        m = std::max(m, std::fabs(double(hx(b, i, j)) - double(hy(b, i, j))));
      }
  }
  return m;
}

template <class Layout>
int check(int n, int batch, Uplo uplo) {
  using V3 = Kokkos::View<double***, Layout, Kokkos::CudaSpace>;
  using V2 = Kokkos::View<double**, Layout, Kokkos::CudaSpace>;
  using VI = Kokkos::View<int*, Kokkos::CudaSpace>;
  Kokkos::Cuda exec;
  V3 A0("A0", batch, n, n);
  V2 B0("B0", batch, n);
  fill(A0, n, true);
  V3 S("S", batch, n, n);  // SPD only: the factor the solves are compared on
  VI is("is", batch);
  fill(S, n, false);
  batchol::potrf(exec, S, is, Options{uplo});
  Kokkos::deep_copy(B0, 0.5);
  V3 A[2] = {V3("Ac", batch, n, n), V3("Ag", batch, n, n)};
  V3 F[2] = {V3("Fc", batch, n, n), V3("Fg", batch, n, n)};
  V2 B[2] = {V2("Bc", batch, n), V2("Bg", batch, n)};
  V2 X[2] = {V2("Xc", batch, n), V2("Xg", batch, n)};
  V2 Y[2] = {V2("Yc", batch, n), V2("Yg", batch, n)};
  VI I[2] = {VI("Ic", batch), VI("Ig", batch)};
  VI J[2] = {VI("Jc", batch), VI("Jg", batch)};
  for (int k = 0; k < 2; ++k) {
    Options o;
    o.uplo = uplo;
    o.path = k == 0 ? Path::Cuda : Path::Generic;
    Kokkos::deep_copy(A[k], A0);
    Kokkos::deep_copy(F[k], A0);
    Kokkos::deep_copy(B[k], B0);
    Kokkos::deep_copy(X[k], B0);
    Kokkos::deep_copy(Y[k], B0);
    batchol::potrf(exec, F[k], I[k], o);
    batchol::potrs(exec, S, X[k], o);
    batchol::trsv(exec, uplo, Trans::Transpose, S, Y[k], o);
    batchol::posv(exec, A[k], B[k], J[k], o);
  }
  exec.fence();
  const double tol = 1e-12 * n;
  const double df = factor_diff(F[0], F[1], I[1], uplo), da = factor_diff(A[0], A[1], J[1], uplo);
  const double db = max_diff(B[0], B[1]);
  const double dx = max_diff(X[0], X[1]), dy = max_diff(Y[0], Y[1]);
  const double di = max_diff(I[0], I[1]) + max_diff(J[0], J[1]);
  const bool ok = df <= tol && da <= tol && db <= tol && dx <= tol && dy <= tol && di == 0;
  std::printf("%-12s n=%3d %s potrf %.1e posv A %.1e B %.1e info %g | potrs %.1e trsv %.1e : %s\n",
              std::is_same_v<Layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight", n,
              uplo == Uplo::Lower ? "L" : "U", df, da, db, di, dx, dy, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int fails = 0;
  {
    static_assert(batchol::path_available<Kokkos::Cuda>(Path::Cuda));
    for (int n : {1, 3, 8, 9, 12, 16, 20})
      for (Uplo u : {Uplo::Lower, Uplo::Upper}) {
        fails += check<Kokkos::LayoutLeft>(n, 3001, u);
        fails += check<Kokkos::LayoutRight>(n, 3001, u);
      }
    // Empty batch and n == 0 do nothing and must not fail.
    Kokkos::View<double***, Kokkos::CudaSpace> E("E", 0, 4, 4), Z("Z", 5, 0, 0);
    Kokkos::View<int*, Kokkos::CudaSpace> ie("ie", 0), iz("iz", 5);
    Options o;
    o.path = Path::Cuda;
    batchol::potrf(Kokkos::Cuda(), E, ie, o);
    batchol::potrf(Kokkos::Cuda(), Z, iz, o);
    Kokkos::fence();
  }
  Kokkos::finalize();
  std::printf("kokkos cuda check: %d failures\n", fails);
  return fails ? 1 : 0;
}
