// Complex Hermitian matrices (Kokkos::complex<float>, Kokkos::complex<double>)
// against LAPACK's zpotrf, zpotrs and zpotri: the factor, the solution of
// potrs and posv, trsv in every op (T, T^T, T^H), the inverse (potri) and the
// log-determinant (real), potrf_shifted's rescue of an indefinite matrix
// with a real shift, both triangles and both layouts; exact info for a
// negative pivot, a NaN imaginary part on the diagonal and a NaN, each in the
// middle of a good batch that it leaves as it is; a finite imaginary part on
// the diagonal not read (as LAPACK); the other triangle untouched; the paths
// that do not take complex scalars refuse; the device-level calls from a
// user's kernel.
#include "support/tolerance.hpp"
#include "support/user_kernels.hpp"
#include "support/views.hpp"

#include <gtest/gtest.h>
#include <Batchol.hpp>

#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" {
void zpotrf_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* info,
             std::size_t);
void zpotrs_(const char* uplo, const int* n, const int* nrhs, const std::complex<double>* a,
             const int* lda, std::complex<double>* b, const int* ldb, int* info, std::size_t);
void zpotri_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* info,
             std::size_t);
}

namespace batchol_test {
namespace {

using C64 = std::complex<double>;
using batchol::Uplo;

template <class T, class Layout, Uplo U>
struct ComplexConfig {
  using real = T;
  using scalar = Kokkos::complex<T>;
  using layout = Layout;
  static constexpr Uplo uplo = U;
};
using ComplexConfigs = ::testing::Types<ComplexConfig<float, Kokkos::LayoutLeft, Uplo::Lower>,
                                        ComplexConfig<float, Kokkos::LayoutLeft, Uplo::Upper>,
                                        ComplexConfig<float, Kokkos::LayoutRight, Uplo::Lower>,
                                        ComplexConfig<float, Kokkos::LayoutRight, Uplo::Upper>,
                                        ComplexConfig<double, Kokkos::LayoutLeft, Uplo::Lower>,
                                        ComplexConfig<double, Kokkos::LayoutLeft, Uplo::Upper>,
                                        ComplexConfig<double, Kokkos::LayoutRight, Uplo::Lower>,
                                        ComplexConfig<double, Kokkos::LayoutRight, Uplo::Upper>>;
struct ComplexNames {
  template <class C>
  static std::string GetName(int) {
    return std::string(std::is_same_v<typename C::real, float> ? "cfloat" : "cdouble") + "_" +
           (std::is_same_v<typename C::layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight") +
           "_" + (C::uplo == Uplo::Lower ? "Lower" : "Upper");
  }
};

template <class C>
class Complex : public ::testing::Test {};
TYPED_TEST_SUITE(Complex, ComplexConfigs, ComplexNames);

const std::vector<int> kSizes = {1, 2, 3, 5, 8, 9, 16, 17, 33};

// A dense n x n complex matrix, column-major (LAPACK's order).
struct CMatrix {
  int n = 0;
  std::vector<C64> v;
  explicit CMatrix(int n_ = 0) : n(n_), v(std::size_t(n_) * n_) {}
  C64& operator()(int i, int j) { return v[std::size_t(j) * n + i]; }
  C64 operator()(int i, int j) const { return v[std::size_t(j) * n + i]; }
};

double frob(const CMatrix& a) {
  double s = 0;
  for (const C64& x : a.v) s += std::norm(x);
  return std::sqrt(s);
}

// B B^H / n + I with B's entries uniform in the unit square: Hermitian
// positive definite, condition number a few tens.
CMatrix random_hpd(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  CMatrix b(n), a(n);
  for (C64& x : b.v) x = C64(u(rng), u(rng));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      C64 s = 0;
      for (int k = 0; k < n; ++k) s += b(i, k) * std::conj(b(j, k));
      a(i, j) = s / double(n) + (i == j ? 1.0 : 0.0);
    }
  for (int i = 0; i < n; ++i) a(i, i) = C64(a(i, i).real(), 0.0);
  return a;
}

// LAPACK's lower factor of a (zero above the diagonal), and its info.
int lapack_lower(const CMatrix& a, CMatrix& l) {
  l = a;
  int info = 0;
  zpotrf_("L", &l.n, l.v.data(), &l.n, &info, 1);
  for (int j = 0; j < l.n; ++j)
    for (int i = 0; i < j; ++i) l(i, j) = 0;
  return info;
}

// Matrix b of the device View h (a host mirror), as stored.
template <class H>
CMatrix get_c(const H& h, int b) {
  const int n = int(h.extent(1));
  CMatrix m(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m(i, j) = C64(h(b, i, j).real(), h(b, i, j).imag());
  return m;
}

// The triangle `uplo` of a into h's matrix b, the other triangle `poison`.
template <class H>
void put_c(const H& h, int b, const CMatrix& a, Uplo uplo, C64 poison) {
  using S = typename H::non_const_value_type;
  using R = typename S::value_type;
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j) {
      const bool mine = uplo == Uplo::Lower ? j <= i : j >= i;
      const C64 x = mine ? a(i, j) : poison;
      h(b, i, j) = S(R(x.real()), R(x.imag()));
    }
}

// The lower factor that a stored factor (triangle uplo) stands for: L, or
// U^H for Upper.
CMatrix lower_factor(const CMatrix& stored, Uplo uplo) {
  CMatrix l(stored.n);
  for (int i = 0; i < stored.n; ++i)
    for (int j = 0; j <= i; ++j)
      l(i, j) = uplo == Uplo::Lower ? stored(i, j) : std::conj(stored(j, i));
  return l;
}

template <class R>
double tol(int n) {
  return kSafety * std::max(n, 1) * double(std::numeric_limits<R>::epsilon());
}

// A factor against LAPACK's, and ||L L^H - A|| / ||A||.
template <class R>
::testing::AssertionResult factor_ok(const CMatrix& a, const CMatrix& stored, Uplo uplo) {
  const int n = a.n;
  const CMatrix l = lower_factor(stored, uplo);
  CMatrix ref;
  if (lapack_lower(a, ref) != 0) return ::testing::AssertionFailure() << "LAPACK failed";
  CMatrix d(n), r(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      d(i, j) = l(i, j) - ref(i, j);
      C64 s = 0;
      for (int k = 0; k <= std::min(i, j); ++k) s += l(i, k) * std::conj(l(j, k));
      r(i, j) = s - a(i, j);
    }
  // The matrices are well conditioned (B B^H / n + I): the factor's forward
  // error is a small multiple of its backward error.
  const double fwd = frob(d) / frob(ref), bwd = frob(r) / frob(a);
  if (!(bwd <= tol<R>(n)))
    return ::testing::AssertionFailure() << "residual " << bwd << " > " << tol<R>(n);
  if (!(fwd <= 10 * tol<R>(n)))
    return ::testing::AssertionFailure() << "vs LAPACK " << fwd << " > " << 10 * tol<R>(n);
  for (int j = 0; j < n; ++j)
    if (stored(j, j).imag() != 0.0)
      return ::testing::AssertionFailure() << "diagonal " << j << " not real";
  return ::testing::AssertionSuccess();
}

// x (n x nrhs, column-major) against LAPACK zpotrs on a, and ||A x - b|| / (||A|| ||x||).
template <class R>
::testing::AssertionResult solution_ok(const CMatrix& a, const std::vector<C64>& b,
                                       const std::vector<C64>& x, int nrhs) {
  const int n = a.n;
  CMatrix l;
  lapack_lower(a, l);
  std::vector<C64> ref = b;
  int info = 0;
  zpotrs_("L", &n, &nrhs, l.v.data(), &n, ref.data(), &n, &info, 1);
  double r2 = 0, x2 = 0, d2 = 0, ref2 = 0;
  for (int q = 0; q < nrhs; ++q)
    for (int i = 0; i < n; ++i) {
      C64 s = 0;
      for (int k = 0; k < n; ++k) s += a(i, k) * x[q * n + k];
      r2 += std::norm(s - b[q * n + i]);
      x2 += std::norm(x[q * n + i]);
      d2 += std::norm(x[q * n + i] - ref[q * n + i]);
      ref2 += std::norm(ref[q * n + i]);
    }
  const double bwd = std::sqrt(r2) / (frob(a) * std::sqrt(x2));
  const double fwd = std::sqrt(d2) / std::sqrt(ref2);
  if (!(bwd <= tol<R>(n)))
    return ::testing::AssertionFailure() << "residual " << bwd << " > " << tol<R>(n);
  if (!(fwd <= 10 * tol<R>(n)))
    return ::testing::AssertionFailure() << "vs LAPACK " << fwd << " > " << 10 * tol<R>(n);
  return ::testing::AssertionSuccess();
}

// ||op(T) x - rhs|| / (||T|| ||x||) for the triangle t as stored (zero
// elsewhere) and x row k of the host View h (batch, n).
template <class H>
double trsv_residual(const CMatrix& t, batchol::Trans trans, const H& h, int k,
                     const std::vector<C64>& rhs) {
  const int n = t.n;
  double r2 = 0, x2 = 0;
  for (int i = 0; i < n; ++i) {
    C64 s = 0;
    for (int j = 0; j < n; ++j) {
      const C64 tij = trans == batchol::Trans::NoTranspose ? t(i, j)
                      : trans == batchol::Trans::Transpose ? t(j, i)
                                                           : std::conj(t(j, i));
      s += tij * C64(h(k, j).real(), h(k, j).imag());
    }
    r2 += std::norm(s - rhs[i]);
    x2 += std::norm(C64(h(k, i).real(), h(k, i).imag()));
  }
  return std::sqrt(r2) / (frob(t) * std::sqrt(x2));
}

// The inverse potri left in the triangle `uplo` of `stored` against LAPACK's
// zpotri of a, relative in the Frobenius norm (a from random_hpd: condition
// a few tens), and a real diagonal.
template <class R>
::testing::AssertionResult inverse_ok(const CMatrix& a, const CMatrix& stored, Uplo uplo) {
  const int n = a.n;
  CMatrix ref = a;
  int info = 0;
  zpotrf_("L", &ref.n, ref.v.data(), &ref.n, &info, 1);
  zpotri_("L", &ref.n, ref.v.data(), &ref.n, &info, 1);
  if (info != 0) return ::testing::AssertionFailure() << "LAPACK failed";
  CMatrix d(n), lower(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      // Lower: (i, j) holds inv(A)(i, j); Upper: (j, i) holds inv(A)(j, i).
      const C64 got = uplo == Uplo::Lower ? stored(i, j) : std::conj(stored(j, i));
      d(i, j) = got - ref(i, j);
      lower(i, j) = ref(i, j);
    }
  const double err = frob(d) / frob(lower);
  if (!(err <= 100 * tol<R>(n)))
    return ::testing::AssertionFailure() << "vs LAPACK " << err << " > " << 100 * tol<R>(n);
  for (int j = 0; j < n; ++j)
    if (stored(j, j).imag() != 0.0)
      return ::testing::AssertionFailure() << "diagonal " << j << " not real";
  return ::testing::AssertionSuccess();
}

template <class C>
using CBatch3 = Kokkos::View<typename C::scalar***, typename C::layout, Exec>;

const C64 kCPoison(777.0, -777.0);

// `batch` matrices from random_hpd, appended to a, in the triangle C::uplo
// of a new View (the other triangle kCPoison).
template <class C>
CBatch3<C> upload_hpd(int n, int batch, std::mt19937& rng, std::vector<CMatrix>& a) {
  CBatch3<C> A("A", batch, n, n);
  auto h = Kokkos::create_mirror_view(A);
  for (int b = 0; b < batch; ++b) {
    a.push_back(random_hpd(n, rng));
    put_c(h, b, a.back(), C::uplo, kCPoison);
  }
  Kokkos::deep_copy(A, h);
  return A;
}

// The triangle opposite `uplo` of a stored result: untouched (kCPoison), or
// with write_transposed the conjugate transpose of the triangle `uplo`.
::testing::AssertionResult other_triangle_ok(const CMatrix& s, Uplo uplo, bool mirrored) {
  for (int i = 0; i < s.n; ++i)
    for (int j = 0; j < s.n; ++j) {
      const bool other = uplo == Uplo::Lower ? j > i : j < i;
      const C64 expect = mirrored ? std::conj(s(j, i)) : kCPoison;
      if (other && s(i, j) != expect)
        return ::testing::AssertionFailure() << "(" << i << ", " << j << ") is " << s(i, j);
    }
  return ::testing::AssertionSuccess();
}

TYPED_TEST(Complex, PotrfMatchesLapack) {
  using C = TypeParam;
  using R = typename C::real;
  std::mt19937 rng(11);
  for (int n : kSizes) {
    for (bool both : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (both ? ", write_transposed" : ""));
      const int batch = 7;
      std::vector<CMatrix> a;
      const CBatch3<C> A = upload_hpd<C>(n, batch, rng, a);
      auto h = Kokkos::create_mirror_view(A);
      InfoView info = make_info(batch, -99);
      batchol::Options opts;
      opts.uplo = C::uplo;
      opts.write_transposed = both;
      batchol::potrf(Exec(), A, info, opts);
      Kokkos::deep_copy(h, A);
      for (int i : download_info(info)) EXPECT_EQ(i, 0);
      for (int b = 0; b < batch; ++b) {
        const CMatrix s = get_c(h, b);
        EXPECT_TRUE(factor_ok<R>(a[b], s, C::uplo)) << "matrix " << b;
        EXPECT_TRUE(other_triangle_ok(s, C::uplo, both)) << "matrix " << b;
      }
    }
  }
}

// posv, and potrf then potrs, with 1 and 3 right-hand sides.
TYPED_TEST(Complex, SolvesMatchLapack) {
  using C = TypeParam;
  using R = typename C::real;
  using S = typename C::scalar;
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n : kSizes)
    for (int nrhs : {1, 3})
      for (bool fused : {true, false}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs) +
                     (fused ? ", posv" : ", potrf + potrs"));
        const int batch = 5;
        std::vector<CMatrix> a;
        std::vector<std::vector<C64>> b(batch, std::vector<C64>(std::size_t(n) * nrhs));
        CBatch3<C> A("A", batch, n, n);
        Kokkos::View<S***, typename C::layout, Exec> B("B", batch, n, nrhs);
        auto ha = Kokkos::create_mirror_view(A);
        auto hb = Kokkos::create_mirror_view(B);
        for (int k = 0; k < batch; ++k) {
          a.push_back(random_hpd(n, rng));
          put_c(ha, k, a[k], C::uplo, kCPoison);
          for (int q = 0; q < nrhs; ++q)
            for (int i = 0; i < n; ++i) {
              const C64 x(u(rng), u(rng));
              b[k][q * n + i] = C64(R(x.real()), R(x.imag()));  // what B holds in T
              hb(k, i, q) = S(R(x.real()), R(x.imag()));
            }
        }
        Kokkos::deep_copy(A, ha);
        Kokkos::deep_copy(B, hb);
        InfoView info = make_info(batch, -99);
        batchol::Options opts;
        opts.uplo = C::uplo;
        if (fused) {
          batchol::posv(Exec(), A, B, info, opts);
        } else {
          batchol::potrf(Exec(), A, info, opts);
          batchol::potrs(Exec(), A, B, opts);
        }
        Kokkos::deep_copy(hb, B);
        for (int i : download_info(info)) EXPECT_EQ(i, 0);
        for (int k = 0; k < batch; ++k) {
          std::vector<C64> x(std::size_t(n) * nrhs);
          for (int q = 0; q < nrhs; ++q)
            for (int i = 0; i < n; ++i) x[q * n + i] = C64(hb(k, i, q).real(), hb(k, i, q).imag());
          EXPECT_TRUE(solution_ok<R>(a[k], b[k], x, nrhs)) << "system " << k;
        }
      }
}

