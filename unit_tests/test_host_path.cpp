// The Host path (SIMD packs x threads) against LAPACK/BLAS and against the
// Generic path, on the same inputs, on every host execution space the build
// has (Serial, OpenMP).
//
// Covered: every n in 1..40 plus 48, 64, 100, 128 (unwound n <= 16, blocked
// above; the solves at every n in 17..24, each remainder of their blocks); batch sizes that leave a
// partial last pack (1, W-1, W+1, 3W+5, 7W-3, ~1000) and whole ones (5W), so every remainder of the
// jammed calls; interleaved (LayoutLeft, read in place and staged), contiguous (LayoutRight,
// gathered), a padded LayoutLeft subview and an every-other-matrix strided batch; Lower and Upper;
// float and double; nrhs 1, 2, 7; exact info for failing lanes in the middle of a pack with
// neighbours bit-identical to a clean run; fast_math accuracy; write_transposed; memory outside the
// triangles untouched; a batch larger than the last-level cache (streamed write-back).
#include <Batchol.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" {
// Fortran LAPACK/BLAS; the trailing size_t are the hidden lengths of the
// character arguments (gfortran's convention).
void dpotrf_(const char*, const int*, double*, const int*, int*, std::size_t);
void spotrf_(const char*, const int*, float*, const int*, int*, std::size_t);
void dpotrs_(const char*, const int*, const int*, const double*, const int*, double*, const int*,
             int*, std::size_t);
void spotrs_(const char*, const int*, const int*, const float*, const int*, float*, const int*,
             int*, std::size_t);
void dtrsv_(const char*, const char*, const char*, const int*, const double*, const int*, double*,
            const int*, std::size_t, std::size_t, std::size_t);
void strsv_(const char*, const char*, const char*, const int*, const float*, const int*, float*,
            const int*, std::size_t, std::size_t, std::size_t);
}

namespace {

using batchol::Options;
using batchol::Path;
using batchol::Trans;
using batchol::Uplo;

// The Host path's pack width. nvcc's device pass of this file does not see
// the Host path's code (it is host-only) and runs none of these tests.
#if defined(__CUDA_ARCH__)
template <class T>
constexpr int W = 1;
#else
template <class T>
constexpr int W = batchol::detail::host::width_v<T>;
#endif

// ---- LAPACK on one column-major matrix ----------------------------------------

int lapack_potrf(char uplo, int n, double* a) {
  int info = 0, lda = std::max(1, n);
  dpotrf_(&uplo, &n, a, &lda, &info, 1);
  return info;
}
int lapack_potrf(char uplo, int n, float* a) {
  int info = 0, lda = std::max(1, n);
  spotrf_(&uplo, &n, a, &lda, &info, 1);
  return info;
}
void lapack_potrs(char uplo, int n, int nrhs, const double* a, double* b) {
  int info = 0, ld = std::max(1, n);
  dpotrs_(&uplo, &n, &nrhs, a, &ld, b, &ld, &info, 1);
}
void lapack_potrs(char uplo, int n, int nrhs, const float* a, float* b) {
  int info = 0, ld = std::max(1, n);
  spotrs_(&uplo, &n, &nrhs, a, &ld, b, &ld, &info, 1);
}
void blas_trsv(char uplo, char trans, int n, const double* a, double* x) {
  const char diag = 'N';
  int lda = std::max(1, n), inc = 1;
  dtrsv_(&uplo, &trans, &diag, &n, a, &lda, x, &inc, 1, 1, 1);
}
void blas_trsv(char uplo, char trans, int n, const float* a, float* x) {
  const char diag = 'N';
  int lda = std::max(1, n), inc = 1;
  strsv_(&uplo, &trans, &diag, &n, a, &lda, x, &inc, 1, 1, 1);
}

// ---- batches in several layouts ------------------------------------------------

enum class Lay { Left, Right, LeftSub, RightSub, Strided };
const char* name(Lay l) {
  switch (l) {
    case Lay::Left:
      return "LayoutLeft";
    case Lay::Right:
      return "LayoutRight";
    case Lay::LeftSub:
      return "LayoutLeft-subview";
    case Lay::RightSub:
      return "LayoutRight-subview";
    default:
      return "every-other-strided";
  }
}

template <class T>
using Strided3 = Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class T>
using Strided2 = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// A (batch, rows, cols) array at some offset of a backing buffer, with the
// strides of the layout; the rest of the buffer holds a sentinel that no call
// may change.
template <class T>
struct Batch {
  static constexpr T sentinel = T(777.25);
  int batch, rows, cols;
  std::ptrdiff_t off = 0, s0 = 0, s1 = 0, s2 = 0;
  std::vector<T> mem;

  Batch(int b, int r, int c, Lay lay) : batch(b), rows(r), cols(c) {
    switch (lay) {
      case Lay::Left:
        s0 = 1, s1 = b, s2 = std::ptrdiff_t(b) * r;
        break;
      case Lay::Right:
        s0 = std::ptrdiff_t(r) * c, s1 = c, s2 = 1;
        break;
      case Lay::LeftSub:  // subview (ALL, 1..r, 1..c) of a LayoutLeft (b, r+1, c+1)
        s0 = 1, s1 = b, s2 = std::ptrdiff_t(b) * (r + 1), off = s1 + s2;
        break;
      case Lay::RightSub:  // subview (ALL, 1..r, 1..c) of a LayoutRight (b, r+1, c+2)
        s0 = std::ptrdiff_t(r + 1) * (c + 2), s1 = c + 2, s2 = 1, off = s1 + s2;
        break;
      case Lay::Strided:  // every other matrix of a padded interleaved batch
        s0 = 2, s1 = 2 * std::ptrdiff_t(b) + 1, s2 = s1 * (r + 1);
        break;
    }
    const std::ptrdiff_t last = off + (b - 1) * s0 + (r - 1) * s1 + (c - 1) * s2;
    mem.assign(std::max<std::ptrdiff_t>(last + 1 + s0 + s1 + s2, 1), sentinel);
  }
  T& operator()(int b, int i, int j) { return mem[off + b * s0 + i * s1 + j * s2]; }
  T operator()(int b, int i, int j) const { return mem[off + b * s0 + i * s1 + j * s2]; }
  Strided3<T> view3() {
    return Strided3<T>(mem.data() + off, Kokkos::LayoutStride(batch, s0, rows, s1, cols, s2));
  }
  Strided2<T> view2() {
    return Strided2<T>(mem.data() + off, Kokkos::LayoutStride(batch, s0, rows, s1));
  }
  // Column-major copy of matrix b.
  std::vector<T> get(int b) const {
    std::vector<T> v(std::size_t(rows) * cols + 1);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) v[i + std::size_t(j) * rows] = (*this)(b, i, j);
    return v;
  }
  void set(int b, const std::vector<T>& v) {
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) (*this)(b, i, j) = v[i + std::size_t(j) * rows];
  }
};

