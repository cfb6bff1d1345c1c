// potrf_shifted's shifts, as every retry computes them (the Generic path's
// launch, Batchol_Shifted.hpp, and the Cuda kernels', cuda/Batchol_CudaShift.cuh),
// so that a matrix gets the same shift bit for bit wherever it is retried:
// the diagonal's scale max_j |a_jj| (a NaN propagates, so that no shift
// rescues it; 1 where the diagonal is 0), the first shift start * scale and
// each further one the last times growth, all in the real type R.
// Kokkos-free, for nvcc alone.
#ifndef BATCHOL_SHIFT_RULE_HPP
#define BATCHOL_SHIFT_RULE_HPP

#include "Batchol_Op.hpp"

namespace batchol::detail {

// The scale so far, mx, with the diagonal element's real part ajj.
template <class R>
BATCHOL_HOST_DEVICE constexpr R scale_with(R mx, R ajj) {
  const R d = ajj < R(0) ? -ajj : ajj;
  return (d > mx || d != d) ? d : mx;
}

// The scale of the shifts, from the maximum over the diagonal.
template <class R>
BATCHOL_HOST_DEVICE constexpr R shift_scale_of(R mx) {
  return mx > R(0) ? mx : (mx == mx ? R(1) : mx);
}

// The first shift, and each further one from the one before.
template <class R>
BATCHOL_HOST_DEVICE constexpr R first_shift(double start, R scale) {
  return R(start) * scale;
}
template <class R>
BATCHOL_HOST_DEVICE constexpr R next_shift(R delta, double growth) {
  return delta * R(growth);
}

}  // namespace batchol::detail

#endif