// op(T) x = b for the triangle T of a factor, op = T, T^T, T^H: residual.
TYPED_TEST(Complex, TrsvEveryOp) {
  using C = TypeParam;
  using R = typename C::real;
  using S = typename C::scalar;
  using batchol::Trans;
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n : kSizes)
    for (Trans trans : {Trans::NoTranspose, Trans::Transpose, Trans::ConjTranspose}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", trans " + std::to_string(int(trans)));
      const int batch = 4;
      // A triangle with a complex diagonal: trsv is not only for factors.
      std::vector<CMatrix> t;
      CBatch3<C> A("A", batch, n, n);
      Kokkos::View<S**, typename C::layout, Exec> b("b", batch, n);
      auto ha = Kokkos::create_mirror_view(A);
      auto hb = Kokkos::create_mirror_view(b);
      std::vector<std::vector<C64>> rhs(batch, std::vector<C64>(n));
      for (int k = 0; k < batch; ++k) {
        CMatrix m(n);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) {
            const bool mine = C::uplo == Uplo::Lower ? j <= i : j >= i;
            if (!mine) continue;
            const C64 x =
                i == j ? C64(2.0 + u(rng) * 0.5, u(rng)) : C64(u(rng), u(rng)) / double(n);
            m(i, j) = C64(R(x.real()), R(x.imag()));
          }
        t.push_back(m);
        put_c(ha, k, m, C::uplo, kCPoison);
        for (int i = 0; i < n; ++i) {
          const C64 x(u(rng), u(rng));
          rhs[k][i] = C64(R(x.real()), R(x.imag()));
          hb(k, i) = S(R(x.real()), R(x.imag()));
        }
      }
      Kokkos::deep_copy(A, ha);
      Kokkos::deep_copy(b, hb);
      batchol::trsv(Exec(), C::uplo, trans, A, b);
      Kokkos::deep_copy(hb, b);
      for (int k = 0; k < batch; ++k)
        EXPECT_LE(trsv_residual(t[k], trans, hb, k, rhs[k]), tol<R>(n)) << "system " << k;
    }
}

