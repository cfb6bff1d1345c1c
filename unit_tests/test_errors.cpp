// Bad arguments throw std::invalid_argument naming the argument, before any
// launch; a path the build does not provide throws; empty problems (n == 0,
// batch == 0, nrhs == 0) are valid; every call opens a profiling region
// naming the path that runs it.
#include "support/regions.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

using T = double;
using A3 = Batch3<T, Kokkos::LayoutRight>;
using B2 = Batch2<T, Kokkos::LayoutRight>;

// Runs `call`, which must throw std::invalid_argument whose message names
// batchol::<routine> and '<argument>'.
template <class F>
void expect_invalid(F&& call, const std::string& routine, const std::string& argument) {
  try {
    call();
    ADD_FAILURE() << "expected std::invalid_argument naming '" << argument << "'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("batchol::" + routine), std::string::npos) << what;
    EXPECT_NE(what.find("'" + argument + "'"), std::string::npos) << what;
  }
}

// Valid inputs of a small problem, filled so that any launch would change
// them; after a throwing call they must be exactly as before.
struct Inputs {
  int batch = 3, n = 4;
  A3 A{"A", 3, 4, 4};
  B2 B{"B", 3, 4};
  A3 B3{"B3", 3, 4, 2};
  InfoView info = make_info(3, -99);
  A3::host_mirror_type a0, b30;
  B2::host_mirror_type b0;

  Inputs() {
    upload(A, make_spd_batch<T>(n, batch).a);
    upload(B, make_rhs<T>(n, 1, batch));
    upload(B3, make_rhs<T>(n, 2, batch));
    a0 = snapshot(A);
    b0 = snapshot(B);
    b30 = snapshot(B3);
  }
  void expect_untouched() const {
    Exec().fence();
    EXPECT_EQ(first_item_differing(a0, snapshot(A)), -1) << "A changed: something was launched";
    EXPECT_EQ(first_item_differing(b0, snapshot(B)), -1) << "B changed: something was launched";
    EXPECT_EQ(first_item_differing(b30, snapshot(B3)), -1) << "B changed: something was launched";
    EXPECT_EQ(download_info(info), std::vector<int>(batch, -99)) << "info was written";
  }
};

TEST(Errors, NonSquareA) {
  Inputs in;
  A3 wide("wide", 3, 4, 5);
  expect_invalid([&] { batchol::potrf(Exec(), wide, in.info); }, "potrf", "A");
  expect_invalid([&] { batchol::potrs(Exec(), wide, in.B); }, "potrs", "A");
  expect_invalid([&] { batchol::posv(Exec(), wide, in.B, in.info); }, "posv", "A");
  expect_invalid(
      [&] { batchol::trsv(Exec(), Uplo::Lower, batchol::Trans::NoTranspose, wide, in.B); }, "trsv",
      "A");
  in.expect_untouched();
}

TEST(Errors, InfoExtent) {
  Inputs in;
  for (int len : {0, 2, 4}) {
    InfoView info = make_info(len, -99);
    expect_invalid([&] { batchol::potrf(Exec(), in.A, info); }, "potrf", "info");
    expect_invalid([&] { batchol::posv(Exec(), in.A, in.B, info); }, "posv", "info");
    EXPECT_EQ(download_info(info), std::vector<int>(len, -99));
  }
  in.expect_untouched();
}

TEST(Errors, LogdetExtent) {
  Inputs in;
  for (int len : {0, 2, 4}) {
    Kokkos::View<T*, Exec> logdet("logdet", len);
    expect_invalid([&] { batchol::potrf(Exec(), in.A, in.info, logdet); }, "potrf", "logdet");
    expect_invalid([&] { batchol::posv(Exec(), in.A, in.B, in.info, logdet); }, "posv", "logdet");
  }
  in.expect_untouched();
}

TEST(Errors, RightHandSideBatchExtent) {
  Inputs in;
  B2 b("b", 2, 4);
  A3 b3("b3", 4, 4, 2);
  expect_invalid([&] { batchol::potrs(Exec(), in.A, b); }, "potrs", "B");
  expect_invalid([&] { batchol::potrs(Exec(), in.A, b3); }, "potrs", "B");
  expect_invalid([&] { batchol::posv(Exec(), in.A, b, in.info); }, "posv", "B");
  expect_invalid([&] { batchol::posv(Exec(), in.A, b3, in.info); }, "posv", "B");
  expect_invalid([&] { batchol::trsv(Exec(), Uplo::Lower, batchol::Trans::NoTranspose, in.A, b); },
                 "trsv", "b");
  in.expect_untouched();
}

