// The device-level API checks, written once for any way of running it (a
// Runner launches batchol::serial::* or batchol::team::* from a user kernel):
// results against LAPACK and against the host-level calls on the same data.
#ifndef BATCHOL_TEST_DEVICE_CASES_HPP
#define BATCHOL_TEST_DEVICE_CASES_HPP

#include "defects.hpp"
#include "host_reference.hpp"
#include "spd_batch.hpp"
#include "user_kernels.hpp"

#include <gtest/gtest.h>

namespace batchol_test {

struct SerialRunner {
  std::string name() const { return "serial"; }
  template <class A, class B, class Code>
  void operator()(Call op, const A& a, const B& b, const Code& code, Uplo uplo) const {
    serial_kernel(op, a, b, code, uplo);
  }
};

struct TeamRunner {
  Scratch scratch = Scratch::Requested;
  std::string name() const {
    switch (scratch) {
      case Scratch::Requested:
        return "team with scratch";
      case Scratch::None:
        return "team without scratch";
      default:
        return "team with scratch used up";
    }
  }
  template <class A, class B, class Code>
  void operator()(Call op, const A& a, const B& b, const Code& code, Uplo uplo) const {
    team_kernel(op, a, b, code, uplo, scratch);
  }
};

inline const std::vector<int> kDeviceSizes{0,  1,  2,  3,  4,  5,  8,  9,   13, 16,
                                           17, 31, 32, 33, 48, 64, 65, 100, 128};
inline int device_batch(int n) {
  return n <= 65 ? 7 : 3;
}

template <class C>
using DevA = Batch3<typename C::scalar, typename C::layout>;
template <class C>
using DevB2 = Batch2<typename C::scalar, typename C::layout>;
template <class C>
using DevB3 = Batch3<typename C::scalar, typename C::layout>;

template <class C>
DevA<C> device_images(const std::vector<Matrix>& images, int n) {
  DevA<C> A("A", images.size(), n, n);
  upload(A, images);
  return A;
}

template <class V>
V make_rhs_view(int batch, int n, int nrhs) {
  if constexpr (rank_of<V> == 3)
    return V("B", batch, n, nrhs);
  else
    return V("B", batch, n);
}

template <class V>
std::vector<Matrix> items_of(const V& d) {
  const auto h = snapshot(d);
  std::vector<Matrix> out;
  for (std::size_t i = 0; i < d.extent(0); ++i) out.push_back(get(h, int(i)));
  return out;
}

// The n x 1 column q of every item.
inline std::vector<Matrix> column_of(const std::vector<Matrix>& items, int q) {
  std::vector<Matrix> out;
  for (const Matrix& m : items) {
    Matrix c(m.rows, 1);
    for (int i = 0; i < m.rows; ++i) c(i, 0) = m(i, q);
    out.push_back(c);
  }
  return out;
}

// potrf from the user kernel: codes 0, the other triangle untouched, the
// factor accurate and in agreement with the host-level call.
template <class C, class Runner>
void expect_potrf_matches(const Runner& run) {
  using T = typename C::scalar;
  for (int n : kDeviceSizes) {
    const int batch = device_batch(n);
    SCOPED_TRACE(run.name() + ", n = " + std::to_string(n));
    const SpdBatch s = make_spd_batch<T>(n, batch);
    const std::vector<Matrix> ref = reference_potrf<C>(s.images(C::uplo), n);
    const DevA<C> A = device_images<C>(s.images(C::uplo), n);
    const auto before = snapshot(A);
    InfoView code = make_info(batch, -99);
    run(Call::Potrf, A, DevB2<C>("unused", batch, n), code, C::uplo);
    const auto after = snapshot(A);
    EXPECT_EQ(download_info(code), std::vector<int>(batch, 0));
    EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
      if (!other_triangle_bits_equal(before, after, b, C::uplo))
        return ::testing::AssertionFailure() << "wrote outside triangle " << name_of(C::uplo);
      const Matrix l = lower_of(get(after, b), C::uplo);
      auto r = factor_ok<T>(s, b, l);
      if (!r) return r;
      return paths_agree<T>(l, lower_of(ref[b], C::uplo), n, s.cond[b]);
    }));
    if (::testing::Test::HasFailure()) return;
  }
}