// Three bad matrices in the middle of a good batch: a negative pivot at
// column j, a diagonal entry with a NaN imaginary part at column j, a NaN on
// the diagonal at column j. info names the column; posv leaves their right-hand
// sides alone; the good matrices come out bit for bit as in a batch without
// the bad ones.
TYPED_TEST(Complex, HostileMatricesIsolated) {
  using C = TypeParam;
  using S = typename C::scalar;
  std::mt19937 rng(14);
  for (int n : {1, 4, 9, 17}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int j = n / 2;
    std::vector<CMatrix> good;
    for (int k = 0; k < 4; ++k) good.push_back(random_hpd(n, rng));
    CMatrix negative = random_hpd(n, rng), not_real = negative, with_nan = negative;
    negative(j, j) = C64(-1.0, 0.0);
    not_real(j, j) = C64(not_real(j, j).real(), std::numeric_limits<double>::quiet_NaN());
    with_nan(j, j) = C64(std::numeric_limits<double>::quiet_NaN(), 0.0);

    auto run = [&](const std::vector<CMatrix>& items) {
      const int batch = int(items.size());
      CBatch3<C> A("A", batch, n, n);
      Kokkos::View<S**, typename C::layout, Exec> B("B", batch, n);
      auto ha = Kokkos::create_mirror_view(A);
      for (int k = 0; k < batch; ++k) put_c(ha, k, items[k], C::uplo, kCPoison);
      Kokkos::deep_copy(A, ha);
      Kokkos::deep_copy(B, S(1, -1));
      InfoView info = make_info(batch, -99);
      batchol::Options opts;
      opts.uplo = C::uplo;
      batchol::posv(Exec(), A, B, info, opts);
      return std::make_tuple(snapshot(A), snapshot(B), download_info(info));
    };
    const auto clean = run(good);
    std::vector<CMatrix> items = good;
    items.insert(items.begin() + 2, {negative, not_real, with_nan});
    const auto mixed = run(items);
    const auto& info = std::get<2>(mixed);
    EXPECT_EQ(info[2], j + 1) << "negative pivot";
    EXPECT_EQ(info[3], j + 1) << "NaN imaginary part on the diagonal";
    EXPECT_EQ(info[4], j + 1) << "NaN pivot";
    for (int k = 2; k < 5; ++k)
      for (int i = 0; i < n; ++i) {
        const S x = std::get<1>(mixed)(k, i);
        EXPECT_TRUE(x.real() == 1 && x.imag() == -1) << "system " << k << " row " << i;
      }
    for (int k = 0; k < 4; ++k) {
      const int at = k < 2 ? k : k + 3;
      EXPECT_EQ(info[at], 0);
      for (int r = 0; r < n; ++r) {
        const S x = std::get<1>(mixed)(at, r), y = std::get<1>(clean)(k, r);
        EXPECT_TRUE(same_bits(x.real(), y.real()) && same_bits(x.imag(), y.imag()))
            << "good system " << k;
        for (int c = 0; c < n; ++c) {
          const S p = std::get<0>(mixed)(at, r, c), q = std::get<0>(clean)(k, r, c);
          EXPECT_TRUE(same_bits(p.real(), q.real()) && same_bits(p.imag(), q.imag()))
              << "good matrix " << k;
        }
      }
    }
  }
}

