// Batches of every shape the kernels meet, on every path of the build, against
// LAPACK and BLAS and against each other, on well-conditioned matrices where
// results are compared entry by entry (support/tolerance.hpp, tight_tol):
// every order up to 40 and some beyond; batch sizes that leave every
// remainder of the Host path's packs (4, 8 or 16 matrices, by the SIMD width)
// and of its jammed calls; A and B as subviews of larger Views (padded, every
// other item, interleaved with another batch) and in different shapes;
// write_transposed; batches whose lines crowd the caches. On the Host path the
// cases run with the batch taken to be in cache and in memory
// (support/host_regimes.hpp), and the staged chunks' copy-out is checked with
// both kinds of store. Failures inside packs: test_posv_failure.cpp; fast_math
// on these matrices: test_factor.cpp.
#include "support/host_regimes.hpp"
#include "support/shapes.hpp"
#include "support/spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace batchol_test {
namespace {

template <class C>
class Shapes : public ::testing::Test {};
TYPED_TEST_SUITE(Shapes, AllConfigs, ConfigNames);

using ::testing::AssertionFailure;
using ::testing::AssertionResult;
using ::testing::AssertionSuccess;

// The calls a case makes.
enum Calls : unsigned { kPotrf = 1, kPosv = 2, kPotrs = 4, kTrsv = 8 };

// Item b of the rank-3 host View h holds the factor `l` in triangle `uplo`
// and, with `mirror`, its transpose in the other one; without, the other
// triangle is bit for bit that of `before`.
template <class H, class H0>
AssertionResult other_triangle_ok(const H& h, const H0& before, int b, Uplo uplo, bool mirror) {
  if (!mirror) {
    if (other_triangle_bits_equal(before, h, b, uplo)) return AssertionSuccess();
    return AssertionFailure() << "wrote outside triangle " << name_of(uplo);
  }
  const int n = int(h.extent(1));
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i)
      if (!same_bits(h(b, i, k), h(b, k, i)))
        return AssertionFailure() << "entry (" << k << ", " << i << ") is not the mirror of (" << i
                                  << ", " << k << ")";
  return AssertionSuccess();
}

