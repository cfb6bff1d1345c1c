// LayoutStride subviews with float (support/strided_cases.hpp).
#include "support/strided_cases.hpp"

namespace batchol_test {
namespace {

using FloatConfigs =
    ::testing::Types<Config<float, LayoutLeft, Uplo::Lower>, Config<float, LayoutLeft, Uplo::Upper>,
                     Config<float, LayoutRight, Uplo::Lower>,
                     Config<float, LayoutRight, Uplo::Upper>>;

template <class C>
class StridedFloat : public ::testing::Test {};
TYPED_TEST_SUITE(StridedFloat, FloatConfigs, ConfigNames);

TYPED_TEST(StridedFloat, SubviewsWorkForEveryCall) {
  expect_strided_calls_work_at_every_size<TypeParam>();
}

}  // namespace
}  // namespace batchol_test