// The imaginary part of the diagonal is not read (LAPACK's ?potrf takes the
// real part): a matrix with one there factors bit for bit as without it.
TYPED_TEST(Complex, DiagonalImaginaryPartNotRead) {
  using C = TypeParam;
  std::mt19937 rng(15);
  for (int n : {1, 4, 17}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const CMatrix a = random_hpd(n, rng);
    CMatrix tilted = a;
    for (int j = 0; j < n; ++j) tilted(j, j) = C64(a(j, j).real(), 1e-3 * (j + 1));
    auto run = [&](const CMatrix& m) {
      CBatch3<C> A("A", 1, n, n);
      auto h = Kokkos::create_mirror_view(A);
      put_c(h, 0, m, C::uplo, kCPoison);
      Kokkos::deep_copy(A, h);
      InfoView info = make_info(1, -99);
      batchol::Options opts;
      opts.uplo = C::uplo;
      batchol::potrf(Exec(), A, info, opts);
      EXPECT_EQ(download_info(info)[0], 0);
      return snapshot(A);
    };
    const auto x = run(a), y = run(tilted);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < n; ++c) {
        const bool mine = C::uplo == Uplo::Lower ? c <= i : c >= i;
        if (!mine) continue;
        EXPECT_TRUE(same_bits(x(0, i, c).real(), y(0, i, c).real()) &&
                    same_bits(x(0, i, c).imag(), y(0, i, c).imag()))
            << "(" << i << ", " << c << ")";
      }
  }
}