// The calls `calls` on the matrices of s, with A in shape KA and the
// right-hand sides in shape KB (nrhs of them for posv and potrs, one for
// trsv), on every path and Host regime (for_each_path_and_regime): infos,
// factors and solutions against LAPACK's, each path against the Generic
// path, A only read by the solves, and nothing written outside the subviews
// or outside the triangle.
template <class C, class KA, class KB>
void expect_shape_case(const SpdBatch& s, int nrhs, unsigned calls, bool mirror = false) {
  using T = typename C::scalar;
  constexpr Uplo uplo = C::uplo;
  const int n = s.n, batch = s.batch();
  const auto rhs = make_rhs<T>(n, nrhs, batch), rhs1 = make_rhs<T>(n, 1, batch, 2);
  std::vector<Matrix> factored, x_ref, z_ref[2];
  for (int b = 0; b < batch; ++b) {
    factored.push_back(image_of(s.lower[b], uplo, kPoison));
    x_ref.push_back(lapack_potrs<T>(s.lower[b], rhs[b]));
    for (int t : {0, 1}) z_ref[t].push_back(blas_trsv<T>(s.lower[b], t == 1, rhs1[b]));
  }
  auto subA = [&](const auto& v) { return KA::sub3(v, batch, n, n); };
  auto subB = [&](const auto& v) { return KB::sub3(v, batch, n, nrhs); };
  auto subb = [&](const auto& v) { return KB::sub2(v, batch, n); };
  const double tol = tight_tol<T>(n);
  // The first path's results, which every other path and regime must match.
  std::vector<Matrix> first_l, first_x, first_y, first_z[2];
  auto agree = [&](std::vector<Matrix>& first, const std::vector<Matrix>& got, double bound) {
    if (first.empty()) first = got;
    EXPECT_TRUE(every_item(batch, [&](int b) {
      return within("path vs path (tight)", max_relative_diff(got[b], first[b]), bound);
    }));
  };

  for_each_path_and_regime<Op::Potrf, Op::Posv, Op::Potrs, Op::TrsvN, Op::TrsvT>(
      [&](batchol::Path path, const std::string& regime) {
        SCOPED_TRACE(std::string(KA::name) + " A, " + KB::name + " B, " +
                     case_name(n, batch, path) + ", nrhs = " + std::to_string(nrhs) +
                     (mirror ? ", write_transposed, " : ", ") + regime);
        batchol::Options opts = options(uplo, path);
        opts.write_transposed = mirror;
        bool intact = false;

        if (calls & kPotrf) {
          Embedded A(KA::template big3<T>(batch, n, n), subA, s.images(uplo));
          InfoView info = make_info(batch, -99);
          batchol::potrf(Exec(), subA(A.big), info, opts);
          const auto h = A.after(subA, intact);
          EXPECT_TRUE(intact) << "potrf wrote outside A's subview";
          EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
          std::vector<Matrix> l;
          for (int b = 0; b < batch; ++b) l.push_back(lower_of(get(subA(h), b), uplo));
          EXPECT_TRUE(every_item(batch, [&](int b) {
            auto r = other_triangle_ok(subA(h), subA(A.before), b, uplo, mirror);
            if (!r) return r;
            return within("factor vs LAPACK (tight)", max_relative_diff(l[b], s.lower[b]), tol);
          }));
          agree(first_l, l, tol);
        }

        if (calls & kPosv) {
          Embedded A(KA::template big3<T>(batch, n, n), subA, s.images(uplo));
          Embedded B(KB::template big3<T>(batch, n, nrhs), subB, rhs);
          InfoView info = make_info(batch, -99);
          batchol::posv(Exec(), subA(A.big), subB(B.big), info, opts);
          const auto ha = A.after(subA, intact);
          EXPECT_TRUE(intact) << "posv wrote outside A's subview";
          const auto hb = B.after(subB, intact);
          EXPECT_TRUE(intact) << "posv wrote outside B's subview";
          EXPECT_EQ(download_info(info), std::vector<int>(batch, 0));
          std::vector<Matrix> x;
          for (int b = 0; b < batch; ++b) x.push_back(get(subB(hb), b));
          EXPECT_TRUE(every_item(batch, [&](int b) {
            auto r = other_triangle_ok(subA(ha), subA(A.before), b, uplo, mirror);
            if (!r) return r;
            r = within("factor vs LAPACK (tight)",
                       max_relative_diff(lower_of(get(subA(ha), b), uplo), s.lower[b]), tol);
            if (!r) return r;
            return within("solution vs LAPACK (tight)", max_relative_diff(x[b], x_ref[b]), 4 * tol);
          }));
          agree(first_x, x, 4 * tol);
        }

        if ((calls & kPotrs) && nrhs > 0) {
          Embedded A(KA::template big3<T>(batch, n, n), subA, factored);
          Embedded B(KB::template big3<T>(batch, n, nrhs), subB, rhs);
          batchol::potrs(Exec(), subA(A.big), subB(B.big), opts);
          EXPECT_TRUE(span_bits_equal(snapshot(A.big), A.before)) << "potrs wrote to A";
          const auto hb = B.after(subB, intact);
          EXPECT_TRUE(intact) << "potrs wrote outside B's subview";
          std::vector<Matrix> y;
          for (int b = 0; b < batch; ++b) y.push_back(get(subB(hb), b));
          EXPECT_TRUE(every_item(batch, [&](int b) {
            return within("solution vs LAPACK (tight)", max_relative_diff(y[b], x_ref[b]), 4 * tol);
          }));
          agree(first_y, y, 4 * tol);
        }

        if (calls & kTrsv) {
          for (batchol::Trans trans : {batchol::Trans::NoTranspose, batchol::Trans::Transpose}) {
            SCOPED_TRACE(std::string("trsv ") + name_of(trans));
            // op(T) is L or L^T: T is L for Lower, L^T for Upper.
            const bool lower_op = (uplo == Uplo::Lower) == (trans == batchol::Trans::NoTranspose);
            Embedded A(KA::template big3<T>(batch, n, n), subA, factored);
            Embedded Z(KB::template big2<T>(batch, n), subb, rhs1);
            batchol::trsv(Exec(), uplo, trans, subA(A.big), subb(Z.big), opts);
            EXPECT_TRUE(span_bits_equal(snapshot(A.big), A.before)) << "trsv wrote to A";
            const auto hz = Z.after(subb, intact);
            EXPECT_TRUE(intact) << "trsv wrote outside b's subview";
            std::vector<Matrix> z;
            for (int b = 0; b < batch; ++b) z.push_back(get(subb(hz), b));
            const auto& ref = z_ref[lower_op ? 0 : 1];
            EXPECT_TRUE(every_item(batch, [&](int b) {
              return within("trsv vs BLAS (tight)", max_relative_diff(z[b], ref[b]), 4 * tol);
            }));
            agree(first_z[lower_op ? 0 : 1], z, 4 * tol);
          }
        }
      });
}

