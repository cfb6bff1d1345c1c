// The host-level reference calls of the device-API tests (see
// support/host_reference.hpp), instantiated for every configuration.
#include "support/host_reference.hpp"

#include "support/views.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

namespace batchol_test {

template <class C>
using AView = Batch3<typename C::scalar, typename C::layout>;

template <class C>
std::vector<Matrix> items_after_potrf(const AView<C>& A, int batch) {
  InfoView info = make_info(batch, -99);
  batchol::potrf(Exec(), A, info, options(C::uplo, batchol::Path::Auto));
  EXPECT_EQ(download_info(info), std::vector<int>(batch, 0)) << "host-level potrf";
  const auto h = snapshot(A);
  std::vector<Matrix> out;
  for (int b = 0; b < batch; ++b) out.push_back(get(h, b));
  return out;
}

template <class C>
std::vector<Matrix> reference_potrf(const std::vector<Matrix>& images, int n) {
  AView<C> A("A", images.size(), n, n);
  upload(A, images);
  return items_after_potrf<C>(A, int(images.size()));
}

template <class BView, class F>
std::vector<Matrix> solve_into(BView B, const std::vector<Matrix>& rhs, F&& call) {
  upload(B, rhs);
  call(B);
  const auto h = snapshot(B);
  std::vector<Matrix> out;
  for (std::size_t b = 0; b < rhs.size(); ++b) out.push_back(get(h, int(b)));
  return out;
}

template <class C>
std::vector<Matrix> reference_potrs(const std::vector<Matrix>& factors,
                                    const std::vector<Matrix>& rhs, int n, int nrhs, bool rank3) {
  using T = typename C::scalar;
  using L = typename C::layout;
  const int batch = int(factors.size());
  AView<C> A("A", batch, n, n);
  upload(A, factors);
  const auto opts = options(C::uplo, batchol::Path::Auto);
  auto call = [&](const auto& B) { batchol::potrs(Exec(), A, B, opts); };
  if (rank3) return solve_into(Batch3<T, L>("B", batch, n, nrhs), rhs, call);
  return solve_into(Batch2<T, L>("B", batch, n), rhs, call);
}

template <class C>
std::vector<Matrix> reference_trsv(const std::vector<Matrix>& factors,
                                   const std::vector<Matrix>& rhs, int n, batchol::Trans trans) {
  const int batch = int(factors.size());
  AView<C> A("A", batch, n, n);
  upload(A, factors);
  const auto opts = options(C::uplo, batchol::Path::Auto);
  return solve_into(Batch2<typename C::scalar, typename C::layout>("b", batch, n), rhs,
                    [&](const auto& b) { batchol::trsv(Exec(), C::uplo, trans, A, b, opts); });
}

template <class C>
std::vector<Matrix> reference_posv(const std::vector<Matrix>& images,
                                   const std::vector<Matrix>& rhs, int n) {
  const int batch = int(images.size());
  AView<C> A("A", batch, n, n);
  upload(A, images);
  InfoView info = make_info(batch, -99);
  auto x = solve_into(Batch2<typename C::scalar, typename C::layout>("B", batch, n), rhs,
                      [&](const auto& B) {
                        batchol::posv(Exec(), A, B, info, options(C::uplo, batchol::Path::Auto));
                      });
  EXPECT_EQ(download_info(info), std::vector<int>(batch, 0)) << "host-level posv";
  return x;
}

// One explicit instantiation of each reference per configuration.
#define BATCHOL_TEST_REFERENCES(T, L, U)                                                          \
  template std::vector<Matrix> reference_potrf<Config<T, L, U>>(const std::vector<Matrix>&, int); \
  template std::vector<Matrix> reference_potrs<Config<T, L, U>>(                                  \
      const std::vector<Matrix>&, const std::vector<Matrix>&, int, int, bool);                    \
  template std::vector<Matrix> reference_trsv<Config<T, L, U>>(                                   \
      const std::vector<Matrix>&, const std::vector<Matrix>&, int, batchol::Trans);               \
  template std::vector<Matrix> reference_posv<Config<T, L, U>>(const std::vector<Matrix>&,        \
                                                               const std::vector<Matrix>&, int);
#define BATCHOL_TEST_REFERENCES_BOTH(T, L) \
  BATCHOL_TEST_REFERENCES(T, L, Uplo::Lower) BATCHOL_TEST_REFERENCES(T, L, Uplo::Upper)

BATCHOL_TEST_REFERENCES_BOTH(float, LayoutLeft)
BATCHOL_TEST_REFERENCES_BOTH(float, LayoutRight)
BATCHOL_TEST_REFERENCES_BOTH(double, LayoutLeft)
BATCHOL_TEST_REFERENCES_BOTH(double, LayoutRight)

}  // namespace batchol_test
