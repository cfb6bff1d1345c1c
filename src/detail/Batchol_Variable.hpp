// Variable-size batches reduced to the one Problem every path reads
// (Batchol_Problem.hpp): the checks and descriptions of padded and packed
// matrices and right-hand sides (Batchol_Variable.hpp, the public side). They
// read extents, pointers and strides only: the orders and offsets stay on the
// device, where the kernels check them (no host synchronization).
#ifndef BATCHOL_DETAIL_VARIABLE_HPP
#define BATCHOL_DETAIL_VARIABLE_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Check.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Describe.hpp>
#include <detail/Batchol_Problem.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace batchol::detail {

// The per-matrix orders n, one per matrix of a batch of `batch`.
template <class ExecSpace, class NView>
void check_orders(const char* routine, std::size_t batch, const NView& n) {
  static_check_view<ExecSpace, NView, 1>();
  static_assert(std::is_same_v<typename NView::non_const_value_type, int>,
                "batchol: the orders n must be a View of int");
  if (n.extent(0) != batch)
    fail(routine, "n",
         "must have one order per matrix: extent " + str(n.extent(0)) + " for a batch of " +
             str(batch));
}

// A packed array (values, or the values of right-hand sides) and its offsets.
template <class ExecSpace, class T, class VView, class OView>
void check_packed(const char* routine, const char* values_name, const char* offsets_name,
                  std::size_t batch, const VView& values, const OView& offsets) {
  static_check_view<ExecSpace, VView, 1>();
  static_assert(std::is_same_v<typename VView::non_const_value_type, T>,
                "batchol: packed values must be a View of the scalar type (float or double)");
  static_check_view<ExecSpace, OView, 1>();
  static_assert(std::is_same_v<typename OView::non_const_value_type, std::int64_t>,
                "batchol: packed offsets must be a View of std::int64_t");
  if (values.extent(0) > 1 && values.stride(0) != 1)
    fail(routine, values_name, "must be contiguous (stride 1)");
  if (offsets.extent(0) != batch)
    fail(routine, offsets_name,
         "must have one offset per matrix: extent " + str(offsets.extent(0)) + " for a batch of " +
             str(batch));
}

inline void check_storage(const char* routine, const char* name, Storage storage) {
  if (storage != Storage::ColMajor && storage != Storage::RowMajor)
    fail(routine, name, "must be Storage::ColMajor or Storage::RowMajor");
}

template <class T, class NView>
void set_orders(Problem<T>& pr, const NView& n) {
  pr.orders = n.data();
  pr.orders_s = static_cast<std::ptrdiff_t>(n.stride(0));
}

// Padded: the leading n(i) x n(i) block of each matrix of A (batch, nmax, nmax).
template <class ExecSpace, class AView, class NView>
Problem<typename AView::non_const_value_type> problem_padded(const char* routine, const AView& A,
                                                             const NView& n, Uplo uplo) {
  check_matrices<ExecSpace>(routine, A);
  check_orders<ExecSpace>(routine, A.extent(0), n);
  auto pr = problem_for(A, uplo);
  set_orders(pr, n);
  return pr;
}

// Packed: matrix i at values(offsets(i)), n(i) x n(i) in `storage`.
template <class ExecSpace, class VView, class OView, class NView>
Problem<typename VView::non_const_value_type> problem_packed(const char* routine,
                                                             const VView& values,
                                                             const OView& offsets, const NView& n,
                                                             int nmax, Storage storage, Uplo uplo) {
  using T = typename VView::non_const_value_type;
  static_check_scalar<VView>();
  check_packed<ExecSpace, T>(routine, "values", "offsets", n.extent(0), values, offsets);
  check_orders<ExecSpace>(routine, offsets.extent(0), n);
  if (nmax < 0) fail(routine, "nmax", "must be >= 0");
  check_storage(routine, "storage", storage);
  Problem<T> pr;
  pr.batch = static_cast<std::int64_t>(n.extent(0));
  pr.n = nmax;
  // potrs and trsv accept const values and never write through this pointer.
  pr.a = const_cast<T*>(values.data());
  pr.a_off = offsets.data();
  pr.a_off_s = static_cast<std::ptrdiff_t>(offsets.stride(0));
  pr.a_count = static_cast<std::int64_t>(values.extent(0));
  // Column-major: (r, c) at r + c n_i; row-major: r n_i + c.
  const bool by_columns = storage == Storage::ColMajor;
  pr.a_rs = by_columns ? 1 : 0;
  pr.a_rn = by_columns ? 0 : 1;
  pr.a_cs = by_columns ? 0 : 1;
  pr.a_cn = by_columns ? 1 : 0;
  // Upper: the lower triangle of the transpose.
  if (uplo == Uplo::Upper) {
    std::swap(pr.a_rs, pr.a_cs);
    std::swap(pr.a_rn, pr.a_cn);
  }
  set_orders(pr, n);
  return pr;
}

// Padded right-hand sides: B (batch, nmax) or (batch, nmax, nrhs), the
// leading n(i) rows of system i.
template <class ExecSpace, class T, class BView>
void set_rhs_padded(const char* routine, const char* name, Problem<T>& pr, const BView& B) {
  check_rhs_of<ExecSpace, T>(routine, name, std::size_t(pr.batch), std::size_t(pr.n), B);
  set_rhs(pr, B);
}

// Packed right-hand sides: the n(i) x nrhs block of system i at
// values(offsets(i)) in `storage` (column-major: leading dimension n(i)).
template <class ExecSpace, class T, class VView, class OView>
void set_rhs_packed(const char* routine, Problem<T>& pr, const VView& values, const OView& offsets,
                    int nrhs, Storage storage) {
  static_assert(!std::is_const_v<typename VView::value_type>,
                "batchol: right-hand sides are overwritten by the solution and cannot be const");
  check_packed<ExecSpace, T>(routine, "B.values", "B.offsets", std::size_t(pr.batch), values,
                             offsets);
  if (nrhs < 0) fail(routine, "B.nrhs", "must be >= 0");
  check_storage(routine, "B.storage", storage);
  pr.b = values.data();
  pr.b_off = offsets.data();
  pr.b_off_s = static_cast<std::ptrdiff_t>(offsets.stride(0));
  pr.b_count = static_cast<std::int64_t>(values.extent(0));
  pr.nrhs = nrhs;
  const bool by_columns = storage == Storage::ColMajor;
  pr.b_rs = by_columns ? 1 : nrhs;
  pr.b_rn = 0;
  pr.b_cs = by_columns ? 0 : 1;
  pr.b_cn = by_columns ? 1 : 0;
}

}  // namespace batchol::detail

#endif
