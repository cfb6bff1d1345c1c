// potrf_shifted inside the factorization kernels (Problem::shift set, out
// of place): a matrix whose factorization failed is factored again from its
// input as A + delta I, in the same kernel, so that a batch without failures
// costs no launch more than potrf. The kernels' own code stays as potrf's,
// so that the matrices that succeed get potrf's bits; the retries run after
// it, serially in one thread of the matrix, from global memory
// (serial_potrf_tail). A loop of attempts around the unrolled factorization
// took 168 registers and a stack frame where potrf takes 96 and none
// (float, n = 16); the serial code costs less but not nothing: in some
// instances ptxas allots fewer registers than potrf's and spills (double,
// n = 8, rows staged: 64 registers and 280 bytes against 79 and none).
//
// The shifts follow Batchol_ShiftRule.hpp, as the Generic path's retry's.
#ifndef BATCHOL_CUDA_SHIFT_CUH
#define BATCHOL_CUDA_SHIFT_CUH

#include "../Batchol_ShiftRule.hpp"
#include "Batchol_CudaCommon.cuh"
#include "Batchol_CudaFirstEvent.cuh"

#include <cstdint>

namespace batchol::cuda {

// The scale of the shifts of the input at a, whose n diagonal elements are
// `diag` apart.
template <class T>
__device__ T shift_scale(const T* a, std::int64_t diag, int n) {
  T mx = T(0);
#pragma unroll 1
  for (int j = 0; j < n; ++j) mx = detail::scale_with(mx, a[j * diag]);
  return detail::shift_scale_of(mx);
}

// Matrix `mat`, whose factorization from its input at src into L at a
// (strides p.a_rs, p.a_cs) failed with `info`, after its factorization's
// stores: factored again as A + delta I by the calling thread alone, with
// the policy's tries. Writes its info and shift. L ends as a factorization in
// place leaves it: with no tries, potrf's result (the factor's columns
// before the failing one, the input's from there on); after tries that all
// failed, the last one's (its factor's columns, then A + delta I).
template <class T>
__device__ void retry_serially(const Problem<T>& p, std::int64_t mat, const T* src, T* a, int n,
                               int info) {
  const std::int64_t rs = p.a_rs, cs = p.a_cs, diag = rs + cs;
  T delta = T(0);
  if (p.shift_tries == 0) copy_lower_from(src, a, rs, cs, n, info - 1);
#pragma unroll 1
  for (int tried = 0; tried < p.shift_tries && info != 0; ++tried) {
    delta = tried == 0 ? detail::first_shift(p.shift_start, shift_scale(src, diag, n))
                       : detail::next_shift(delta, p.shift_growth);
    copy_lower_from(src, a, rs, cs, n, 0);
#pragma unroll 1
    for (int j = 0; j < n; ++j) a[j * diag] = src[j * diag] + delta;
    info = serial_potrf_tail(a, rs, cs, n, 0, p.mirror);
  }
  p.info[mat * p.info_s] = info;
  p.shift[mat * p.shift_s] = info == 0 ? delta : T(-1);
}

// The end of matrix mat's factorization, after its stores: shift 0 where it
// factored (info 0), the retries where it failed.
template <class T>
__device__ void finish_shifted(const Problem<T>& p, std::int64_t mat, const T* src, T* a, int n,
                               int info) {
  if (info == 0)
    p.shift[mat * p.shift_s] = T(0);
  else
    retry_serially(p, mat, src, a, n, info);
}

}  // namespace batchol::cuda

#endif
