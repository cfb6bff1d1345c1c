// Variable-size potrf (padded and packed batches of orders 0..64) against
// LAPACK and bit for bit against the fixed-size Generic call, and the exact
// info of defects planted in a good batch (support/variable_cases.hpp).
#include "support/variable_cases.hpp"

namespace batchol_test {
namespace {

template <class C>
class VariableFactor : public ::testing::Test {};
TYPED_TEST_SUITE(VariableFactor, AllConfigs, ConfigNames);

TYPED_TEST(VariableFactor, PotrfMatchesLapackAndFixedSize) {
  for (Kind kind : {Kind::Padded, Kind::Packed})
    for (batchol::Path path : {batchol::Path::Auto, batchol::Path::Generic}) {
      expect_variable_potrf<TypeParam>(kind, path);
      if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(VariableFactor, WriteTransposedMirrorsEachFactor) {
  for (Kind kind : {Kind::Padded, Kind::Packed})
    expect_variable_potrf<TypeParam>(kind, batchol::Path::Auto, true);
}

TYPED_TEST(VariableFactor, EqualOrdersAreTheFixedSizeCall) {
  for (int n : {0, 1, 17, 64}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_equal_orders_are_fixed_size<TypeParam>(n);
  }
}

TYPED_TEST(VariableFactor, DefectsAreReportedExactly) {
  for (Kind kind : {Kind::Padded, Kind::Packed}) expect_variable_defects<TypeParam>(kind);
}

}  // namespace
}  // namespace batchol_test
