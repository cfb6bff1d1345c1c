#include <Batchol.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const int batch = 3, n = 13;
    Kokkos::View<double***> A("A", batch, n, n);
    Kokkos::View<double**> B("B", batch, n);
    Kokkos::View<int*> info("info", batch);
    auto h = Kokkos::create_mirror(A);
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) h(b, i, j) = (i == j ? n + 1.0 : 1.0 / (1 + i + j));
    Kokkos::deep_copy(A, h);
    Kokkos::deep_copy(B, 1.0);
    batchol::posv(Kokkos::DefaultExecutionSpace(), A, B, info);
    auto hb = Kokkos::create_mirror_view(B);
    Kokkos::deep_copy(hb, B);
    double r = 0;
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j) s += h(b, i, j) * hb(b, j);
        r = std::max(r, std::abs(s - 1.0));
      }
    std::printf("residual %g\n", r);
  }
  Kokkos::finalize();
}
