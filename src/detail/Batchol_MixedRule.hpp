// LAPACK dsposv's rule, as posv_mixed follows it on every path (the Generic
// kernel, Batchol_KernelMixed.hpp, and the Cuda kernel,
// cuda/Batchol_CudaMixed.cuh): the limit on refinement steps, the iter codes
// of the fallback, and the test of float's range. Kokkos-free, for nvcc alone.
#ifndef BATCHOL_MIXED_RULE_HPP
#define BATCHOL_MIXED_RULE_HPP

#include "Batchol_Op.hpp"

#include <cfloat>

namespace batchol::detail {

// dsposv's limit on refinement steps, and the codes of `iter` for the
// fallback (negative; LAPACK's values).
inline constexpr int mixed_max_iterations = 30;
inline constexpr int mixed_fallback_overflow = -2;   // A, B or a residual does not fit a float
inline constexpr int mixed_fallback_factor = -3;     // the float factorization failed
inline constexpr int mixed_fallback_diverged = -31;  // no convergence in 30 steps

// Whether x converts to float without overflow, as LAPACK's dlag2s tests it:
// an Inf does not, a NaN does (it then fails the float factorization).
BATCHOL_HOST_DEVICE constexpr bool fits_float(double x) {
  return !(x > double(FLT_MAX) || x < -double(FLT_MAX));
}

}  // namespace batchol::detail

#endif