// Every order up to 40, and a few beyond: potrf in every shape, posv too on
// the batch's own View, on a batch that leaves a partial pack (53 = 3 x 16 + 5
// = 6 x 8 + 5).
TYPED_TEST(Shapes, EveryOrderEveryShape) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  std::vector<int> orders;
  for (int n = 1; n <= 40; ++n) orders.push_back(n);
  for (int n : {48, 64, 100, 128}) orders.push_back(n);
  for (int n : orders) {
    const SpdBatch s = make_dominant_batch<T>(n, 53);
    expect_shape_case<C, Contiguous<L>, Contiguous<L>>(s, 2, kPotrf | kPosv);
    expect_shape_case<C, Padded<L>, Padded<L>>(s, 2, kPotrf);
    expect_shape_case<C, EveryOther<L>, EveryOther<L>>(s, 2, kPotrf);
    expect_shape_case<C, Interleaved<L>, Interleaved<L>>(s, 2, kPotrf);
    if (::testing::Test::HasFailure()) return;
  }
}

// Batch sizes around packs of 4, 8 and 16 matrices (one matrix, a pack less
// one, a pack and one, 3 packs and 5, 5 packs, 7 packs less 3, and many):
// every remainder of the last pack and of the jammed calls of one to four
// packs, in the two shapes the Host path reads differently (a pack's lanes
// adjacent in memory on LayoutLeft or not at all when interleaved).
TYPED_TEST(Shapes, EveryRemainderOfThePacks) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int batch : {1, 3, 5, 7, 9, 15, 17, 20, 25, 29, 40, 53, 80, 109, 1003})
    for (int n : {1, 4, 7, 9, 11, 13, 16, 17, 40}) {
      const SpdBatch s = make_dominant_batch<T>(n, batch);
      expect_shape_case<C, Contiguous<L>, Contiguous<L>>(s, 2, kPotrf | kPosv);
      expect_shape_case<C, Interleaved<L>, Interleaved<L>>(s, 2, kPotrf | kPosv);
      if (::testing::Test::HasFailure()) return;
    }
}

// A and B in different shapes, with no, one, two and seven right-hand sides:
// posv, potrs and trsv at the unwound orders, at every remainder of the
// blocked substitutions' blocks of 8 rows (n = 17-24) and beyond.
TYPED_TEST(Shapes, MixedShapesOfAAndB) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {1, 2, 3, 5, 8, 11, 16, 17, 18, 19, 20, 21, 22, 23, 24, 33, 40, 64, 100}) {
    const SpdBatch s = make_dominant_batch<T>(n, 29), t = make_dominant_batch<T>(n, 17);
    for (int nrhs : {0, 1, 2, 7}) {
      const unsigned calls = kPosv | kPotrs;
      expect_shape_case<C, Contiguous<L>, Contiguous<L>>(s, nrhs, calls);
      expect_shape_case<C, Contiguous<L>, EveryOther<L>>(t, nrhs, calls);
      expect_shape_case<C, Padded<L>, Contiguous<L>>(t, nrhs, calls);
      expect_shape_case<C, Padded<L>, Padded<L>>(s, nrhs, calls);
      expect_shape_case<C, Interleaved<L>, Contiguous<L>>(t, nrhs, calls);
    }
    expect_shape_case<C, Contiguous<L>, Contiguous<L>>(s, 1, kTrsv);
    expect_shape_case<C, Padded<L>, EveryOther<L>>(t, 1, kTrsv);
    expect_shape_case<C, Interleaved<L>, Padded<L>>(t, 1, kTrsv);
    if (::testing::Test::HasFailure()) return;
  }
}

