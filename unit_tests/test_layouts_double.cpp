// LayoutStride subviews with double (support/strided_cases.hpp).
#include "support/strided_cases.hpp"

namespace batchol_test {
namespace {

using DoubleConfigs = ::testing::Types<
    Config<double, LayoutLeft, Uplo::Lower>, Config<double, LayoutLeft, Uplo::Upper>,
    Config<double, LayoutRight, Uplo::Lower>, Config<double, LayoutRight, Uplo::Upper>>;

template <class C>
class StridedDouble : public ::testing::Test {};
TYPED_TEST_SUITE(StridedDouble, DoubleConfigs, ConfigNames);

TYPED_TEST(StridedDouble, SubviewsWorkForEveryCall) {
  expect_strided_calls_work_at_every_size<TypeParam>();
}

}  // namespace
}  // namespace batchol_test
