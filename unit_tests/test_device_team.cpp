// The device-level API from a user's TeamPolicy kernel: batchol::team::* on
// one matrix per team, with the scratch team::potrf_scratch_size asks for,
// without any scratch, with all of it taken by the user (the in-place
// fallback), and after the user's own scratch allocation.
#include "support/device_cases.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

namespace batchol_test {
namespace {

template <class C>
class DeviceTeam : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceTeam, AllConfigs, ConfigNames);

TYPED_TEST(DeviceTeam, PotrfMatchesHostLevelAndLapack) {
  for (Scratch mode : {Scratch::Requested, Scratch::None, Scratch::Exhausted})
    expect_potrf_matches<TypeParam>(TeamRunner{mode});
}

TYPED_TEST(DeviceTeam, SolvesMatchHostLevelAndLapack) {
  for (Scratch mode : {Scratch::Requested, Scratch::None, Scratch::Exhausted})
    expect_solves_match<TypeParam>(TeamRunner{mode});
}

TYPED_TEST(DeviceTeam, FailuresReportedExactly) {
  for (Scratch mode : {Scratch::Requested, Scratch::None, Scratch::Exhausted})
    expect_failures_reported<TypeParam>(TeamRunner{mode});
}

// Matrix and panel both in team scratch (sizes small enough for a GPU's
// shared memory): the result matches the host-level posv.
TYPED_TEST(DeviceTeam, PosvInUserScratch) {
  using C = TypeParam;
  using T = typename C::scalar;
  for (int n : {1, 2, 3, 7, 8, 9, 16, 17, 24, 33, 40}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int batch = 7;
    const SpdBatch s = make_spd_batch<T>(n, batch);
    const auto rhs = make_rhs<T>(n, 1, batch);
    DevA<C> A = device_images<C>(s.images(C::uplo), n);
    DevB2<C> B("B", batch, n);
    upload(B, rhs);
    InfoView info = make_info(batch, -99);
    team_posv_in_user_scratch(A, B, info, C::uplo);
    EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
    const auto x = items_of(B), xh = reference_posv<C>(s.images(C::uplo), rhs, n);
    const auto fa = snapshot(A);
    EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
      auto r = solution_ok<T>(s, b, rhs[b], x[b]);
      if (!r) return r;
      r = factor_ok<T>(s, b, lower_of(get(fa, b), C::uplo));
      if (!r) return r;
      return paths_agree<T>(x[b], xh[b], n, s.cond[b]);
    }));
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace batchol_test
