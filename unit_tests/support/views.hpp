// Moving test data between reference matrices and Kokkos Views. Device Views
// are only touched through host mirrors and deep_copy, so the same code runs
// when the default execution space is a GPU.
#ifndef BATCHOL_TEST_VIEWS_HPP
#define BATCHOL_TEST_VIEWS_HPP

#include "matrix.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <limits>

namespace batchol_test {

using Exec = Kokkos::DefaultExecutionSpace;
using InfoView = Kokkos::View<int*, Exec>;
template <class T, class Layout>
using Batch3 = Kokkos::View<T***, Layout, Exec>;  // (batch, n, n) or (batch, n, nrhs)
template <class T, class Layout>
using Batch2 = Kokkos::View<T**, Layout, Exec>;  // (batch, n)

// Kokkos 4.1 made View::rank an integral_constant; 3.4 has an enum. Both cast.
template <class V>
inline constexpr int rank_of = static_cast<int>(V::rank);

inline constexpr double kPoison = std::numeric_limits<double>::quiet_NaN();

// Writes m into item b of a host-accessible View: rank 3 (batch, rows, cols)
// takes the whole matrix, rank 2 (batch, rows) its first column.
template <class HView>
void put(const HView& h, int b, const Matrix& m) {
  using T = typename HView::non_const_value_type;
  for (int i = 0; i < m.rows; ++i) {
    if constexpr (rank_of<HView> == 3) {
      for (int j = 0; j < m.cols; ++j) h(b, i, j) = static_cast<T>(m(i, j));
    } else {
      h(b, i) = static_cast<T>(m(i, 0));
    }
  }
}

// Reads item b of a host-accessible View back as a double Matrix.
template <class HView>
Matrix get(const HView& h, int b) {
  if constexpr (rank_of<HView> == 3) {
    Matrix m(int(h.extent(1)), int(h.extent(2)));
    for (int j = 0; j < m.cols; ++j)
      for (int i = 0; i < m.rows; ++i) m(i, j) = static_cast<double>(h(b, i, j));
    return m;
  } else {
    Matrix m(int(h.extent(1)), 1);
    for (int i = 0; i < m.rows; ++i) m(i, 0) = static_cast<double>(h(b, i));
    return m;
  }
}

// A host copy that later kernels cannot change (create_mirror_view would alias
// a host View).
template <class View>
auto snapshot(const View& d) {
  auto h = Kokkos::create_mirror(d);
  Kokkos::deep_copy(h, d);
  return h;
}

// Fills a contiguous device View from reference matrices, one per item.
template <class View, class Items>
void upload(const View& d, const Items& items) {
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t b = 0; b < items.size(); ++b) put(h, int(b), items[b]);
  Kokkos::deep_copy(d, h);
}

inline InfoView make_info(int batch, int fill) {
  InfoView info("info", batch);
  Kokkos::deep_copy(info, fill);
  return info;
}

inline std::vector<int> download_info(const InfoView& info) {
  auto h = snapshot(info);
  std::vector<int> out(info.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}

template <class T>
bool same_bits(T x, T y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// Item ba of `a` and item bb of `b` are equal to the bit (NaNs included).
template <class HA, class HB>
bool item_bits_equal(const HA& a, int ba, const HB& b, int bb) {
  for (std::size_t i = 0; i < a.extent(1); ++i) {
    if constexpr (rank_of<HA> == 3) {
      for (std::size_t j = 0; j < a.extent(2); ++j)
        if (!same_bits(a(ba, i, j), b(bb, i, j))) return false;
    } else {
      if (!same_bits(a(ba, i), b(bb, i))) return false;
    }
  }
  return true;
}

// Every item of two host Views is equal to the bit; returns the first that is
// not, or -1.
template <class HA, class HB>
int first_item_differing(const HA& a, const HB& b) {
  for (std::size_t k = 0; k < a.extent(0); ++k)
    if (!item_bits_equal(a, int(k), b, int(k))) return int(k);
  return -1;
}

// Two host copies of one contiguous View (any rank) are equal to the bit.
template <class HA, class HB>
bool span_bits_equal(const HA& a, const HB& b) {
  return a.span() == b.span() &&
         std::memcmp(a.data(), b.data(), a.span() * sizeof(typename HA::value_type)) == 0;
}

// The strict triangle that `uplo` does not name is equal to the bit in item b
// of two host rank-3 Views.
template <class HA, class HB>
bool other_triangle_bits_equal(const HA& a, const HB& b, int item, batchol::Uplo uplo) {
  const int n = int(a.extent(1));
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) {
      // (i, k) is in the strict lower triangle; the other triangle of Lower is (k, i).
      const int r = uplo == batchol::Uplo::Lower ? k : i, c = uplo == batchol::Uplo::Lower ? i : k;
      if (!same_bits(a(item, r, c), b(item, r, c))) return false;
    }
  return true;
}

}  // namespace batchol_test

#endif