// write_transposed in every shape: the factor in its triangle and its mirror
// in the other (potrf and posv).
TYPED_TEST(Shapes, WriteTransposedEveryShape) {
  using C = TypeParam;
  using T = typename C::scalar;
  using L = typename C::layout;
  for (int n : {1, 3, 8, 16, 19, 40}) {
    const SpdBatch s = make_dominant_batch<T>(n, 19);
    expect_shape_case<C, Contiguous<L>, Contiguous<L>>(s, 2, kPotrf | kPosv, true);
    expect_shape_case<C, Padded<L>, Padded<L>>(s, 2, kPotrf | kPosv, true);
    expect_shape_case<C, EveryOther<L>, EveryOther<L>>(s, 2, kPotrf | kPosv, true);
    if (::testing::Test::HasFailure()) return;
  }
}

// Batches whose element streams lie a power of two apart (LayoutLeft: a
// multiple of 128 KiB, an L2 way on many machines), so that a pack's lines
// crowd a few cache sets.
template <class C>
class PowerOfTwoBatches : public ::testing::Test {};
using LayoutLeftConfigs =
    ::testing::Types<Config<float, LayoutLeft, Uplo::Lower>, Config<float, LayoutLeft, Uplo::Upper>,
                     Config<double, LayoutLeft, Uplo::Lower>,
                     Config<double, LayoutLeft, Uplo::Upper>>;
TYPED_TEST_SUITE(PowerOfTwoBatches, LayoutLeftConfigs, ConfigNames);

TYPED_TEST(PowerOfTwoBatches, CrowdTheCacheSets) {
  using C = TypeParam;
  using T = typename C::scalar;
  const int batch = int((std::size_t(128) << 10) / sizeof(T));
  for (int n : {4, 5, 8, 12}) {
    const SpdBatch s = make_dominant_batch<T>(n, batch);
    expect_shape_case<C, Contiguous<LayoutLeft>, Contiguous<LayoutLeft>>(
        s, 2, kPotrf | kPosv | kPotrs | kTrsv);
    if (::testing::Test::HasFailure()) return;
  }
}

// ---- the Host path's staged copy-out ----------------------------------------------

// A staged chunk copied in and back out, with ordinary and with non-temporal
// stores, whichever the machine's caches choose for real batches (the
// non-temporal ones only on an L2 of 16 ways or more): the lower triangle and
// B come back as the stage holds them (here doubled), the upper triangle of
// the lanes is untouched, and so is everything outside the chunk's packs.
template <class T>
void expect_staged_copy_out(bool nt) {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  namespace host = batchol::detail::host;
  constexpr int W = host::width_v<T>;
  constexpr int n = 11, nrhs = 2;
  const std::int64_t batch = 6 * W, p0 = 2, count = 3;
  using A3 = Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  A3 a("a", batch, n, n), b("b", batch, n, nrhs);
  auto value = [](std::int64_t m, int i, int j) { return T(1 + m + 100 * i + 10000 * j); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) a(m, i, j) = value(m, i, j);
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) b(m, i, c) = -value(m, i, c);
  auto pr = batchol::detail::problem_for(a, Uplo::Lower);
  batchol::detail::set_rhs(pr, b);
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % host::simd_bytes, 0u)
      << "non-temporal stores need it";
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % host::simd_bytes, 0u)
      << "non-temporal stores need it";
  host::Stage<T> stage;
  stage.reserve(pr, count);
  stage.in(pr, p0, count, true);
  stage.prefetch(pr, p0 + count, 1, true, 0, 1);  // (no effect on the data)
  const std::int64_t vectors = count * (n * (n + 1) / 2 + n * nrhs);
  for (std::int64_t v = 0; v < vectors; ++v) stage.a(0)[v] *= T(2);
  stage.out(pr, p0, count, true, true, nt);
  auto in_chunk = [&](std::int64_t m) { return m >= p0 * W && m < (p0 + count) * W; };
  std::int64_t wrong = 0;
  for (std::int64_t m = 0; m < batch; ++m) {
    const T f = in_chunk(m) ? T(2) : T(1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (a(m, i, j) != (i >= j ? f : T(1)) * value(m, i, j)) ++wrong;
    for (int c = 0; c < nrhs; ++c)
      for (int i = 0; i < n; ++i)
        if (b(m, i, c) != -f * value(m, i, c)) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << (nt ? "streamed" : "ordinary") << " copy-out";
#else
  (void)nt;
  GTEST_SKIP() << "no Host path in this build";
#endif
}

TEST(HostStaging, CopyOutWithOrdinaryAndStreamingStores) {
  for (bool nt : {false, true}) {
    expect_staged_copy_out<double>(nt);
    expect_staged_copy_out<float>(nt);
  }
}

}  // namespace
}  // namespace batchol_test
