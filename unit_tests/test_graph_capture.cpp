// Every host-level call only enqueues work on its execution space instance's
// stream: on CUDA it captures into a CUDA graph (a host synchronization, a
// blocking copy or an allocation that is not stream-ordered ends the capture
// with an error), and the graph, replayed on fresh inputs, gives the same bits
// as the call made directly. The orders cover the group, tile and panel
// kernels, the batched large-matrix factorization with the Blocked solves
// (n = 200) and one large matrix; the Generic path runs Kokkos kernels.
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

#if defined(KOKKOS_ENABLE_CUDA)

bool cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  ADD_FAILURE() << what << ": " << cudaGetErrorString(e);
  return false;
}

// A stream of its own: captures on the legacy default stream are not allowed.
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

// enqueue() captured on `stream` into a graph, which then runs `replays`
// times, reset() before each run, check() after it. The capture mode is
// thread-local: any synchronizing call of this thread fails it.
void capture_and_replay(cudaStream_t stream, const std::function<void()>& enqueue,
                        const std::function<void()>& reset, const std::function<void()>& check,
                        int replays = 2) {
  if (!cuda_ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
               "cudaStreamBeginCapture"))
    return;
  std::string thrown;
  try {
    enqueue();
  } catch (const std::exception& e) {
    thrown = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  cudaGetLastError();  // a failed capture leaves its error behind
  ASSERT_TRUE(thrown.empty()) << "the call threw during the capture: " << thrown;
  ASSERT_EQ(ended, cudaSuccess) << "the capture failed: " << cudaGetErrorString(ended);
  cudaGraphExec_t exec = nullptr;
  const bool made = cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int r = 0; made && r < replays; ++r) {
    reset();
    if (!cuda_ok(cudaGraphLaunch(exec, stream), "cudaGraphLaunch")) break;
    if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) break;
    check();
  }
  if (exec) cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

template <class View>
bool same_bits(const View& x, const View& y) {
  const auto hx = snapshot(x);
  const auto hy = snapshot(y);
  return hx.span() == hy.span() &&
         std::memcmp(hx.data(), hy.data(), hx.span() * sizeof(typename View::value_type)) == 0;
}

// Everything one sequence of calls reads and writes.
template <class T, class Layout>
struct Work {
  Batch3<T, Layout> a, a2, a3, l;
  Batch2<T, Layout> b, b2;
  InfoView info, info2, info3;
  Kokkos::View<T*, Exec> logdet, shift;
  Work(int n, int batch)
      : a("a", batch, n, n),
        a2("a2", batch, n, n),
        a3("a3", batch, n, n),
        l("l", batch, n, n),
        b("b", batch, n),
        b2("b2", batch, n),
        info("info", batch),
        info2("info2", batch),
        info3("info3", batch),
        logdet("logdet", batch),
        shift("shift", batch) {}
};

template <class T, class Layout>
void fill(const Work<T, Layout>& w, const SpdBatch& s, const std::vector<Matrix>& rhs) {
  upload(w.a, s.a);
  Kokkos::deep_copy(w.a2, w.a);
  Kokkos::deep_copy(w.a3, w.a);
  upload(w.b, rhs);
  Kokkos::deep_copy(w.b2, w.b);
  Kokkos::deep_copy(w.l, T(0));
  Kokkos::deep_copy(w.info, -7);
  Kokkos::deep_copy(w.info2, -7);
  Kokkos::deep_copy(w.info3, -7);
  Kokkos::deep_copy(w.logdet, T(0));
  Kokkos::deep_copy(w.shift, T(-5));
  Kokkos::fence();
}

// potrf with logdet then potrs; posv then trsv; potrf_shifted from the
// untouched copy, then potri of its factors (batches); all on exec.
template <class T, class Layout>
void enqueue(const Kokkos::Cuda& exec, const Work<T, Layout>& w, batchol::Path path) {
  batchol::Options o;
  o.path = path;
  batchol::potrf(exec, w.a, w.info, w.logdet, o);
  batchol::potrs(exec, w.a, w.b, o);
  batchol::posv(exec, w.a2, w.b2, w.info2, o);
  batchol::trsv(exec, batchol::Uplo::Lower, batchol::Trans::Transpose, w.a2, w.b2, o);
  if (w.a.extent(0) == 1) return;  // one large matrix: potrf_shifted and potri are Generic's
  batchol::potrf_shifted(exec, w.a3, w.l, w.info3, w.shift, batchol::Shift{}, o);
  batchol::potri(exec, w.l, w.info3, o);
}

// potrf's info, factor and potrs's solution in w against LAPACK.
template <class T, class Layout>
::testing::AssertionResult matches_lapack(const Work<T, Layout>& w, const SpdBatch& s,
                                          const std::vector<Matrix>& rhs) {
  const auto ha = snapshot(w.a);
  const auto hinfo = snapshot(w.info);
  const auto hb = snapshot(w.b);
  return every_item(int(w.a.extent(0)), [&](int b) {
    if (hinfo(b) != 0) return ::testing::AssertionFailure() << "info " << hinfo(b);
    auto r = factor_ok<T>(s, b, lower_of(get(ha, b), batchol::Uplo::Lower));
    return r ? solution_ok<T>(s, b, rhs[b], get(hb, b)) : r;
  });
}

