// One host-level call reduced to pointers and 64-bit strides: what every path
// (Generic, Host, Cuda) and every kernel of the batched calls reads. The
// public layer fills it after checking the arguments (Batchol_Describe.hpp):
// any View layout becomes strides, and an Upper call becomes a Lower one by
// swapping the row and column strides (the upper triangle of A is the lower
// triangle of its transpose), so each algorithm exists once.
//
// Plain data and Kokkos-free: the CUDA kernels take it by value as their
// argument, and the tuning tool fills it without Kokkos. The Kokkos paths see
// its matrices through Batchol_Strided.hpp (matrix_of, rhs_of, info_of).
//
// Variable-size batches (matrices of different orders) add per-matrix orders
// and, for packed storage, per-matrix offsets; n stays the largest order,
// which sizes scratch and picks the kernels. Their fields default to a
// fixed-size batch, which every path reads as before. Complex scalars are
// another T (Generic path only, Batchol_Scalar.hpp).
#ifndef BATCHOL_PROBLEM_HPP
#define BATCHOL_PROBLEM_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace batchol::detail {

// The real type of a scalar: T itself, or T::value_type for a complex type
// (Kokkos::complex<R>), which the per-matrix outputs (logdet, shifts) have.
template <class T, class = void>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<T, std::void_t<typename T::value_type>> {
  using type = typename T::value_type;
};

template <class T>
struct Problem {
  std::int64_t batch = 0;
  int n = 0;  // the order of every matrix
  // The lower triangle: matrix i at a + i a_bs, element (r, c) at r a_rs + c a_cs.
  // potrs and trsv never write through it.
  T* a = nullptr;
  std::ptrdiff_t a_bs = 0, a_rs = 0, a_cs = 0;
  // potrf out of place (potrf_shifted, which keeps its input): the input
  // matrices, read with a's strides, while the factor goes to a, whose
  // other triangle is not written. nullptr: in place. The dispatcher copies
  // them into a first where the kernel that runs does not read them itself
  // (Batchol_Dispatch.hpp).
  const T* src = nullptr;
  // The n x nrhs right-hand sides of matrix i at b + i b_bs (unused by potrf).
  T* b = nullptr;
  std::ptrdiff_t b_bs = 0, b_rs = 0, b_cs = 0;
  int nrhs = 0;
  // info of matrix i at info[i info_s] (written by potrf, posv and potri; read
  // by logdet).
  int* info = nullptr;
  std::ptrdiff_t info_s = 0;
  // logdet: the value of matrix i at out[i out_s]; potrf and posv: nullptr,
  // or where they also write each matrix's log-determinant (the Cuda path
  // itself, elsewhere the dispatcher runs logdet after the path);
  // potrf_shifted's retry: the shift used. Real for complex T.
  typename real_of<T>::type* out = nullptr;
  std::ptrdiff_t out_s = 0;
  // potrf_shifted on the Cuda path's group and tile kernels, which retry a
  // failed matrix themselves from src (Batchol_CudaShift.cuh): shift
  // non-null, the shift used of matrix i at shift[i shift_s], and the policy
  // (Batchol_Options.hpp's Shift). nullptr: a plain factorization (the retry
  // is then a launch of its own, Batchol_Shifted.hpp).
  typename real_of<T>::type* shift = nullptr;
  std::ptrdiff_t shift_s = 0;
  double shift_start = 0, shift_growth = 0;
  int shift_tries = 0;
  // posv_mixed: the refinement steps of matrix i (or its fallback code) at
  // iter[i iter_s].
  int* iter = nullptr;
  std::ptrdiff_t iter_s = 0;
  // Options::write_transposed: potrf and posv also write the factor (potri
  // the inverse) into the strict upper triangle of the matrices that
  // succeeded.
  bool mirror = false;
  // Options::fast_math: the factorizations may take their pivots' square
  // roots and reciprocals from approximations (Host and Cuda paths).
  bool fast_math = false;
  // Complex scalars, solves: the substitution with L conjugates its elements
  // (trsv with Trans::ConjTranspose; potrs and posv of an Upper problem,
  // whose transposed view holds U^T = conj(L), and their second
  // substitution then does not). Always false for real scalars.
  bool conj = false;
  // Solves only: a system whose info is nonzero keeps its right-hand sides
  // (a posv split into potrf and a solve, on the Cuda and Blocked paths).
  // Otherwise the solves never read info.
  bool skip_failed = false;

  // Variable-size batches (Generic path only, Batchol_Generic.hpp): matrix i
  // has order orders[i orders_s], checked against 0..n on the device (info
  // var_bad_order where it is outside). nullptr: every matrix has order n.
  const int* orders = nullptr;
  std::ptrdiff_t orders_s = 0;
  // Packed matrices: matrix i at a + a_off[i a_off_s] instead of a + i a_bs,
  // its element (r, c) at r (a_rs + a_rn n_i) + c (a_cs + a_cn n_i) (leading
  // dimension n_i), inside the a_count elements from a (else info
  // var_bad_matrix).
  const std::int64_t* a_off = nullptr;
  std::ptrdiff_t a_off_s = 0, a_rn = 0, a_cn = 0;
  std::int64_t a_count = 0;
  // Packed right-hand sides, likewise: the n_i x nrhs block of system i at
  // b + b_off[i b_off_s], strides b_rs + b_rn n_i and b_cs + b_cn n_i, inside
  // the b_count elements from b (else info var_bad_rhs).
  const std::int64_t* b_off = nullptr;
  std::ptrdiff_t b_off_s = 0, b_rn = 0, b_cn = 0;
  std::int64_t b_count = 0;
};

// The info of a matrix of a variable-size batch that was not computed
// because its description is invalid (never written for a valid one: every
// LAPACK-style info is >= 0). The solves leave such a system's right-hand
// sides unchanged.
inline constexpr int var_bad_order = -1;   // order < 0 or > the largest order given
inline constexpr int var_bad_matrix = -2;  // packed matrix not inside the values array
inline constexpr int var_bad_rhs = -3;     // packed right-hand sides not inside their array

}  // namespace batchol::detail

#endif