TEST(Errors, RightHandSideRows) {
  Inputs in;
  B2 b("b", 3, 5);
  A3 b3("b3", 3, 3, 2);
  expect_invalid([&] { batchol::potrs(Exec(), in.A, b); }, "potrs", "B");
  expect_invalid([&] { batchol::potrs(Exec(), in.A, b3); }, "potrs", "B");
  expect_invalid([&] { batchol::posv(Exec(), in.A, b, in.info); }, "posv", "B");
  expect_invalid([&] { batchol::posv(Exec(), in.A, b3, in.info); }, "posv", "B");
  expect_invalid([&] { batchol::trsv(Exec(), Uplo::Upper, batchol::Trans::Transpose, in.A, b); },
                 "trsv", "b");
  in.expect_untouched();
}

TEST(Errors, InvalidEnumValues) {
  Inputs in;
  batchol::Options bad_uplo;
  bad_uplo.uplo = static_cast<batchol::Uplo>(7);
  batchol::Options bad_path;
  bad_path.path = static_cast<batchol::Path>(9);
  for (const auto& bad :
       {std::pair<batchol::Options, const char*>{bad_uplo, "opts.uplo"}, {bad_path, "opts.path"}}) {
    const batchol::Options opts = bad.first;  // named: lambdas may not capture bindings in C++17
    const char* name = bad.second;
    expect_invalid([&] { batchol::potrf(Exec(), in.A, in.info, opts); }, "potrf", name);
    expect_invalid([&] { batchol::potrs(Exec(), in.A, in.B, opts); }, "potrs", name);
    expect_invalid([&] { batchol::posv(Exec(), in.A, in.B3, in.info, opts); }, "posv", name);
  }
  // trsv names the triangle and the operation itself; its opts.uplo is unused.
  const auto lower = Uplo::Lower;
  const auto notrans = batchol::Trans::NoTranspose;
  expect_invalid([&] { batchol::trsv(Exec(), static_cast<batchol::Uplo>(7), notrans, in.A, in.B); },
                 "trsv", "uplo");
  expect_invalid([&] { batchol::trsv(Exec(), lower, static_cast<batchol::Trans>(5), in.A, in.B); },
                 "trsv", "trans");
  expect_invalid([&] { batchol::trsv(Exec(), lower, notrans, in.A, in.B, bad_path); }, "trsv",
                 "opts.path");
  in.expect_untouched();
}

// Host and Cuda throw exactly when batchol::path_available says the build
// does not provide them for the execution space and routine; a path it claims
// must run (and factor correctly).
template <class ExecSpace>
void expect_path_behaviour(batchol::Path path) {
  using A = Kokkos::View<T***, Kokkos::LayoutRight, ExecSpace>;
  using B = Kokkos::View<T**, Kokkos::LayoutRight, ExecSpace>;
  using I = Kokkos::View<int*, ExecSpace>;
  const int batch = 2, n = 3;
  A a("A", batch, n, n);
  B b("B", batch, n);
  I info("info", batch);
  auto reset = [&] {
    auto ha = Kokkos::create_mirror_view(a);
    for (int k = 0; k < batch; ++k)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) ha(k, i, j) = i == j ? 2.0 : 0.5;
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, 1.0);
    Kokkos::deep_copy(info, -99);
  };
  auto info_is = [&](int v) {
    auto hi = snapshot(info);
    for (int k = 0; k < batch; ++k)
      if (hi(k) != v) return false;
    return true;
  };
  batchol::Options opts;
  opts.path = path;
  const ExecSpace exec;
  const std::string p = name_of(path);
  const auto lo = Uplo::Lower;
  const auto nt = batchol::Trans::NoTranspose;
  auto check = [&](bool provided, const char* routine, auto&& call) {
    reset();
    if (provided) {
      EXPECT_NO_THROW(call()) << p << " is provided for " << routine;
    } else {
      expect_invalid(call, routine, "opts.path");
      EXPECT_TRUE(info_is(-99)) << p << ", " << routine << ": info written before the throw";
    }
  };
  check(path_provided<ExecSpace, Op::Potrf>(path), "potrf", [&] {
    batchol::potrf(exec, a, info, opts);
    if (path_provided<ExecSpace, Op::Potrf>(path)) {
      EXPECT_TRUE(info_is(0));
    }
  });
  check(path_provided<ExecSpace, Op::Potrs>(path), "potrs",
        [&] { batchol::potrs(exec, a, b, opts); });
  check(path_provided<ExecSpace, Op::Posv>(path), "posv", [&] {
    batchol::posv(exec, a, b, info, opts);
    if (path_provided<ExecSpace, Op::Posv>(path)) {
      EXPECT_TRUE(info_is(0));
    }
  });
  check(path_provided<ExecSpace, Op::TrsvN>(path), "trsv",
        [&] { batchol::trsv(exec, lo, nt, a, b, opts); });
}

