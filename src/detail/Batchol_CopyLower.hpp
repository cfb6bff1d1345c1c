// The lower triangles of one batch of matrices copied into another's (any
// strides): what an out-of-place potrf (Problem::src) needs where the
// kernel that runs factors in place. Only the triangle moves, so the
// destination's other triangle is never written on any path.
//
// One thread per element of the whole matrices, numbered so that
// consecutive threads step along the destination's smallest stride
// (coalesced on a GPU, sequential on a CPU for every layout); the threads of
// the other triangle write nothing.
#ifndef BATCHOL_COPY_LOWER_HPP
#define BATCHOL_COPY_LOWER_HPP

#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Problem.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace batchol::detail {

template <class T>
struct CopyLower {
  const T* from;
  std::ptrdiff_t f_bs, f_rs, f_cs;
  T* to;
  std::ptrdiff_t t_bs, t_rs, t_cs;
  // The element index's three digits, fastest first: which of (matrix, row,
  // column) each is, and its extent.
  int which[3];
  std::int64_t extent[3];

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    std::int64_t idx[3];
    std::int64_t rest = e;
    for (int d = 0; d < 2; ++d) {
      idx[which[d]] = rest % extent[d];
      rest /= extent[d];
    }
    idx[which[2]] = rest;
    const std::int64_t i = idx[0], r = idx[1], c = idx[2];
    if (c <= r) to[i * t_bs + r * t_rs + c * t_cs] = from[i * f_bs + r * f_rs + c * f_cs];
  }
};

// Copies the lower triangle of every matrix of `from` (matrix i at
// from + i f_bs, element (r, c) at r f_rs + c f_cs) into `to`'s a.
template <class ExecSpace, class T>
void copy_lower(const ExecSpace& exec, const T* from, std::ptrdiff_t f_bs, std::ptrdiff_t f_rs,
                std::ptrdiff_t f_cs, const Problem<T>& to) {
  if (to.batch == 0 || to.n == 0) return;
  CopyLower<T> f{from, f_bs, f_rs, f_cs, to.a, to.a_bs, to.a_rs, to.a_cs, {0, 1, 2}, {0, 0, 0}};
  const std::int64_t extents[3] = {to.batch, to.n, to.n};
  const std::ptrdiff_t strides[3] = {to.a_bs, to.a_rs, to.a_cs};
  std::sort(f.which, f.which + 3,
            [&](int x, int y) { return std::abs(strides[x]) < std::abs(strides[y]); });
  for (int d = 0; d < 3; ++d) f.extent[d] = extents[f.which[d]];
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("batchol::copy_lower", light_weight(Policy(exec, 0, to.batch * to.n * to.n)),
                       f);
}

}  // namespace batchol::detail

#endif