// potri after potrf: the inverse against LAPACK's zpotri (a Hermitian
// inverse: real diagonal), the other triangle untouched or, with
// write_transposed, the conjugate; a zero on the factor's diagonal in a good
// batch gives info j and leaves that matrix alone.
TYPED_TEST(Complex, PotriMatchesLapack) {
  using C = TypeParam;
  using R = typename C::real;
  using S = typename C::scalar;
  std::mt19937 rng(16);
  for (int n : kSizes) {
    for (bool both : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (both ? ", write_transposed" : ""));
      const int batch = 4;
      std::vector<CMatrix> a;
      const CBatch3<C> A = upload_hpd<C>(n, batch, rng, a);
      auto h = Kokkos::create_mirror_view(A);
      InfoView info = make_info(batch, -99);
      batchol::Options opts;
      opts.uplo = C::uplo;
      batchol::potrf(Exec(), A, info, opts);
      // Matrix 2's factor gets a zero at column n / 2 + 1: potri's info.
      const int zero_at = n / 2;
      Kokkos::deep_copy(h, A);
      h(2, zero_at, zero_at) = S(0);
      const auto factor2 = get_c(h, 2);
      Kokkos::deep_copy(A, h);
      opts.write_transposed = both;
      batchol::potri(Exec(), A, info, opts);
      Kokkos::deep_copy(h, A);
      const std::vector<int> got = download_info(info);
      for (int b = 0; b < batch; ++b) {
        SCOPED_TRACE("matrix " + std::to_string(b));
        const CMatrix s = get_c(h, b);
        if (b == 2) {
          EXPECT_EQ(got[b], zero_at + 1);
          EXPECT_EQ(s.v, factor2.v) << "a singular factor's matrix changed";
          continue;
        }
        EXPECT_EQ(got[b], 0);
        EXPECT_TRUE(inverse_ok<R>(a[b], s, C::uplo));
        EXPECT_TRUE(other_triangle_ok(s, C::uplo, both));
      }
    }
  }
}