TEST(Errors, UnavailablePathThrows) {
  for (batchol::Path p : {batchol::Path::Host, batchol::Path::Cuda}) {
    SCOPED_TRACE(name_of(p));
    expect_path_behaviour<Exec>(p);
    expect_path_behaviour<Kokkos::DefaultHostExecutionSpace>(p);
  }
}

// Whatever later builds provide, the Cuda path never runs on a host space.
TEST(Errors, CudaPathOnHostSpaceAlwaysThrows) {
  using H = Kokkos::DefaultHostExecutionSpace;
  static_assert(!path_provided<H, Op::Potrf>(batchol::Path::Cuda) &&
                    !path_provided<H, Op::Potrs>(batchol::Path::Cuda) &&
                    !path_provided<H, Op::Posv>(batchol::Path::Cuda) &&
                    !path_provided<H, Op::TrsvN>(batchol::Path::Cuda),
                "batchol::path_available must never claim Cuda for a host execution space");
  Kokkos::View<T***, H> a("A", 1, 2, 2);
  Kokkos::View<T**, H> b("b", 1, 2);
  Kokkos::View<int*, H> info("info", 1);
  batchol::Options opts;
  opts.path = batchol::Path::Cuda;
  expect_invalid([&] { batchol::potrf(H(), a, info, opts); }, "potrf", "opts.path");
  expect_invalid([&] { batchol::potrs(H(), a, b, opts); }, "potrs", "opts.path");
  expect_invalid([&] { batchol::posv(H(), a, b, info, opts); }, "posv", "opts.path");
  expect_invalid([&] { batchol::trsv(H(), Uplo::Lower, batchol::Trans::Transpose, a, b, opts); },
                 "trsv", "opts.path");
}

// n == 0 and batch == 0 are valid; n == 0 with matrices sets every info to 0.
TEST(EdgeCases, EmptyProblems) {
  for (batchol::Path path :
       paths_under_test<Op::Potrf, Op::Potrs, Op::Posv, Op::TrsvN, Op::TrsvT>())
    for (const auto& [batch, n] : {std::pair<int, int>{5, 0}, {0, 5}, {0, 0}}) {
      SCOPED_TRACE(case_name(n, batch, path));
      const batchol::Options opts = options(Uplo::Lower, path);
      A3 A("A", batch, n, n);
      B2 B("B", batch, n);
      A3 B3("B3", batch, n, 3);
      InfoView info = make_info(batch, -99);
      batchol::potrf(Exec(), A, info, opts);
      EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
      Kokkos::deep_copy(info, -99);
      batchol::posv(Exec(), A, B, info, opts);
      EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
      Kokkos::deep_copy(info, -99);
      batchol::posv(Exec(), A, B3, info, opts);
      EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
      batchol::potrs(Exec(), A, B, opts);
      batchol::potrs(Exec(), A, B3, opts);
      for (Uplo u : {Uplo::Lower, Uplo::Upper})
        for (auto t : {batchol::Trans::NoTranspose, batchol::Trans::Transpose})
          batchol::trsv(Exec(), u, t, A, B, opts);
      Exec().fence();
    }
}