template <class T>
void fill_spd(Batch<T>& a, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = a.rows;
  std::vector<double> g(std::size_t(n) * n);
  for (int b = 0; b < a.batch; ++b) {
    for (auto& x : g) x = u(rng);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        double s = i == j ? n : 0;
        for (int k = 0; k < n; ++k) s += g[i * n + k] * g[j * n + k];
        a(b, i, j) = a(b, j, i) = T(s);
      }
  }
}

template <class T>
void fill_random(Batch<T>& x, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int b = 0; b < x.batch; ++b)
    for (int i = 0; i < x.rows; ++i)
      for (int j = 0; j < x.cols; ++j) x(b, i, j) = T(u(rng));
}

// Is (i, j) in the triangle the call works on?
bool in_tri(Uplo uplo, int i, int j) {
  return uplo == Uplo::Lower ? i >= j : i <= j;
}

template <class T>
T eps() {
  return std::numeric_limits<T>::epsilon();
}
template <class T>
T tol(int n) {
  return T(16) * T(std::max(n, 1)) * eps<T>();
}

// max |x - y| over the triangle, relative to max |y|.
template <class T>
double tri_diff(const Batch<T>& x, const Batch<T>& y, int b, Uplo uplo) {
  double d = 0, m = 1e-300;
  for (int i = 0; i < x.rows; ++i)
    for (int j = 0; j < x.cols; ++j)
      if (in_tri(uplo, i, j)) {
        d = std::max(d, std::abs(double(x(b, i, j)) - double(y(b, i, j))));
        m = std::max(m, std::abs(double(y(b, i, j))));
        if (std::isnan(double(x(b, i, j))) != std::isnan(double(y(b, i, j)))) d = 1e300;
      }
  return d / m;
}

template <class T>
double rhs_diff(const Batch<T>& x, const Batch<T>& y, int b) {
  double d = 0, m = 1e-300;
  for (int i = 0; i < x.rows; ++i)
    for (int j = 0; j < x.cols; ++j) {
      d = std::max(d, std::abs(double(x(b, i, j)) - double(y(b, i, j))));
      m = std::max(m, std::abs(double(y(b, i, j))));
    }
  return d / m;
}

// Every element of the backing buffers that is not in a triangle the call may
// write (in_tri, or the whole matrix with mirror) must be bit-identical.
template <class T>
void expect_untouched_outside(const Batch<T>& after, const Batch<T>& before, Uplo uplo,
                              bool whole_matrix, const std::string& what) {
  std::vector<char> writable(after.mem.size(), 0);
  for (int b = 0; b < after.batch; ++b)
    for (int i = 0; i < after.rows; ++i)
      for (int j = 0; j < after.cols; ++j)
        if (whole_matrix || in_tri(uplo, i, j))
          writable[after.off + b * after.s0 + i * after.s1 + j * after.s2] = 1;
  std::size_t bad = 0;
  for (std::size_t k = 0; k < after.mem.size(); ++k)
    if (!writable[k] && std::memcmp(&after.mem[k], &before.mem[k], sizeof(T)) != 0) ++bad;
  EXPECT_EQ(bad, 0u) << what << ": elements outside the written triangle changed";
}

template <class T>
bool bit_equal_matrix(const Batch<T>& x, const Batch<T>& y, int b) {
  for (int i = 0; i < x.rows; ++i)
    for (int j = 0; j < x.cols; ++j) {
      const T u = x(b, i, j), v = y(b, i, j);
      if (std::memcmp(&u, &v, sizeof(T)) != 0) return false;
    }
  return true;
}

Options with_path(Options o, Path p) {
  o.path = p;
  return o;
}

// f(exec, label) on every host execution space the build has, as the library
// decides (Batchol_HostStage.hpp: stages()).
template <class F>
void for_each_space_auto(F&& f, const std::string& how = "") {
#if defined(KOKKOS_ENABLE_SERIAL)
  f(Kokkos::Serial(), ("Serial" + how).c_str());
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  f(Kokkos::OpenMP(), ("OpenMP" + how).c_str());
#endif
}

// The same, once with every batch taken to be in cache and once in memory:
// the Host path decides by the batch's size against the last-level cache, and
// the tests' batches are small. In memory, LayoutLeft stages from n = 9 and
// the unwound kernels jam two packs at n = 5-7; in cache, LayoutLeft is read
// in place and they jam four (Batchol_HostStage.hpp, Batchol_HostPath.hpp).
template <class F>
void for_each_space(F&& f) {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  using batchol::detail::host::Residency;
  struct Restore {
    ~Restore() { batchol::detail::host::residency_override() = Residency::Auto; }
  } restore;
  for (Residency where : {Residency::Cache, Residency::Memory}) {
    batchol::detail::host::residency_override() = where;
    for_each_space_auto(f, where == Residency::Cache ? ", in cache" : ", in memory");
  }
#else
  for_each_space_auto(f);
#endif
}

template <class T>
const char* tname() {
  return sizeof(T) == 8 ? "double" : "float";
}

