// Must not compile: batchol::potrf takes a rank-3 View (batch, n, n). The
// batchol_compile_fail_rank2 test builds this file and expects batchol's
// static_assert message in the compiler output.
#include <Batchol.hpp>

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double**> A("A", 4, 4);
    Kokkos::View<int*> info("info", 1);
    batchol::potrf(Kokkos::DefaultExecutionSpace(), A, info);
  }
  Kokkos::finalize();
  return 0;
}
