// A host-level call reduced to pointers and 64-bit strides, after the public
// layer has checked it. Matrix b of the batch starts at a + b * a_bs.
#ifndef BATCHOL_PROBLEM_HPP
#define BATCHOL_PROBLEM_HPP

#include <detail/Batchol_Strided.hpp>

#include <cstdint>

namespace batchol::detail {

template <class T>
struct Problem {
  std::int64_t batch = 0;
  int n = 0;
  T* a = nullptr;  // viewed as lower: an Upper call arrives with its strides swapped
  std::ptrdiff_t a_bs = 0, a_rs = 0, a_cs = 0;
  T* b = nullptr;  // right-hand sides, (n x nrhs) per matrix; unused by potrf
  std::ptrdiff_t b_bs = 0, b_rs = 0, b_cs = 0;
  int nrhs = 0;
  int* info = nullptr;  // unused by potrs and trsv
  std::ptrdiff_t info_s = 0;
  bool mirror = false;  // Options::write_transposed

  KOKKOS_FORCEINLINE_FUNCTION Strided<T> matrix(std::int64_t i) const {
    return {a + i * a_bs, a_rs, a_cs};
  }
  KOKKOS_FORCEINLINE_FUNCTION Strided<T> rhs(std::int64_t i) const {
    return {b + i * b_bs, b_rs, b_cs};
  }
  KOKKOS_FORCEINLINE_FUNCTION int& info_at(std::int64_t i) const { return info[i * info_s]; }
};

}  // namespace batchol::detail

#endif