// ---- potrf / posv: Host vs Generic vs LAPACK ----------------------------------

// Factors (and with nrhs >= 0 also solves, via posv) one batch on the Host and
// the Generic path and checks both against LAPACK. nrhs < 0: potrf.
template <class T, class Exec>
void check_factor(const Exec& exec, const char* space, int n, int batch, Lay alay, Lay blay,
                  Uplo uplo, int nrhs, Options opts = {}) {
  const std::string what = std::string(space) + " " + tname<T>() + " n=" + std::to_string(n) +
                           " batch=" + std::to_string(batch) + " A:" + name(alay) +
                           " B:" + name(blay) + (uplo == Uplo::Lower ? " Lower" : " Upper") +
                           " nrhs=" + std::to_string(nrhs) + (opts.fast_math ? " fast" : "") +
                           (opts.write_transposed ? " mirror" : "");
  SCOPED_TRACE(what);
  opts.uplo = uplo;
  Batch<T> a0(batch, n, n, alay);
  fill_spd(a0, 1000 * n + batch);
  Batch<T> b0(batch, n, std::max(nrhs, 0), blay);
  fill_random(b0, 7 * n + batch);
  Batch<T> ah = a0, ag = a0, bh = b0, bg = b0;
  Kokkos::View<int*, Kokkos::HostSpace> infoh("infoh", batch), infog("infog", batch);
  Kokkos::deep_copy(infoh, -7);
  if (nrhs < 0) {
    batchol::potrf(exec, ah.view3(), infoh, with_path(opts, Path::Host));
    batchol::potrf(exec, ag.view3(), infog, with_path(opts, Path::Generic));
  } else {
    batchol::posv(exec, ah.view3(), bh.view3(), infoh, with_path(opts, Path::Host));
    batchol::posv(exec, ag.view3(), bg.view3(), infog, with_path(opts, Path::Generic));
  }
  exec.fence();

  const char lu = uplo == Uplo::Lower ? 'L' : 'U';
  const T t = opts.fast_math ? 2 * tol<T>(n) : tol<T>(n);
  double worst_g = 0, worst_l = 0, worst_x = 0;
  for (int b = 0; b < batch; ++b) {
    ASSERT_EQ(infoh(b), 0) << "matrix " << b;
    ASSERT_EQ(infog(b), 0) << "matrix " << b;
    worst_g = std::max(worst_g, tri_diff(ah, ag, b, uplo));
    std::vector<T> l = a0.get(b);
    ASSERT_EQ(lapack_potrf(lu, n, l.data()), 0);
    Batch<T> ref(1, n, n, Lay::Right);
    ref.set(0, l);
    Batch<T> one(1, n, n, Lay::Right);
    one.set(0, ah.get(b));
    worst_l = std::max(worst_l, tri_diff(one, ref, 0, uplo));
    if (nrhs >= 0) {
      std::vector<T> x = b0.get(b);
      lapack_potrs(lu, n, nrhs, l.data(), x.data());
      Batch<T> xr(1, n, nrhs, Lay::Right), xh(1, n, nrhs, Lay::Right);
      xr.set(0, x);
      xh.set(0, bh.get(b));
      worst_x = std::max(worst_x, rhs_diff(xh, xr, 0));
      EXPECT_LE(rhs_diff(bh, bg, b), 4 * t) << "matrix " << b << " solution vs Generic";
    }
    if (opts.write_transposed)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (!in_tri(uplo, i, j)) {
            EXPECT_EQ(ah(b, i, j), ah(b, j, i)) << "mirror " << b;
          }
  }
  EXPECT_LE(worst_g, t) << "factor vs Generic";
  EXPECT_LE(worst_l, t) << "factor vs LAPACK";
  EXPECT_LE(worst_x, 4 * t) << "solution vs LAPACK";
  expect_untouched_outside(ah, a0, uplo, opts.write_transposed, "A");
  if (nrhs >= 0) expect_untouched_outside(bh, b0, uplo, true, "B");
}

std::vector<int> all_sizes() {
  std::vector<int> v;
  for (int n = 1; n <= 40; ++n) v.push_back(n);
  for (int n : {48, 64, 100, 128}) v.push_back(n);
  return v;
}

template <class T>
void potrf_sweep() {
  for_each_space([](auto exec, const char* space) {
    for (int n : all_sizes())
      for (Lay lay : {Lay::Left, Lay::Right, Lay::LeftSub, Lay::RightSub, Lay::Strided})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          check_factor<T>(exec, space, n, 3 * W<T> + 5, lay, lay, uplo, -1);
  });
}

TEST(HostPath, PotrfAllSizesDouble) {
  potrf_sweep<double>();
}
TEST(HostPath, PotrfAllSizesFloat) {
  potrf_sweep<float>();
}

template <class T>
void batch_sizes() {
  for_each_space([](auto exec, const char* space) {
    // 1 to 7 packs and 126 (double) or 63 (float): every remainder of the
    // four packs per unwound call (n = 5-11) and of the two (n = 12-15),
    // staged (LayoutLeft from n = 9) and not
    for (int batch : {1, W<T> - 1, W<T> + 1, 3 * W<T> + 5, 5 * W<T>, 7 * W<T> - 3, 1003})
      for (int n : {1, 4, 7, 9, 11, 13, 16, 17, 40})
        for (Lay lay : {Lay::Left, Lay::Right, Lay::Strided}) {
          check_factor<T>(exec, space, n, batch, lay, lay, Uplo::Lower, -1);
          check_factor<T>(exec, space, n, batch, lay, lay, Uplo::Upper, 2);
        }
  });
}

TEST(HostPath, BatchTailsDouble) {
  batch_sizes<double>();
}
TEST(HostPath, BatchTailsFloat) {
  batch_sizes<float>();
}

// The solves: the unwound orders, and above 16 every remainder of the blocked
// substitutions' blocks of 8 (n = 17-24).
std::vector<int> solve_sizes() {
  return {1, 2, 3, 5, 8, 11, 16, 17, 18, 19, 20, 21, 22, 23, 24, 33, 40, 64, 100};
}

