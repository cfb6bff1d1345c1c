// Where the items of a batch lie: contiguous in a View of their own, or
// inside a larger View (a padded array; every other item of an array of
// pairs; interleaved item by item with another batch), which the calls see
// as LayoutStride subviews. Embedded fills the larger View with a marker
// that no call may change outside the subview.
#ifndef BATCHOL_TEST_SHAPES_HPP
#define BATCHOL_TEST_SHAPES_HPP

#include "views.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace batchol_test {

using P = Kokkos::pair<int, int>;

// The batch's own View (LayoutLeft or LayoutRight, no subview).
template <class Layout>
struct Contiguous {
  static constexpr const char* name = "contiguous";
  template <class T>
  using Big3 = Kokkos::View<T***, Layout, Exec>;
  template <class T>
  using Big2 = Kokkos::View<T**, Layout, Exec>;
  template <class T>
  static Big3<T> big3(int batch, int rows, int cols) {
    return Big3<T>("big", batch, rows, cols);
  }
  template <class T>
  static Big2<T> big2(int batch, int rows) {
    return Big2<T>("big", batch, rows);
  }
  template <class V>
  static auto sub3(const V& v, int, int, int) {
    return v;
  }
  template <class V>
  static auto sub2(const V& v, int, int) {
    return v;
  }
};

// Items 1..batch of a (batch + 2, rows + 3, cols + 3) array, starting at
// (2, 1) inside each item: every stride differs from the packed one.
template <class Layout>
struct Padded {
  static constexpr const char* name = "padded";
  template <class T>
  using Big3 = Kokkos::View<T***, Layout, Exec>;
  template <class T>
  using Big2 = Kokkos::View<T**, Layout, Exec>;
  template <class T>
  static Big3<T> big3(int batch, int rows, int cols) {
    return Big3<T>("big", batch + 2, rows + 3, cols + 3);
  }
  template <class T>
  static Big2<T> big2(int batch, int rows) {
    return Big2<T>("big", batch + 2, rows + 3);
  }
  template <class V>
  static auto sub3(const V& v, int batch, int rows, int cols) {
    return Kokkos::subview(v, P(1, batch + 1), P(2, rows + 2), P(1, cols + 1));
  }
  template <class V>
  static auto sub2(const V& v, int batch, int rows) {
    return Kokkos::subview(v, P(1, batch + 1), P(2, rows + 2));
  }
};

// Slot 1 of every (2, rows, cols) pair: the problems interleaved with others.
template <class Layout>
struct EveryOther {
  static constexpr const char* name = "every other item";
  template <class T>
  using Big3 = Kokkos::View<T****, Layout, Exec>;
  template <class T>
  using Big2 = Kokkos::View<T***, Layout, Exec>;
  template <class T>
  static Big3<T> big3(int batch, int rows, int cols) {
    return Big3<T>("big", batch, 2, rows, cols);
  }
  template <class T>
  static Big2<T> big2(int batch, int rows) {
    return Big2<T>("big", batch, 2, rows);
  }
  template <class V>
  static auto sub3(const V& v, int, int, int) {
    return Kokkos::subview(v, Kokkos::ALL, 1, Kokkos::ALL, Kokkos::ALL);
  }
  template <class V>
  static auto sub2(const V& v, int, int) {
    return Kokkos::subview(v, Kokkos::ALL, 1, Kokkos::ALL);
  }
};

// Slot 1 of a (2, batch, rows, cols) array: on LayoutLeft the items
// alternate with another batch's, element by element (batch stride 2), so
// that no two items of the batch are adjacent in memory.
template <class Layout>
struct Interleaved {
  static constexpr const char* name = "interleaved with another batch";
  template <class T>
  using Big3 = Kokkos::View<T****, Layout, Exec>;
  template <class T>
  using Big2 = Kokkos::View<T***, Layout, Exec>;
  template <class T>
  static Big3<T> big3(int batch, int rows, int cols) {
    return Big3<T>("big", 2, batch, rows, cols);
  }
  template <class T>
  static Big2<T> big2(int batch, int rows) {
    return Big2<T>("big", 2, batch, rows);
  }
  template <class V>
  static auto sub3(const V& v, int, int, int) {
    return Kokkos::subview(v, 1, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL);
  }
  template <class V>
  static auto sub2(const V& v, int, int) {
    return Kokkos::subview(v, 1, Kokkos::ALL, Kokkos::ALL);
  }
};

// A big View with the problem's items inside; the rest is filled with a
// marker that must survive every call.
template <class BigView>
struct Embedded {
  BigView big;
  typename BigView::host_mirror_type before;

  template <class SubOf, class Items>
  Embedded(BigView b, SubOf sub_of, const Items& items) : big(b) {
    auto h = Kokkos::create_mirror_view(big);
    Kokkos::deep_copy(h, -12345.0);
    auto hs = sub_of(h);
    for (std::size_t k = 0; k < items.size(); ++k) put(hs, int(k), items[k]);
    Kokkos::deep_copy(big, h);
    before = snapshot(big);
  }
  // The host copy after the calls, and whether everything outside the
  // subview is bit-identical to before.
  template <class SubOf>
  typename BigView::host_mirror_type after(SubOf sub_of, bool& outside_intact) const {
    const auto now = snapshot(big);
    auto merged = snapshot(big);
    Kokkos::deep_copy(sub_of(merged), sub_of(before));  // host to host, any strides
    outside_intact = span_bits_equal(merged, before);
    return now;
  }
};

}  // namespace batchol_test

#endif
