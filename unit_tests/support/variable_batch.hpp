// Variable-size test batches: random SPD matrices of orders 0..nmax, stored
// padded (the leading block of a (batch, nmax, nmax) View of the
// configuration's layout) or packed (one rank-1 View, by columns for
// LayoutLeft and by rows for LayoutRight, with poisoned gaps between the
// matrices), their right-hand sides likewise, and the whole storage read back
// so that a test sees both each result and every element a call must not
// write.
#ifndef BATCHOL_TEST_VARIABLE_BATCH_HPP
#define BATCHOL_TEST_VARIABLE_BATCH_HPP

#include "spd_batch.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace batchol_test {

enum class Kind { Padded, Packed };

inline const char* name_of(Kind k) {
  return k == Kind::Padded ? "padded" : "packed";
}

template <class L>
constexpr batchol::Storage storage_of() {
  return std::is_same_v<L, LayoutLeft> ? batchol::Storage::ColMajor : batchol::Storage::RowMajor;
}

using OrderView = Kokkos::View<int*, Exec>;
using OffsetView = Kokkos::View<std::int64_t*, Exec>;
template <class T>
using Packed1 = Kokkos::View<T*, Exec>;

// Orders drawn uniformly from 0..nmax, with 0, 1 and nmax among them.
inline std::vector<int> random_orders(int batch, int nmax, int salt = 0) {
  Rng rng(seed_of(nmax, batch, salt + 0x0dd));
  std::vector<int> n(batch);
  for (int& x : n) x = std::min(nmax, int((rng.uniform() + 1.0) * 0.5 * (nmax + 1)));
  const int fixed[] = {0, 1, nmax};
  for (int k = 0; k < 3 && k < batch; ++k) n[(k * batch) / 3 + batch / 6] = fixed[k];
  return n;
}

// One random SPD matrix (with LAPACK's factor) per order: a batch of one each,
// so that the checks of spd_batch.hpp apply at each matrix's own order.
template <class T>
std::vector<SpdBatch> make_matrices(const std::vector<int>& orders, int salt = 0) {
  std::vector<SpdBatch> out;
  for (std::size_t i = 0; i < orders.size(); ++i)
    out.push_back(make_spd_batch<T>(orders[i], 1, salt + int(i)));
  return out;
}

// Where element (r, c) of item i lies in a storage, and what the storage
// holds. `stored[i]` is how many rows item i occupies (its order, or what a
// planted bad order stands for); `cols` the columns of each item (the order
// for matrices, nrhs for right-hand sides).
template <class T, class L>
class VarStorage {
 public:
  // rank 3 (batch, nmax, cols) or 2 (batch, nmax) when padded; packed: one
  // block of stored[i] x cols per item, gaps of `kGap` poisoned elements.
  VarStorage(Kind kind, int nmax, std::vector<int> stored, int cols, bool square, int rank = 3)
      : kind_(kind),
        nmax_(nmax),
        stored_(std::move(stored)),
        cols_(cols),
        square_(square),
        rank_(rank) {
    const int batch = int(stored_.size());
    if (kind_ == Kind::Padded) {
      if (rank_ == 3)
        a3_ = Batch3<T, L>("A", batch, nmax, square_ ? nmax : cols_);
      else
        a2_ = Batch2<T, L>("b", batch, nmax);
    } else {
      offsets_.resize(batch);
      std::int64_t at = kGap;
      for (int i = 0; i < batch; ++i) {
        offsets_[i] = at;
        at += std::int64_t(stored_[i]) * cols_of(i) + kGap;
      }
      values_ = Packed1<T>("values", at);
      off_ = OffsetView("offsets", batch);
      auto h = Kokkos::create_mirror_view(off_);
      for (int i = 0; i < batch; ++i) h(i) = offsets_[i];
      Kokkos::deep_copy(off_, h);
    }
  }

  int batch() const { return int(stored_.size()); }
  int cols_of(int i) const { return square_ ? stored_[i] : cols_; }