template <class T>
void posv_sweep() {
  for_each_space([](auto exec, const char* space) {
    for (int n : solve_sizes())
      for (int nrhs : {0, 1, 2, 7})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
          check_factor<T>(exec, space, n, 3 * W<T> + 5, Lay::Left, Lay::Left, uplo, nrhs);
          check_factor<T>(exec, space, n, 2 * W<T> + 1, Lay::Right, Lay::Strided, uplo, nrhs);
          check_factor<T>(exec, space, n, 2 * W<T>, Lay::LeftSub, Lay::Right, uplo, nrhs);
          check_factor<T>(exec, space, n, 2 * W<T> + 2, Lay::RightSub, Lay::RightSub, uplo, nrhs);
        }
  });
}

TEST(HostPath, PosvDouble) {
  posv_sweep<double>();
}
TEST(HostPath, PosvFloat) {
  posv_sweep<float>();
}

template <class T>
void mirror_sweep() {
  Options o;
  o.write_transposed = true;
  for_each_space([&](auto exec, const char* space) {
    for (int n : {1, 3, 8, 16, 19, 40})
      for (Lay lay : {Lay::Left, Lay::Right, Lay::RightSub})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
          check_factor<T>(exec, space, n, 2 * W<T> + 3, lay, lay, uplo, -1, o);
          check_factor<T>(exec, space, n, 2 * W<T> + 3, lay, lay, uplo, 2, o);
        }
  });
}

TEST(HostPath, WriteTransposedDouble) {
  mirror_sweep<double>();
}
TEST(HostPath, WriteTransposedFloat) {
  mirror_sweep<float>();
}

// ---- potrs / trsv: Host vs Generic vs LAPACK/BLAS ------------------------------

// A holds a LAPACK factor in triangle `uplo` (garbage elsewhere, which the
// solves must not read); B random.
template <class T>
Batch<T> factored(int n, int batch, Lay lay, Uplo uplo) {
  Batch<T> a(batch, n, n, lay);
  fill_spd(a, 31 * n + batch);
  const char lu = uplo == Uplo::Lower ? 'L' : 'U';
  for (int b = 0; b < batch; ++b) {
    std::vector<T> l = a.get(b);
    lapack_potrf(lu, n, l.data());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (!in_tri(uplo, i, j)) l[i + std::size_t(j) * n] = std::numeric_limits<T>::quiet_NaN();
    a.set(b, l);
  }
  return a;
}

template <class T, class Exec>
void check_solve(const Exec& exec, const char* space, int n, int batch, Lay alay, Lay blay,
                 Uplo uplo, int nrhs, int trans /* -1: potrs, 0/1: trsv NoTranspose/Transpose */) {
  const std::string what = std::string(space) + " " + tname<T>() + " n=" + std::to_string(n) +
                           " batch=" + std::to_string(batch) + " A:" + name(alay) +
                           " B:" + name(blay) + (uplo == Uplo::Lower ? " Lower" : " Upper") +
                           (trans < 0 ? " potrs nrhs=" + std::to_string(nrhs)
                                      : std::string(trans ? " trsv T" : " trsv N"));
  SCOPED_TRACE(what);
  const Batch<T> a = factored<T>(n, batch, alay, uplo);
  Batch<T> ah = a;
  Batch<T> b0(batch, n, nrhs, blay);
  fill_random(b0, 5 * n + nrhs);
  Batch<T> bh = b0, bg = b0;
  Options o;
  o.uplo = uplo;
  if (trans < 0) {
    batchol::potrs(exec, ah.view3(), bh.view3(), with_path(o, Path::Host));
    batchol::potrs(exec, ah.view3(), bg.view3(), with_path(o, Path::Generic));
  } else {
    const Trans tr = trans ? Trans::Transpose : Trans::NoTranspose;
    batchol::trsv(exec, uplo, tr, ah.view3(), bh.view2(), with_path(o, Path::Host));
    batchol::trsv(exec, uplo, tr, ah.view3(), bg.view2(), with_path(o, Path::Generic));
  }
  exec.fence();
  const char lu = uplo == Uplo::Lower ? 'L' : 'U';
  double worst_l = 0, worst_g = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<T> l = a.get(b), x = b0.get(b);
    if (trans < 0)
      lapack_potrs(lu, n, nrhs, l.data(), x.data());
    else
      blas_trsv(lu, trans ? 'T' : 'N', n, l.data(), x.data());
    Batch<T> xr(1, n, nrhs, Lay::Right), xh(1, n, nrhs, Lay::Right);
    xr.set(0, x);
    xh.set(0, bh.get(b));
    worst_l = std::max(worst_l, rhs_diff(xh, xr, 0));
    worst_g = std::max(worst_g, rhs_diff(bh, bg, b));
  }
  EXPECT_LE(worst_l, 4 * tol<T>(n)) << "vs LAPACK";
  EXPECT_LE(worst_g, 4 * tol<T>(n)) << "vs Generic";
  for (std::size_t k = 0; k < a.mem.size(); ++k)
    ASSERT_EQ(std::memcmp(&a.mem[k], &ah.mem[k], sizeof(T)), 0) << "A was written";
  expect_untouched_outside(bh, b0, uplo, true, "B");
}

template <class T>
void solve_sweep() {
  for_each_space([](auto exec, const char* space) {
    for (int n : solve_sizes())
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        for (int nrhs : {1, 2, 7}) {
          check_solve<T>(exec, space, n, 3 * W<T> + 5, Lay::Left, Lay::Left, uplo, nrhs, -1);
          check_solve<T>(exec, space, n, 2 * W<T> + 1, Lay::Right, Lay::LeftSub, uplo, nrhs, -1);
          check_solve<T>(exec, space, n, W<T> + 1, Lay::Strided, Lay::Right, uplo, nrhs, -1);
        }
        for (int trans : {0, 1}) {
          check_solve<T>(exec, space, n, 3 * W<T> + 5, Lay::Left, Lay::Left, uplo, 1, trans);
          check_solve<T>(exec, space, n, 2 * W<T> + 1, Lay::Right, Lay::Strided, uplo, 1, trans);
          check_solve<T>(exec, space, n, W<T> - 1, Lay::LeftSub, Lay::Right, uplo, 1, trans);
        }
      }
  });
}

