// Variable-size posv, potrs and trsv on padded and packed batches of orders
// 0..64, with padded and packed right-hand sides (support/variable_cases.hpp).
#include "support/variable_cases.hpp"

namespace batchol_test {
namespace {

template <class C>
class VariableSolve : public ::testing::Test {};
TYPED_TEST_SUITE(VariableSolve, AllConfigs, ConfigNames);

TYPED_TEST(VariableSolve, SolvesMatchLapackAndFixedSize) {
  for (Kind kind : {Kind::Padded, Kind::Packed})
    for (Kind rhs_kind : {Kind::Padded, Kind::Packed}) {
      expect_variable_solves<TypeParam>(kind, rhs_kind);
      if (::testing::Test::HasFailure()) return;
    }
}

}  // namespace
}  // namespace batchol_test
