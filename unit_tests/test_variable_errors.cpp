// Variable-size batches: the paths that take them (Auto and Generic; the
// others throw, as for an operation they do not provide), the argument
// checks, the empty batch, and the profiling region.
#include "support/regions.hpp"
#include "support/variable_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

using A3 = Batch3<double, LayoutRight>;
using B2 = Batch2<double, LayoutRight>;

TEST(VariableErrors, OnlyAutoAndGenericTakeThem) {
  for (batchol::Path path : {batchol::Path::Auto, batchol::Path::Generic})
    EXPECT_TRUE((batchol::path_available<Exec, Op::Potrf>(path, true)));
  A3 A("A", 2, 3, 3);
  B2 B("B", 2, 3);
  const OrderView n = make_orders({3, 2});
  InfoView info = make_info(2, -99);
  for (batchol::Path path : {batchol::Path::Host, batchol::Path::Cuda, batchol::Path::Blocked}) {
    SCOPED_TRACE(name_of(path));
    EXPECT_FALSE((batchol::path_available<Exec, Op::Potrf>(path, true)));
    EXPECT_FALSE((batchol::path_available<Exec, Op::TrsvN>(path, true)));
    const batchol::Options opts = options(Uplo::Lower, path);
    const auto vA = batchol::padded(A, n);
    EXPECT_THROW(batchol::potrf(Exec(), vA, info, opts), std::invalid_argument);
    EXPECT_THROW(batchol::posv(Exec(), vA, B, info, opts), std::invalid_argument);
    EXPECT_THROW(batchol::potrs(Exec(), vA, B, opts), std::invalid_argument);
    EXPECT_THROW(batchol::trsv(Exec(), Uplo::Lower, batchol::Trans::NoTranspose, vA, B, opts),
                 std::invalid_argument);
  }
  EXPECT_EQ(download_info(info), std::vector<int>(2, -99)) << "a refused call wrote info";
}

// The message names the argument.
template <class F>
std::string message_of(const F& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST(VariableErrors, ArgumentsAreChecked) {
  A3 A("A", 2, 3, 3);
  InfoView info = make_info(2, 0);
  const OrderView n2 = make_orders({3, 2}), n3 = make_orders({3, 2, 1});
  Packed1<double> values("values", 20);
  OffsetView off2("offsets", 2), off3("offsets", 3);
  auto expect = [](const std::string& what, const std::string& fragment) {
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  };
  expect(message_of([&] { batchol::potrf(Exec(), batchol::padded(A, n3), info); }),
         "argument 'n' must have one order per matrix");
  expect(message_of([&] { batchol::potrf(Exec(), batchol::packed(values, off3, n2, 3), info); }),
         "argument 'offsets' must have one offset per matrix");
  expect(message_of([&] { batchol::potrf(Exec(), batchol::packed(values, off2, n2, -1), info); }),
         "argument 'nmax' must be >= 0");
  expect(message_of([&] { batchol::potrf(Exec(), batchol::packed(values, off3, n3, 3), info); }),
         "argument 'info' must have one entry per matrix");
  expect(message_of(
             [&] { batchol::potrs(Exec(), batchol::packed(values, off2, n2, 4), B2("B", 2, 3)); }),
         "argument 'B' must have n = 4 rows");
  expect(message_of([&] {
           batchol::trsv(Exec(), Uplo::Lower, batchol::Trans::NoTranspose, batchol::padded(A, n2),
                         batchol::packed_rhs(values, off2, 2));
         }),
         "argument 'b' must hold one right-hand side per system");
  expect(message_of([&] {
           batchol::potrs(Exec(), batchol::padded(A, n2), batchol::packed_rhs(values, off2, -1));
         }),
         "argument 'B.nrhs' must be >= 0");
  expect(message_of([&] {
           batchol::potrf(Exec(), batchol::packed(values, off2, n2, 3, batchol::Storage(7)), info);
         }),
         "argument 'storage' must be Storage::ColMajor or Storage::RowMajor");
}

TEST(VariableErrors, EmptyBatchIsValid) {
  A3 A("A", 0, 5, 5);
  B2 B("B", 0, 5);
  const OrderView n("n", 0);
  InfoView info("info", 0);
  batchol::posv(Exec(), batchol::padded(A, n), B, info);
  Packed1<double> values("values", 0);
  OffsetView off("offsets", 0);
  batchol::potrf(Exec(), batchol::packed(values, off, n, 0), info);
  Exec().fence();
}

// One region per call, like the fixed-size calls, named apart from theirs.
TEST(VariableProfiling, RegionNamesTheRoutine) {
  A3 A("A", 2, 3, 3);
  B2 B("B", 2, 3);
  const OrderView n = make_orders({0, 0});
  InfoView info = make_info(2, -99);
  const auto vA = batchol::padded(A, n);
  const RegionRecorder recorder;
  batchol::potrf(Exec(), vA, info);
  batchol::posv(Exec(), vA, B, info);
  batchol::potrs(Exec(), vA, B);
  batchol::trsv(Exec(), Uplo::Upper, batchol::Trans::Transpose, vA, B);
  Exec().fence();
  const std::vector<std::string> want{
      "batchol::potrf_vbatch[Generic]", "batchol::posv_vbatch[Generic]",
      "batchol::potrs_vbatch[Generic]", "batchol::trsv_vbatch[Generic]"};
  EXPECT_EQ(RegionRecorder::names(), want);
  EXPECT_EQ(download_info(info), std::vector<int>(2, 0));
}

}  // namespace
}  // namespace batchol_test