TEST(HostPath, PotrsTrsvDouble) {
  solve_sweep<double>();
}
TEST(HostPath, PotrsTrsvFloat) {
  solve_sweep<float>();
}

// Power-of-two LayoutLeft batches whose packs' lines crowd one L2 set
// (Batchol_HostStage.hpp, crowds_l2): staged from n = 5 instead of 9, in
// cache or not.
template <class T>
void crowded_batches() {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  const auto l2 = batchol::detail::host::cache_shape(2);
  const int batch = int(l2.bytes / l2.ways / std::int64_t(sizeof(T)));
  for_each_space([&](auto exec, const char* space) {
    for (int n : {4, 5, 8, 12}) {
      // (strides only: an unmanaged View of no memory)
      const Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
          shape(nullptr, batch, n, n);
      const auto pr = batchol::detail::problem_for(shape, Uplo::Lower);
      ASSERT_EQ(batchol::detail::host::stages(pr), n >= 5) << "n=" << n << " batch=" << batch;
      check_factor<T>(exec, space, n, batch, Lay::Left, Lay::Left, Uplo::Lower, -1);
      check_factor<T>(exec, space, n, batch, Lay::Left, Lay::Left, Uplo::Upper, 2);
      check_solve<T>(exec, space, n, batch, Lay::Left, Lay::Left, Uplo::Lower, 1, -1);
      check_solve<T>(exec, space, n, batch, Lay::Left, Lay::Left, Uplo::Upper, 1, 1);
    }
  });
#endif
}

// Which LayoutLeft batches stage (Batchol_HostStage.hpp, stages()): from n = 9
// those whose triangles fill more than half the last-level cache; those that
// fit are read in place. The batches are moved off any that crowd the L2 (a
// separate rule, tested above): an odd batch can still crowd it, e.g. 29127
// on a 32 MB L3 and 1 MB 8-way L2, where 9 x 29127 = 2^18 - 1.
TEST(HostPath, StagingDecision) {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  namespace host = batchol::detail::host;
  using Shape =
      Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  ASSERT_EQ(host::residency_override(), host::Residency::Auto);
  const std::int64_t llc = host::cache_shape(3).bytes;
  // The nearest batch from `from` on, stepping by `step`, whose lines do not crowd the L2.
  const auto uncrowded = [](int n, std::int64_t from, std::int64_t step) {
    for (std::int64_t b = from, k = 0; k < 256; b += step, ++k)
      if (!host::crowds_l2(batchol::detail::problem_for(Shape(nullptr, b, n, n), Uplo::Lower)))
        return b;
    return std::int64_t(-1);
  };
  for (int n : {8, 9, 16, 40}) {
    // Triangles filling a quarter of the last-level cache, and four times that.
    const std::int64_t quarter = llc / 4 / (std::int64_t(n) * (n + 1) / 2 * 8) / 2 * 2 + 1;
    const std::int64_t fits = uncrowded(n, quarter, -2);
    const std::int64_t spills = uncrowded(n, 4 * quarter, 2);
    ASSERT_GT(fits, 0) << "n=" << n;
    ASSERT_GT(spills, 0) << "n=" << n;
    for (std::int64_t batch : {fits, spills}) {
      const Shape shape(nullptr, batch, n, n);
      const auto pr = batchol::detail::problem_for(shape, Uplo::Lower);
      ASSERT_FALSE(host::crowds_l2(pr)) << "n=" << n << " batch=" << batch;
      EXPECT_EQ(host::cache_resident(pr), batch == fits) << "n=" << n << " batch=" << batch;
      EXPECT_EQ(host::stages(pr), n >= 9 && batch > fits) << "n=" << n << " batch=" << batch;
    }
  }
#endif
}

TEST(HostPath, CrowdedBatchesDouble) {
  crowded_batches<double>();
}
TEST(HostPath, CrowdedBatchesFloat) {
  crowded_batches<float>();
}

// ---- failures: exact info, neighbours bit-identical ---------------------------

enum class Fault { Zero, NaNDiag, InfDiag, NaNOffDiag };

struct Victim {
  int matrix;
  Fault fault;
  int i, j;       // the element spoiled (lower-triangle coordinates)
  int info;       // expected info
  int first_col;  // columns before it are those of the clean run
};