// The log-determinant, real: from potrf's output and from logdet on the
// factor, against 2 sum log of zpotrf's diagonal; NaN for a matrix that
// failed (a negative pivot in the middle of the batch).
TYPED_TEST(Complex, LogdetMatchesLapack) {
  using C = TypeParam;
  using R = typename C::real;
  std::mt19937 rng(17);
  for (int n : kSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int batch = 5;
    std::vector<CMatrix> a;
    CBatch3<C> A("A", batch, n, n);
    auto h = Kokkos::create_mirror_view(A);
    for (int b = 0; b < batch; ++b) {
      a.push_back(random_hpd(n, rng));
      if (b == 2) a[b](n - 1, n - 1) = C64(-1.0, 0.0);
      put_c(h, b, a[b], C::uplo, kCPoison);
    }
    Kokkos::deep_copy(A, h);
    InfoView info = make_info(batch, -99);
    Kokkos::View<R*, Exec> out("out", batch), again("again", batch);
    batchol::Options opts;
    opts.uplo = C::uplo;
    batchol::potrf(Exec(), A, info, out, opts);
    batchol::logdet(Exec(), A, info, again, opts);
    const auto ho = snapshot(out), ha = snapshot(again);
    const std::vector<int> got = download_info(info);
    for (int b = 0; b < batch; ++b) {
      SCOPED_TRACE("matrix " + std::to_string(b));
      if (b == 2) {
        EXPECT_EQ(got[b], n);
        EXPECT_TRUE(std::isnan(ho(b)) && std::isnan(ha(b)));
        continue;
      }
      EXPECT_EQ(got[b], 0);
      CMatrix l;
      ASSERT_EQ(lapack_lower(a[b], l), 0);
      double ref = 0;
      for (int j = 0; j < n; ++j) ref += 2 * std::log(l(j, j).real());
      const double bound = tol<R>(n) * n * std::max(1.0, std::abs(ref));
      EXPECT_LE(std::abs(ho(b) - ref), bound);
      EXPECT_TRUE(same_bits(ho(b), ha(b))) << "potrf's output and logdet differ";
    }
  }
}