template <class T, class Layout>
void check_case(int n, int batch, batchol::Path path) {
  SCOPED_TRACE("n = " + std::to_string(n) + ", batch = " + std::to_string(batch) +
               (path == batchol::Path::Generic ? ", Generic" : ", Auto"));
  const SpdBatch s = make_spd_batch<T>(n, batch);
  const std::vector<Matrix> rhs = make_rhs<T>(n, 1, batch);
  Stream stream;
  const Kokkos::Cuda exec(stream.s);

  // Directly, twice: the first run also makes what a first call makes (a
  // cuBLAS handle, Kokkos's scratch) outside the capture.
  Work<T, Layout> direct(n, batch), graphed(n, batch);
  for (int r = 0; r < 2; ++r) {
    fill(direct, s, rhs);
    enqueue(exec, direct, path);
    exec.fence();
  }
  EXPECT_TRUE(matches_lapack<T>(direct, s, rhs));

  capture_and_replay(
      stream.s, [&] { enqueue(exec, graphed, path); }, [&] { fill(graphed, s, rhs); },
      [&] {
        EXPECT_TRUE(same_bits(direct.a, graphed.a)) << "potrf";
        EXPECT_TRUE(same_bits(direct.info, graphed.info)) << "potrf info";
        EXPECT_TRUE(same_bits(direct.logdet, graphed.logdet)) << "logdet";
        EXPECT_TRUE(same_bits(direct.b, graphed.b)) << "potrs";
        EXPECT_TRUE(same_bits(direct.a2, graphed.a2)) << "posv factor";
        EXPECT_TRUE(same_bits(direct.b2, graphed.b2)) << "posv then trsv";
        EXPECT_TRUE(same_bits(direct.info2, graphed.info2)) << "posv info";
        EXPECT_TRUE(same_bits(direct.shift, graphed.shift)) << "potrf_shifted shift";
        EXPECT_TRUE(same_bits(direct.l, graphed.l)) << "potrf_shifted then potri";
        EXPECT_TRUE(same_bits(direct.info3, graphed.info3)) << "potri info";
      });
}

template <class T, class Layout>
void check_all() {
  for (int n : {8, 40, 100, 200}) check_case<T, Layout>(n, 300, batchol::Path::Auto);
  check_case<T, Layout>(24, 50, batchol::Path::Generic);
  check_case<T, Layout>(1100, 1, batchol::Path::Auto);
}

TEST(GraphCapture, DoubleLayoutRight) {
  check_all<double, Kokkos::LayoutRight>();
}
TEST(GraphCapture, DoubleLayoutLeft) {
  check_all<double, Kokkos::LayoutLeft>();
}
TEST(GraphCapture, FloatLayoutRight) {
  check_all<float, Kokkos::LayoutRight>();
}
TEST(GraphCapture, FloatLayoutLeft) {
  check_all<float, Kokkos::LayoutLeft>();
}

// A capture as the first use of a fresh execution space instance (Kokkos's
// team scratch not yet sized, perhaps no cuBLAS handle yet): the replays
// match LAPACK.
template <class T>
void check_first_call(int n, int batch, batchol::Path path) {
  SCOPED_TRACE("first call, n = " + std::to_string(n) + ", batch = " + std::to_string(batch));
  const SpdBatch s = make_spd_batch<T>(n, batch, 3);
  const std::vector<Matrix> rhs = make_rhs<T>(n, 1, batch, 4);
  Stream stream;
  const Kokkos::Cuda exec(stream.s);
  Work<T, Kokkos::LayoutRight> w(n, batch);
  capture_and_replay(
      stream.s, [&] { enqueue(exec, w, path); }, [&] { fill(w, s, rhs); },
      [&] { EXPECT_TRUE(matches_lapack<T>(w, s, rhs)); });
}

TEST(GraphCapture, AsTheFirstCall) {
  for (int n : {8, 100, 200}) check_first_call<double>(n, 300, batchol::Path::Auto);
  check_first_call<float>(40, 300, batchol::Path::Auto);
  check_first_call<double>(150, 20, batchol::Path::Generic);
  check_first_call<double>(1100, 1, batchol::Path::Auto);
}

// posv_mixed: double systems, the float factor and the refinement.
TEST(GraphCapture, PosvMixed) {
  for (int n : {6, 32, 100}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int batch = 200;
    const SpdBatch s = make_spd_batch<double>(n, batch);
    const std::vector<Matrix> rhs = make_rhs<double>(n, 1, batch);
    Stream stream;
    const Kokkos::Cuda exec(stream.s);
    using A3 = Batch3<double, Kokkos::LayoutRight>;
    using B2 = Batch2<double, Kokkos::LayoutRight>;
    A3 a("a", batch, n, n), ga("ga", batch, n, n);
    B2 b("b", batch, n), gb("gb", batch, n);
    InfoView info("info", batch), ginfo("ginfo", batch);
    Kokkos::View<int*, Exec> iter("iter", batch), giter("giter", batch);
    const auto reset = [&](const A3& x, const B2& y) {
      upload(x, s.a);
      upload(y, rhs);
      Kokkos::fence();
    };
    reset(a, b);
    batchol::posv_mixed(exec, a, b, info, iter);
    exec.fence();
    const auto hb = snapshot(b);
    EXPECT_TRUE(
        every_item(batch, [&](int i) { return solution_ok<double>(s, i, rhs[i], get(hb, i)); }));
    capture_and_replay(
        stream.s, [&] { batchol::posv_mixed(exec, ga, gb, ginfo, giter); }, [&] { reset(ga, gb); },
        [&] {
          EXPECT_TRUE(same_bits(b, gb)) << "solution";
          EXPECT_TRUE(same_bits(info, ginfo)) << "info";
          EXPECT_TRUE(same_bits(iter, giter)) << "iter";
        });
  }
}

#else

TEST(GraphCapture, NeedsCuda) {
  GTEST_SKIP() << "CUDA graphs: a CUDA build only";
}

#endif

}  // namespace
}  // namespace batchol_test