template <class T, class Exec>
void check_failures(const Exec& exec, const char* space, int n, Lay lay, Uplo uplo, bool fast,
                    bool mirror) {
  const int w = W<T>, batch = 3 * w + 5;
  SCOPED_TRACE(std::string(space) + " " + tname<T>() + " n=" + std::to_string(n) + " " + name(lay) +
               (uplo == Uplo::Lower ? " Lower" : " Upper") + (fast ? " fast" : "") +
               (mirror ? " mirror" : ""));
  // Distinct matrices for every W >= 2: the middle of a pack and its neighbour,
  // another pack, and (W >= 4) the partial last pack.
  std::vector<Victim> victims = {
      {w + w / 2, Fault::Zero, 2, 2, 3, 2},                     // indefinite at column 3
      {w + w / 2 + 1, Fault::NaNDiag, n - 1, n - 1, n, n - 1},  // last column
      {2 * w + 1, Fault::InfDiag, 0, 0, 1, 0},                  // first column
      {3 * w + 2, Fault::NaNOffDiag, n - 1, 1, n, 1},           // NaN below the diagonal
  };
  // One right-hand side at odd n (contiguous columns on LayoutRight: the
  // transposing transfer), two at even n (the lane-by-lane one).
  Batch<T> a0(batch, n, n, lay), b0(batch, n, n % 2 ? 1 : 2, lay);
  fill_spd(a0, 99 + n);
  fill_random(b0, 98 + n);
  Batch<T> af = a0;
  for (const Victim& v : victims) {
    const T bad = v.fault == Fault::Zero      ? T(0)
                  : v.fault == Fault::InfDiag ? std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::quiet_NaN();
    af(v.matrix, v.i, v.j) = af(v.matrix, v.j, v.i) = bad;
  }
  Options o;
  o.uplo = uplo;
  o.fast_math = fast;
  o.write_transposed = mirror;
  o.path = Path::Host;
  Batch<T> ac = a0, bc = b0, ab = af, bb = b0, ag = af, bg = b0;
  Kokkos::View<int*, Kokkos::HostSpace> ic("ic", batch), ib("ib", batch), ig("ig", batch);
  batchol::posv(exec, ac.view3(), bc.view3(), ic, o);
  batchol::posv(exec, ab.view3(), bb.view3(), ib, o);
  batchol::posv(exec, ag.view3(), bg.view3(), ig, with_path(o, Path::Generic));
  exec.fence();
  for (int b = 0; b < batch; ++b) {
    const auto v = std::find_if(victims.begin(), victims.end(),
                                [&](const Victim& x) { return x.matrix == b; });
    EXPECT_EQ(ic(b), 0);
    if (v == victims.end()) {
      EXPECT_EQ(ib(b), 0) << "matrix " << b;
      EXPECT_TRUE(bit_equal_matrix(ab, ac, b)) << "A of healthy matrix " << b << " differs";
      EXPECT_TRUE(bit_equal_matrix(bb, bc, b)) << "B of healthy matrix " << b << " differs";
      continue;
    }
    const int info = v->info;
    EXPECT_EQ(ib(b), info) << "matrix " << b;
    EXPECT_EQ(ig(b), info) << "matrix " << b << " (Generic)";
    EXPECT_TRUE(bit_equal_matrix(bb, b0, b)) << "posv changed B of failed matrix " << b;
    // Columns before the failing one hold the factor: those before the spoiled
    // element are the clean run's, bit for bit; the rest match Generic.
    for (int j = 0; j < info - 1; ++j)
      for (int i = j; i < n; ++i) {
        const int r = uplo == Uplo::Lower ? i : j, c = uplo == Uplo::Lower ? j : i;
        if (j < v->first_col) {
          const T x = ab(b, r, c), y = ac(b, r, c);
          EXPECT_EQ(std::memcmp(&x, &y, sizeof(T)), 0) << "matrix " << b << " (" << i << "," << j;
        } else {
          const double x = ab(b, r, c), y = ag(b, r, c);
          EXPECT_TRUE((std::isnan(x) && std::isnan(y)) ||
                      std::abs(x - y) <= 4 * tol<T>(n) * (1 + std::abs(y)))
              << "matrix " << b << " (" << i << "," << j << "): " << x << " vs " << y;
        }
      }
    if (mirror)  // no mirror for a failed matrix: the other triangle is the input's
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (!in_tri(uplo, i, j)) {
            const T x = ab(b, i, j), y = af(b, i, j);
            EXPECT_EQ(std::memcmp(&x, &y, sizeof(T)), 0) << "mirror wrote failed matrix " << b;
          }
  }
}

template <class T>
void failure_sweep() {
  for_each_space([](auto exec, const char* space) {
    for (int n : {3, 5, 16, 23, 40})
      for (Lay lay : {Lay::Left, Lay::Right, Lay::RightSub, Lay::Strided})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          for (bool fast : {false, true})
            check_failures<T>(exec, space, n, lay, uplo, fast, lay != Lay::Strided);
  });
}

TEST(HostPath, FailuresDouble) {
  failure_sweep<double>();
}
TEST(HostPath, FailuresFloat) {
  failure_sweep<float>();
}

// ---- fast_math accuracy ----------------------------------------------------------

// The bound the docs state: with fast_math the factor and solutions stay within
// 2 x the exact path's tolerance of LAPACK (16 n eps relative to the largest
// entry; 4x that for solutions), and the backward error max|A - L L^T| / max|A|
// stays below 8 n eps.
template <class T>
void fast_sweep() {
  Options o;
  o.fast_math = true;
  for_each_space([&](auto exec, const char* space) {
    for (int n : {2, 4, 8, 13, 16, 17, 32, 64})
      for (Lay lay : {Lay::Left, Lay::Right}) {
        check_factor<T>(exec, space, n, 3 * W<T> + 5, lay, lay, Uplo::Lower, -1, o);
        check_factor<T>(exec, space, n, 3 * W<T> + 5, lay, lay, Uplo::Upper, 7, o);
        // Backward error of the fast factor.
        Batch<T> a0(2 * W<T>, n, n, lay);
        fill_spd(a0, 5 + n);
        Batch<T> a = a0;
        Kokkos::View<int*, Kokkos::HostSpace> info("info", a.batch);
        batchol::potrf(exec, a.view3(), info, with_path(o, Path::Host));
        exec.fence();
        double worst = 0;
        for (int b = 0; b < a.batch; ++b) {
          double amax = 0, rmax = 0;
          for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
              double s = 0;
              for (int k = 0; k <= j; ++k) s += double(a(b, i, k)) * double(a(b, j, k));
              rmax = std::max(rmax, std::abs(s - double(a0(b, i, j))));
              amax = std::max(amax, std::abs(double(a0(b, i, j))));
            }
          worst = std::max(worst, rmax / amax);
        }
        EXPECT_LE(worst, 8.0 * n * eps<T>()) << space << " n=" << n << " backward error";
      }
  });
}

TEST(HostPath, FastMathDouble) {
  fast_sweep<double>();
}
TEST(HostPath, FastMathFloat) {
  fast_sweep<float>();
}

// ---- batches beyond the last-level cache: streamed write-back -------------------

