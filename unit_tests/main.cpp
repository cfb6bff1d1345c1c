// Test main for every batchol test binary: GoogleTest inside one Kokkos
// lifetime (gtest_main would run the tests without Kokkos initialized).
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::initialize(argc, argv);
  int result = 0;
  {
    result = RUN_ALL_TESTS();
    for (const auto& [what, ratio] : batchol_test::worst_ratios())
      std::printf("worst %s / tolerance: %.3g\n", what.c_str(), ratio);
  }
  Kokkos::finalize();
  return result;
}