// nrhs == 0: potrs does nothing, posv still factors (as LAPACK ?posv does).
TEST(EdgeCases, NoRightHandSides) {
  const int batch = 4, n = 6;
  const SpdBatch s = make_spd_batch<T>(n, batch);
  for (batchol::Path path : paths_under_test<Op::Potrf, Op::Potrs, Op::Posv>()) {
    SCOPED_TRACE(name_of(path));
    const batchol::Options opts = options(Uplo::Lower, path);
    A3 A1("A1", batch, n, n), A2("A2", batch, n, n), B("B", batch, n, 0);
    upload(A1, s.images(Uplo::Lower));
    upload(A2, s.images(Uplo::Lower));
    InfoView info1 = make_info(batch, -99), info2 = make_info(batch, -99);
    batchol::posv(Exec(), A1, B, info1, opts);
    batchol::potrf(Exec(), A2, info2, opts);
    batchol::potrs(Exec(), A2, B, opts);
    EXPECT_EQ(download_info(info1), std::vector<int>(batch, 0));
    EXPECT_EQ(first_item_differing(snapshot(A1), snapshot(A2)), -1);
  }
}

// Every host-level call opens one Kokkos profiling region, named after the
// routine and the path that runs it: Auto's choice, and the Generic or
// Blocked path where the Cuda tables have no kernel (n = 0, n above
// BATCHOL_CUDA_MAX_N, at most 512).
TEST(Profiling, RegionNamesTheRoutineAndThePath) {
  const RegionRecorder recorder;

#if defined(BATCHOL_HOST_PATH_AVAILABLE) && defined(KOKKOS_ENABLE_SERIAL)
  static_assert(path_provided<Kokkos::Serial, Op::Potrf, Op::Posv, Op::Potrs, Op::TrsvN, Op::TrsvT>(
                    batchol::Path::Host),
                "where the build has the Host path, Kokkos::Serial has it for every operation");
#endif
  const bool cuda = path_provided<Exec, Op::Potrf>(batchol::Path::Cuda);
  const bool host = path_provided<Exec, Op::Potrf>(batchol::Path::Host);
  // runs[r]: the path that runs potrf, posv, potrs and trsv (r = 0..3).
  auto expect_regions = [&](int n, batchol::Path path, const std::vector<std::string>& runs) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(path));
    Batch3<double, Kokkos::LayoutRight> A("A", 3, n, n);
    Batch2<double, Kokkos::LayoutRight> B("B", 3, n);
    Matrix identity(n, n);
    for (int i = 0; i < n; ++i) identity(i, i) = 1;
    upload(A, std::vector<Matrix>(3, identity));
    InfoView info = make_info(3, -99);
    const batchol::Options opts = options(Uplo::Lower, path);
    RegionRecorder::names().clear();
    batchol::potrf(Exec(), A, info, opts);
    batchol::posv(Exec(), A, B, info, opts);
    batchol::potrs(Exec(), A, B, opts);
    batchol::trsv(Exec(), Uplo::Upper, batchol::Trans::Transpose, A, B, opts);
    Exec().fence();
    const std::vector<std::string> want{
        "batchol::potrf[" + runs[0] + "]", "batchol::posv[" + runs[1] + "]",
        "batchol::potrs[" + runs[2] + "]", "batchol::trsv[" + runs[3] + "]"};
    EXPECT_EQ(RegionRecorder::names(), want);
  };
  for (batchol::Path path :
       paths_under_test<Op::Potrf, Op::Posv, Op::Potrs, Op::TrsvN, Op::TrsvT>()) {
    const std::string runs = path != batchol::Path::Auto ? name_of(path)
                             : cuda                      ? "Cuda"
                             : host                      ? "Host"
                                                         : "Generic";
    const std::vector<std::string> all(4, runs);
    expect_regions(4, path, all);
    expect_regions(0, path, runs == "Cuda" ? std::vector<std::string>(4, "Generic") : all);
    if (runs == "Host") {  // one or two large matrices: Blocked (blocked::preferred_on_host)
      Batch3<double, Kokkos::LayoutRight> A("A", 1, 512, 512);
      InfoView info = make_info(1, -99);
      RegionRecorder::names().clear();
      batchol::potrf(Exec(), A, info, options(Uplo::Lower, path));
      Exec().fence();
      EXPECT_EQ(RegionRecorder::names(),
                std::vector<std::string>{path == batchol::Path::Auto ? "batchol::potrf[Blocked]"
                                                                     : "batchol::potrf[Host]"});
    }
    if (runs == "Cuda") {
      expect_regions(200, path,
                     std::vector<std::string>(4, 200 <= BATCHOL_CUDA_MAX_N ? "Cuda" : "Blocked"));
      expect_regions(std::min(BATCHOL_CUDA_MAX_N, 512) + 1, path,
                     std::vector<std::string>(4, "Blocked"));
    }
  }
}

}  // namespace
}  // namespace batchol_test