// A LayoutLeft batch larger than the last-level cache with a power-of-two batch
// size, so that a pack's lines crowd the L2 (Batchol_HostStage.hpp, crowds_l2):
// the staged kernels then run without the next chunk's prefetch and, where the
// L2 has 16 ways, write back with non-temporal stores (streamed_out; the
// stores themselves are also checked machine-independently by
// StagedCopyOutStreamed). K distinct SPD systems repeat through
// the batch (K prime to the pack width, so every lane sees every system); one
// indefinite matrix and one with a NaN sit in the middle. Every matrix is
// checked: factor and solution against LAPACK, exact info, the upper triangle
// untouched, a failed system's right-hand side unchanged.
template <class T>
void streamed_write_back() {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  constexpr int n = 16, K = 13;
  const std::int64_t llc = batchol::detail::host::cache_shape(3).bytes;
  std::int64_t batch = W<T>;
  while (batch * n * (n + 1) * std::int64_t(sizeof(T)) <= llc) batch *= 2;
  if (batch * n * (n + 1) * std::int64_t(sizeof(T)) > (std::int64_t(1) << 30))
    GTEST_SKIP() << "last-level cache of " << llc << " bytes: the batch would exceed 1 GB";
  using A3 = Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  A3 a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "a"), batch, n, n);
  A3 b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), batch, n, 1);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", batch);

  Batch<T> sys(K, n, n, Lay::Right), rhs(K, n, 1, Lay::Right);
  fill_spd(sys, 99);
  fill_random(rhs, 98);
  const std::int64_t bad = batch / 2 + 3, nan = batch / 2 + W<T> + 1;
  auto input = [&](std::int64_t m, int i, int j) {
    if (m == bad && i == 5 && j == 5) return T(-1000);
    if (m == nan && i == 2 && j == 1) return std::numeric_limits<T>::quiet_NaN();
    if (m == nan && i == 1 && j == 2) return std::numeric_limits<T>::quiet_NaN();
    return sys(int(m % K), i, j);
  };
  // The kernels' own decision, on this problem.
  auto pr = batchol::detail::problem_for(a, Uplo::Lower);
  batchol::detail::set_rhs(pr, b);
  const auto l2 = batchol::detail::host::cache_shape(2);
  ASSERT_TRUE(batchol::detail::host::crowds_l2(pr))
      << "the test no longer reaches the path (batch " << batch << ", L2 " << l2.bytes << " B "
      << l2.ways << "-way)";
  ASSERT_EQ(batchol::detail::host::streamed_out(pr), l2.ways >= 16)
      << "batch " << batch << ", L2 " << l2.ways << "-way, L3 " << llc << " B, a at "
      << static_cast<const void*>(a.data()) << ", b at " << static_cast<const void*>(b.data());

  // References: LAPACK on the K systems and on the two bad ones.
  std::vector<std::vector<T>> l(K), x(K);
  for (int k = 0; k < K; ++k) {
    l[k] = sys.get(k);
    ASSERT_EQ(lapack_potrf('L', n, l[k].data()), 0);
    x[k] = rhs.get(k);
    lapack_potrs('L', n, 1, l[k].data(), x[k].data());
  }
  auto lapack_info = [&](std::int64_t m) {
    std::vector<T> lm(std::size_t(n) * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) lm[i + std::size_t(j) * n] = input(m, i, j);
    return lapack_potrf('L', n, lm.data());
  };
  // The NaN reaches the pivot of column 3 first (through L(2,1)); set by
  // construction, since not every LAPACK reports a NaN pivot (OpenBLAS's
  // potrf returns 0 for this matrix).
  const int bad_info = lapack_info(bad), nan_info = 3;
  ASSERT_EQ(bad_info, 6);

  const T t = tol<T>(n);
  for_each_space_auto([&](auto exec, const char* space) {
    SCOPED_TRACE(space);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (std::int64_t m = 0; m < batch; ++m) a(m, i, j) = input(m, i, j);
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) b(m, i, 0) = rhs(int(m % K), i, 0);

    batchol::posv(exec, a, b, info, with_path(Options{}, Path::Host));
    exec.fence();

    std::int64_t wrong_info = 0, wrong_l = 0, wrong_x = 0, touched = 0;
    for (std::int64_t m = 0; m < batch; ++m) {
      const int k = int(m % K);
      const int want = m == bad ? bad_info : m == nan ? nan_info : 0;
      if (info(m) != want) ++wrong_info;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const T v = a(m, i, j), in = input(m, i, j);
          if (i < j && std::memcmp(&v, &in, sizeof(T)) != 0) ++touched;
          const T ref = l[k][i + std::size_t(j) * n];
          if (i >= j && want == 0 && !(std::abs(v - ref) <= 4 * t * (1 + std::abs(ref)))) ++wrong_l;
        }
      for (int i = 0; i < n; ++i) {
        const T v = b(m, i, 0);
        const bool ok = want == 0 ? std::abs(v - x[k][i]) <= 4 * t * (1 + std::abs(x[k][i]))
                                  : v == rhs(k, i, 0);
        if (!ok) ++wrong_x;
      }
    }
    EXPECT_EQ(wrong_info, 0) << "matrices with a wrong info (bad " << bad << ", NaN " << nan << ")";
    EXPECT_EQ(wrong_l, 0) << "factor entries off LAPACK's";
    EXPECT_EQ(wrong_x, 0) << "solution entries off LAPACK's (or a failed system's changed)";
    EXPECT_EQ(touched, 0) << "upper-triangle entries changed";
  });
#endif
}