  // Index of element (r, c) of item i in the raw storage.
  std::size_t index(int i, int r, int c) const {
    if (kind_ == Kind::Packed) {
      const std::int64_t ld =
          storage_of<L>() == batchol::Storage::ColMajor ? stored_[i] : cols_of(i);
      return std::size_t(storage_of<L>() == batchol::Storage::ColMajor
                             ? offsets_[i] + r + c * ld
                             : offsets_[i] + std::int64_t(r) * ld + c);
    }
    if (rank_ == 3) return i * a3_.stride(0) + r * a3_.stride(1) + c * a3_.stride(2);
    return i * a2_.stride(0) + r * a2_.stride(1);
  }

  std::size_t span() const {
    return kind_ == Kind::Packed ? values_.span() : rank_ == 3 ? a3_.span() : a2_.span();
  }
  T* data() const {
    return kind_ == Kind::Packed ? values_.data() : rank_ == 3 ? a3_.data() : a2_.data();
  }

  // Every element `kPoison`, then item i's stored[i] x cols block from items[i].
  void upload(const std::vector<Matrix>& items) const {
    std::vector<T> raw(span(), static_cast<T>(kPoison));
    for (int i = 0; i < batch(); ++i)
      for (int c = 0; c < cols_of(i); ++c)
        for (int r = 0; r < stored_[i]; ++r) raw[index(i, r, c)] = static_cast<T>(items[i](r, c));
    Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(raw.data(), raw.size());
    Kokkos::View<T*, Exec, Kokkos::MemoryUnmanaged> d(data(), span());
    Kokkos::deep_copy(d, h);
  }

  // The whole storage, as it is now.
  std::vector<T> raw() const {
    std::vector<T> out(span());
    Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(out.data(), out.size());
    Kokkos::View<T*, Exec, Kokkos::MemoryUnmanaged> d(data(), span());
    Kokkos::deep_copy(h, d);
    return out;
  }

  // Item i of a raw copy, stored[i] x cols.
  Matrix item(const std::vector<T>& raw, int i) const {
    Matrix m(stored_[i], cols_of(i));
    for (int c = 0; c < m.cols; ++c)
      for (int r = 0; r < m.rows; ++r) m(r, c) = static_cast<double>(raw[index(i, r, c)]);
    return m;
  }

  // The storage as a batchol argument: f(padded(A, n) or packed(...)), or for
  // right-hand sides f(View or packed_rhs(...)).
  template <class F>
  void with_matrices(const OrderView& n, const F& f) const {
    if (kind_ == Kind::Padded)
      f(batchol::padded(a3_, n));
    else
      f(batchol::packed(values_, off_, n, nmax_, storage_of<L>()));
  }
  template <class F>
  void with_rhs(const F& f) const {
    if (kind_ == Kind::Packed)
      f(batchol::packed_rhs(values_, off_, cols_, storage_of<L>()));
    else if (rank_ == 3)
      f(a3_);
    else
      f(a2_);
  }

  // Makes item i's offset on the device `offset` (a planted defect; index()
  // keeps the true one).
  void set_offset(int i, std::int64_t offset) const {
    Kokkos::deep_copy(Kokkos::subview(off_, i), offset);
  }
  std::int64_t packed_size() const { return std::int64_t(values_.extent(0)); }

 private:
  static constexpr std::int64_t kGap = 3;
  Kind kind_;
  int nmax_;
  std::vector<int> stored_;
  int cols_;
  bool square_;
  int rank_;
  Batch3<T, L> a3_;
  Batch2<T, L> a2_;
  Packed1<T> values_;
  OffsetView off_;
  std::vector<std::int64_t> offsets_;
};

inline OrderView make_orders(const std::vector<int>& n) {
  OrderView d("n", n.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < n.size(); ++i) h(i) = n[i];
  Kokkos::deep_copy(d, h);
  return d;
}

// The first index at which two raw copies differ to the bit, outside the
// positions `may_change` allows; -1 if none.
template <class T, class Allowed>
long first_change_outside(const std::vector<T>& before, const std::vector<T>& after,
                          const Allowed& may_change) {
  for (std::size_t k = 0; k < before.size(); ++k)
    if (!may_change[k] && !same_bits(before[k], after[k])) return long(k);
  return -1;
}

// Bits of two double matrices of equal shape (converted from T: exact).
inline bool matrix_bits_equal(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) return false;
  for (std::size_t k = 0; k < a.v.size(); ++k)
    if (!same_bits(a.v[k], b.v[k])) return false;
  return true;
}

}  // namespace batchol_test

#endif
