// The device-level API from a user's RangePolicy kernel: batchol::serial::*
// on one matrix per index, and the bad-shape return codes of serial and team.
#include "support/device_cases.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

namespace batchol_test {
namespace {

template <class C>
class DeviceSerial : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceSerial, AllConfigs, ConfigNames);

TYPED_TEST(DeviceSerial, PotrfMatchesHostLevelAndLapack) {
  expect_potrf_matches<TypeParam>(SerialRunner{});
}

TYPED_TEST(DeviceSerial, SolvesMatchHostLevelAndLapack) {
  expect_solves_match<TypeParam>(SerialRunner{});
}

TYPED_TEST(DeviceSerial, FailuresReportedExactly) {
  expect_failures_reported<TypeParam>(SerialRunner{});
}

// -1: A not square, -2: B rows != n; nothing is written in either case.
template <class BView>
void expect_bad_shape_codes() {
  const int batch = 3, n = 4;
  Batch3<double, Kokkos::LayoutRight> A("A", batch, n, n);
  upload(A, make_spd_batch<double>(n, batch).a);
  BView B = make_rhs_view<BView>(batch, n, 2);
  upload(B, make_rhs<double>(n, rank_of<BView> == 3 ? 2 : 1, batch));
  const auto a0 = snapshot(A);
  const auto b0 = snapshot(B);
  Kokkos::View<int**, Kokkos::LayoutRight, Exec> serial("serial", batch, kBadShapeCalls),
      team("team", batch, kBadShapeCalls);
  bad_shape_kernels(A, B, serial, team);
  const std::vector<int> want{-1, -1, -1, -1, -2, -2, -2, -1};
  for (const auto& [codes, name] : {std::pair{serial, "serial"}, std::pair{team, "team"}}) {
    const auto h = snapshot(codes);
    for (int i = 0; i < batch; ++i)
      for (int k = 0; k < kBadShapeCalls; ++k)
        EXPECT_EQ(h(i, k), want[k]) << name << " call " << k << ", matrix " << i;
  }
  EXPECT_EQ(first_item_differing(a0, snapshot(A)), -1) << "A written by a rejected call";
  EXPECT_EQ(first_item_differing(b0, snapshot(B)), -1) << "B written by a rejected call";
}

TEST(DeviceApi, BadShapeReturnCodes) {
  expect_bad_shape_codes<Batch2<double, Kokkos::LayoutRight>>();
  expect_bad_shape_codes<Batch3<double, Kokkos::LayoutRight>>();
}

}  // namespace
}  // namespace batchol_test