// potrf_shifted: an indefinite matrix (a zero on the diagonal) is rescued
// with a real shift, its factor that of A + shift I; a good matrix keeps
// shift 0 and plain potrf's bits; a NaN is never rescued (shift -1).
TYPED_TEST(Complex, ShiftRescuesIndefinite) {
  using C = TypeParam;
  using R = typename C::real;
  std::mt19937 rng(18);
  for (int n : {1, 4, 9, 17}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const int batch = 3;
    std::vector<CMatrix> a = {random_hpd(n, rng), random_hpd(n, rng), random_hpd(n, rng)};
    a[1](n / 2, n / 2) = C64(0.0, 0.0);
    // Below the diagonal where there is room (the shifts' scale stays
    // finite, and every try fails where potrf did).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    a[2](n - 1, 0) = C64(nan, 0.0);
    a[2](0, n - 1) = C64(nan, 0.0);
    CBatch3<C> A("A", batch, n, n), L("L", batch, n, n), P("P", batch, n, n);
    auto h = Kokkos::create_mirror_view(A);
    for (int b = 0; b < batch; ++b) put_c(h, b, a[b], C::uplo, kCPoison);
    Kokkos::deep_copy(A, h);
    Kokkos::deep_copy(P, h);
    InfoView info = make_info(batch, -99), pinfo = make_info(batch, -99);
    Kokkos::View<R*, Exec> shift("shift", batch);
    batchol::Options opts;
    opts.uplo = C::uplo;
    batchol::Shift policy;
    policy.start = 1e-4;
    policy.tries = 8;
    batchol::potrf_shifted(Exec(), A, L, info, shift, policy, opts);
    batchol::potrf(Exec(), P, pinfo, opts);
    const auto hl = snapshot(L), hp = snapshot(P);
    const auto hs = snapshot(shift);
    const std::vector<int> got = download_info(info), plain = download_info(pinfo);
    EXPECT_EQ(got[0], 0);
    EXPECT_EQ(hs(0), R(0));
    // Its triangle is potrf's to the bit; L's other triangle (zeros from
    // the View's construction) is not written.
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < n; ++c) {
        const bool triangle = C::uplo == batchol::Uplo::Lower ? c <= i : c >= i;
        const auto want = triangle ? hp(0, i, c) : typename C::scalar(0);
        EXPECT_TRUE(same_bits(hl(0, i, c).real(), want.real()) &&
                    same_bits(hl(0, i, c).imag(), want.imag()))
            << "good matrix (" << i << ", " << c << ")";
      }
    EXPECT_GT(plain[1], 0) << "the test matrix is not indefinite";
    EXPECT_EQ(got[1], 0);
    EXPECT_GT(hs(1), R(0));
    CMatrix shifted = a[1];
    for (int j = 0; j < n; ++j) shifted(j, j) += double(hs(1));
    EXPECT_TRUE(factor_ok<R>(shifted, get_c(hl, 1), C::uplo));
    EXPECT_EQ(got[2], plain[2]);
    EXPECT_GT(got[2], 0) << "a NaN was rescued";
    EXPECT_EQ(hs(2), R(-1));
  }
}