// A staged chunk copied in and back out, with ordinary and with non-temporal
// stores, whatever the machine's caches decide for real batches: the lower
// triangle and B come back as the buffer holds them (here doubled), the
// upper triangle of the lanes is untouched, and so is everything outside the
// chunk's packs.
template <class T>
void staged_copy_out(bool nt) {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  constexpr int n = 11, nrhs = 2;
  const std::int64_t batch = 6 * W<T>, p0 = 2, count = 3;
  using A3 = Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  A3 a("a", batch, n, n), b("b", batch, n, nrhs);
  auto value = [](std::int64_t m, int i, int j) { return T(1 + m + 100 * i + 10000 * j); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) a(m, i, j) = value(m, i, j);
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i)
      for (std::int64_t m = 0; m < batch; ++m) b(m, i, c) = -value(m, i, c);
  auto pr = batchol::detail::problem_for(a, Uplo::Lower);
  batchol::detail::set_rhs(pr, b);
  constexpr std::size_t simd = batchol::detail::host::simd_bytes;
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % simd, 0u) << "non-temporal stores need it";
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % simd, 0u) << "non-temporal stores need it";
  batchol::detail::host::Stage<T> stage;
  stage.reserve(pr, count);
  stage.in(pr, p0, count, true);
  stage.prefetch(pr, p0 + count, 1, true, 0, 1);  // (no effect on the data)
  const std::int64_t vectors = count * (n * (n + 1) / 2 + n * nrhs);
  for (std::int64_t v = 0; v < vectors; ++v) stage.a(0)[v] *= T(2);
  stage.out(pr, p0, count, true, true, nt);
  auto in_chunk = [&](std::int64_t m) { return m >= p0 * W<T> && m < (p0 + count) * W<T>; };
  std::int64_t wrong = 0;
  for (std::int64_t m = 0; m < batch; ++m) {
    const T f = in_chunk(m) ? T(2) : T(1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (a(m, i, j) != (i >= j ? f : T(1)) * value(m, i, j)) ++wrong;
    for (int c = 0; c < nrhs; ++c)
      for (int i = 0; i < n; ++i)
        if (b(m, i, c) != -f * value(m, i, c)) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << (nt ? "streamed" : "ordinary") << " copy-out";
#else
  (void)nt;
#endif
}

TEST(HostPath, StagedCopyOutStreamed) {
  for (bool nt : {false, true}) {
    staged_copy_out<double>(nt);
    staged_copy_out<float>(nt);
  }
}

TEST(HostPath, StreamedWriteBackDouble) {
  streamed_write_back<double>();
}
TEST(HostPath, StreamedWriteBackFloat) {
  streamed_write_back<float>();
}

// ---- typed Views through the public API, Auto, empty sizes ------------------

template <class T, class Layout, class Exec>
void typed_views(const Exec& exec) {
  const int n = 6, batch = 2 * W<T> + 1;
  Kokkos::View<T***, Layout, Kokkos::HostSpace> a("a", batch, n, n), g("g", batch, n, n);
  Kokkos::View<T**, Layout, Kokkos::HostSpace> b("b", batch, n), bg("bg", batch, n);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", batch), infog("infog", batch);
  for (int m = 0; m < batch; ++m)
    for (int i = 0; i < n; ++i) {
      b(m, i) = T(i + m);
      for (int j = 0; j < n; ++j) a(m, i, j) = i == j ? T(n + m) : T(1) / T(1 + i + j);
    }
  Kokkos::deep_copy(g, a);
  Kokkos::deep_copy(bg, b);
  batchol::posv(exec, a, b, info);  // Auto: the Host path on a host space
  batchol::posv(exec, g, bg, infog, with_path(Options{}, Path::Generic));
  exec.fence();
  for (int m = 0; m < batch; ++m) {
    EXPECT_EQ(info(m), 0);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(b(m, i), bg(m, i), 64 * n * eps<T>() * (1 + m));
  }
  // A subview through the public API: the middle matrices, rows/cols 1..n-1.
  auto sub = Kokkos::subview(g, Kokkos::pair<int, int>(1, batch - 1), Kokkos::pair<int, int>(1, n),
                             Kokkos::pair<int, int>(1, n));
  Kokkos::View<int*, Kokkos::HostSpace> si("si", batch - 2);
  batchol::potrf(exec, sub, si, with_path(Options{}, Path::Host));
  exec.fence();
  for (int m = 0; m < batch - 2; ++m) EXPECT_EQ(si(m), 0);
}

TEST(HostPath, TypedViewsAndAuto) {
  for_each_space([](auto exec, const char*) {
    using Exec = decltype(exec);
    static_assert(batchol::path_available<Exec>(Path::Host), "Host path must exist here");
    static_assert(batchol::path_available<Exec, batchol::Op::Posv>(Path::Host), "");
    typed_views<double, Kokkos::LayoutLeft>(exec);
    typed_views<double, Kokkos::LayoutRight>(exec);
    typed_views<float, Kokkos::LayoutLeft>(exec);
    typed_views<float, Kokkos::LayoutRight>(exec);
  });
}

TEST(HostPath, EmptySizes) {
  for_each_space([](auto exec, const char*) {
    Options o = with_path(Options{}, Path::Host);
    Kokkos::View<double***, Kokkos::HostSpace> a0("a0", 5, 0, 0), e("e", 0, 4, 4);
    Kokkos::View<double***, Kokkos::HostSpace> b0("b0", 5, 0, 3);
    Kokkos::View<int*, Kokkos::HostSpace> info("info", 5), none("none", 0);
    Kokkos::deep_copy(info, -1);
    batchol::potrf(exec, a0, info, o);
    exec.fence();
    for (int m = 0; m < 5; ++m) EXPECT_EQ(info(m), 0);
    Kokkos::deep_copy(info, -1);
    batchol::posv(exec, a0, b0, info, o);
    batchol::potrf(exec, e, none, o);
    exec.fence();
    for (int m = 0; m < 5; ++m) EXPECT_EQ(info(m), 0);
    // nrhs == 0: posv still factors.
    Kokkos::View<double***, Kokkos::HostSpace> a("a", 5, 2, 2), b("b", 5, 2, 0);
    for (int m = 0; m < 5; ++m) a(m, 0, 0) = a(m, 1, 1) = 4;
    batchol::posv(exec, a, b, info, o);
    exec.fence();
    for (int m = 0; m < 5; ++m) EXPECT_EQ(a(m, 1, 1), 2.0);
  });
}

}  // namespace