// potrs, posv and trsv from the user kernel, for a vector (rank-1 item) and a
// block of 3 right-hand sides (rank-2 item), against LAPACK and the host level.
template <class C, class BView, class Runner>
void expect_solves_match_for(const Runner& run, const SpdBatch& s, int nrhs) {
  using T = typename C::scalar;
  const int n = s.n, batch = s.batch();
  constexpr bool rank3 = rank_of<BView> == 3;
  const auto rhs = make_rhs<T>(n, nrhs, batch);
  const std::vector<Matrix> factors = reference_potrf<C>(s.images(C::uplo), n);
  const DevA<C> F = device_images<C>(factors, n);

  // potrs with the host-level factor.
  BView X = make_rhs_view<BView>(batch, n, nrhs);
  upload(X, rhs);
  InfoView code = make_info(batch, -99);
  run(Call::Potrs, F, X, code, C::uplo);
  EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "potrs";
  const auto x = items_of(X), xh = reference_potrs<C>(factors, rhs, n, nrhs, rank3);
  EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
    auto r = solution_ok<T>(s, b, rhs[b], x[b]);
    if (!r) return r << " (potrs)";
    return paths_agree<T>(x[b], xh[b], n, s.cond[b]) << " (potrs)";
  }));

  // posv from the original matrices.
  DevA<C> A = device_images<C>(s.images(C::uplo), n);
  BView Y = make_rhs_view<BView>(batch, n, nrhs);
  upload(Y, rhs);
  Kokkos::deep_copy(code, -99);
  run(Call::Posv, A, Y, code, C::uplo);
  EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "posv";
  const auto y = items_of(Y);
  const auto fa = snapshot(A);
  EXPECT_TRUE(every_item(batch, [&](int b) -> ::testing::AssertionResult {
    auto r = solution_ok<T>(s, b, rhs[b], y[b]);
    if (!r) return r << " (posv)";
    r = paths_agree<T>(y[b], xh[b], n, s.cond[b]);
    if (!r) return r << " (posv solution vs host level)";
    return paths_agree<T>(lower_of(get(fa, b), C::uplo), lower_of(factors[b], C::uplo), n,
                          s.cond[b])
           << " (posv factor vs host level)";
  }));

  // trsv in every op with the factor, against the host-level trsv
  // (ConjTranspose is Transpose for real scalars).
  for (batchol::Trans trans :
       {batchol::Trans::NoTranspose, batchol::Trans::Transpose, batchol::Trans::ConjTranspose}) {
    BView Z = make_rhs_view<BView>(batch, n, nrhs);
    upload(Z, rhs);
    Kokkos::deep_copy(code, -99);
    run(trsv_call(trans), F, Z, code, C::uplo);
    EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "trsv";
    const auto z = items_of(Z);
    for (int q = 0; q < nrhs; ++q) {
      // Host-level trsv takes one right-hand side per matrix: column q.
      const auto ref = reference_trsv<C>(factors, column_of(rhs, q), n, trans);
      EXPECT_TRUE(every_item(batch, [&](int b) {
        Matrix zq(n, 1);
        for (int i = 0; i < n; ++i) zq(i, 0) = z[b](i, q);
        return paths_agree<T>(zq, ref[b], n, s.cond[b]) << " (trsv " << name_of(trans) << ")";
      }));
    }
  }
}

template <class C, class Runner>
void expect_solves_match(const Runner& run) {
  using T = typename C::scalar;
  for (int n : kDeviceSizes) {
    SCOPED_TRACE(run.name() + ", n = " + std::to_string(n));
    const SpdBatch s = make_spd_batch<T>(n, device_batch(n));
    expect_solves_match_for<C, DevB2<C>>(run, s, 1);
    expect_solves_match_for<C, DevB3<C>>(run, s, 3);
    if (::testing::Test::HasFailure()) return;
  }
}

// A batch made of every defect: potrf and posv return each one's exact info,
// and posv leaves the right-hand sides of all of them unchanged.
template <class C, class Runner>
void expect_failures_reported(const Runner& run) {
  using T = typename C::scalar;
  for (int n : {1, 2, 9, 33}) {
    SCOPED_TRACE(run.name() + ", n = " + std::to_string(n));
    const SpdBatch base = make_spd_batch<T>(n, 1, /*salt=*/7);
    std::vector<Matrix> images;
    std::vector<int> want;
    for (const BadMatrix& bad : defects_of(base.a[0])) {
      images.push_back(image_of(bad.a, C::uplo, kPoison));
      want.push_back(bad.info);
    }
    const int batch = int(images.size());
    InfoView code = make_info(batch, -99);
    run(Call::Potrf, device_images<C>(images, n), DevB2<C>("unused", batch, n), code, C::uplo);
    EXPECT_EQ(download_info(code), want) << "potrf";

    DevB3<C> B = make_rhs_view<DevB3<C>>(batch, n, 2);
    upload(B, make_rhs<T>(n, 2, batch));
    const auto b0 = snapshot(B);
    Kokkos::deep_copy(code, -99);
    run(Call::Posv, device_images<C>(images, n), B, code, C::uplo);
    EXPECT_EQ(download_info(code), want) << "posv";
    EXPECT_EQ(first_item_differing(b0, snapshot(B)), -1) << "posv overwrote B of a failed matrix";
  }
}

}  // namespace batchol_test

#endif