// The device-level calls on complex matrices from a user's kernel (serial::,
// and team:: with its scratch and with none left): posv's factor and
// solution, trsv in every op with that factor's triangle, and potri on it,
// against LAPACK.
TYPED_TEST(Complex, DeviceLevelMatchesLapack) {
  using C = TypeParam;
  using R = typename C::real;
  using S = typename C::scalar;
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const char* names[] = {"serial", "team", "team without scratch"};
  for (int n : {1, 4, 9, 17}) {
    for (int level = 0; level < 3; ++level) {
      SCOPED_TRACE(std::string(names[level]) + ", n = " + std::to_string(n));
      auto run = [&](Call op, const CBatch3<C>& A, const auto& B, const InfoView& code) {
        if (level == 0)
          serial_kernel(op, A, B, code, C::uplo);
        else
          team_kernel(op, A, B, code, C::uplo,
                      level == 1 ? Scratch::Requested : Scratch::Exhausted);
      };
      const int batch = 3, nrhs = 2;
      std::vector<CMatrix> a;
      const CBatch3<C> A = upload_hpd<C>(n, batch, rng, a);
      Kokkos::View<S***, typename C::layout, Exec> B("B", batch, n, nrhs);
      Kokkos::View<S**, typename C::layout, Exec> z("z", batch, n);
      auto hb = Kokkos::create_mirror_view(B);
      auto hz = Kokkos::create_mirror_view(z);
      std::vector<std::vector<C64>> b(batch, std::vector<C64>(std::size_t(n) * nrhs));
      for (int k = 0; k < batch; ++k)
        for (int q = 0; q < nrhs; ++q)
          for (int i = 0; i < n; ++i) {
            const C64 x(R(u(rng)), R(u(rng)));
            b[k][q * n + i] = x;
            hb(k, i, q) = S(R(x.real()), R(x.imag()));
          }
      Kokkos::deep_copy(B, hb);
      InfoView code = make_info(batch, -99);
      run(Call::Posv, A, B, code);
      EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "posv";
      const auto ha = snapshot(A);
      Kokkos::deep_copy(hb, B);
      for (int k = 0; k < batch; ++k) {
        EXPECT_TRUE(factor_ok<R>(a[k], get_c(ha, k), C::uplo)) << "matrix " << k;
        std::vector<C64> x(std::size_t(n) * nrhs);
        for (int q = 0; q < nrhs; ++q)
          for (int i = 0; i < n; ++i) x[q * n + i] = C64(hb(k, i, q).real(), hb(k, i, q).imag());
        EXPECT_TRUE(solution_ok<R>(a[k], b[k], x, nrhs)) << "system " << k;
      }
      for (batchol::Trans trans : {batchol::Trans::NoTranspose, batchol::Trans::Transpose,
                                   batchol::Trans::ConjTranspose}) {
        // The right-hand sides: the first columns of posv's solutions (kept
        // here: on a host backend hz is z itself).
        std::vector<std::vector<C64>> rhs(batch, std::vector<C64>(n));
        for (int k = 0; k < batch; ++k)
          for (int i = 0; i < n; ++i) {
            hz(k, i) = hb(k, i, 0);
            rhs[k][i] = C64(hz(k, i).real(), hz(k, i).imag());
          }
        Kokkos::deep_copy(z, hz);
        Kokkos::deep_copy(code, -99);
        run(trsv_call(trans), A, z, code);
        EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "trsv";
        const auto hx = snapshot(z);
        for (int k = 0; k < batch; ++k) {
          CMatrix t(n);
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
              if (C::uplo == Uplo::Lower ? j <= i : j >= i)
                t(i, j) = C64(ha(k, i, j).real(), ha(k, i, j).imag());
          EXPECT_LE(trsv_residual(t, trans, hx, k, rhs[k]), tol<R>(n))
              << "trsv " << int(trans) << ", system " << k;
        }
      }
      Kokkos::deep_copy(code, -99);
      run(Call::Potri, A, B, code);
      EXPECT_EQ(download_info(code), std::vector<int>(batch, 0)) << "potri";
      const auto hi = snapshot(A);
      for (int k = 0; k < batch; ++k)
        EXPECT_TRUE(inverse_ok<R>(a[k], get_c(hi, k), C::uplo)) << "matrix " << k;
    }
  }
}

// Complex scalars run on the Generic path: Auto and Generic take them, the
// other paths refuse with a clear error, and the profiling region says Generic.
TEST(ComplexDispatch, GenericOnly) {
  using S = Kokkos::complex<double>;
  Kokkos::View<S***, Exec> A("A", 2, 3, 3);
  Kokkos::View<S**, Exec> b("b", 2, 3);
  InfoView info = make_info(2, 0);
  for (batchol::Path p : {batchol::Path::Host, batchol::Path::Cuda, batchol::Path::Blocked}) {
    batchol::Options opts;
    opts.path = p;
    EXPECT_THROW(batchol::potrf(Exec(), A, info, opts), std::invalid_argument);
    EXPECT_THROW(batchol::posv(Exec(), A, b, info, opts), std::invalid_argument);
    EXPECT_THROW(batchol::potrs(Exec(), A, b, opts), std::invalid_argument);
    EXPECT_THROW(batchol::trsv(Exec(), Uplo::Lower, batchol::Trans::ConjTranspose, A, b, opts),
                 std::invalid_argument);
  }
  batchol::Options opts;
  opts.path = batchol::Path::Generic;
  Kokkos::deep_copy(A, S(0));
  batchol::potrf(Exec(), A, info, opts);  // zero matrices: info 1
  for (int i : download_info(info)) EXPECT_EQ(i, 1);
}

}  // namespace
}  // namespace batchol_test
