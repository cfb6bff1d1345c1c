// Factors a small batch through the installed package; exits non-zero when
// info or the factor is wrong.
#include <Batchol.hpp>
#include <Batchol_Config.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  int failures = 0;
  Kokkos::initialize(argc, argv);
  {
    // A = L L^T with L(i, j) = 1 + i + j (j <= i): the exact factor is known.
    const int batch = 5, n = 6;
    Kokkos::View<double***> A("A", batch, n, n);
    Kokkos::View<int*> info("info", batch);
    auto h = Kokkos::create_mirror_view(A);
    auto l = [](int i, int j) { return j <= i ? 1.0 + i + j : 0.0; };
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0;
          for (int k = 0; k < n; ++k) s += l(i, k) * l(j, k);
          h(b, i, j) = s;
        }
    Kokkos::deep_copy(A, h);
    batchol::potrf(Kokkos::DefaultExecutionSpace(), A, info);
    auto hi = Kokkos::create_mirror_view(info);
    Kokkos::deep_copy(hi, info);
    Kokkos::deep_copy(h, A);
    for (int b = 0; b < batch; ++b) {
      if (hi(b) != 0) ++failures;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          if (std::abs(h(b, i, j) - l(i, j)) > 1e-12 * (1 + i + j)) ++failures;
    }
    std::printf("consumer of Batchol %d.%d.%d: %d wrong values\n", BATCHOL_VERSION_MAJOR,
                BATCHOL_VERSION_MINOR, BATCHOL_VERSION_PATCH, failures);
  }
  Kokkos::finalize();
  return failures == 0 ? 0 : 1;
}
