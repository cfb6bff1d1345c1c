// Batched Gaussian-process marginal log-likelihoods: many independent
// one-dimensional data sets, each with its own length scale, as when a
// hyperparameter search or a bank of sensors fits one GP per entry.
//
// For data set i with inputs x (n points), observations y, a squared-
// exponential kernel of length scale l_i and noise sigma:
//   K_i = k(x, x) + sigma^2 I,  k(a, b) = exp(-(a - b)^2 / (2 l_i^2))
//   log p(y) = -1/2 y^T K_i^{-1} y - 1/2 log det K_i - n/2 log(2 pi)
// K_i is built inside a Kokkos kernel, factored by batchol::potrf_shifted
// (potrf with shift-and-retry, the "jitter" GP codes add when a kernel matrix
// is numerically singular); alpha = K_i^{-1} y comes from batchol::potrs,
// log det K_i from batchol::logdet. A second batch without the noise term,
// numerically singular at long length scales, shows the retries at work.
//
// Check: one data set's log-likelihood recomputed on the host in plain
// double precision (its own Cholesky factorization) must agree to rounding;
// and the length scale that generated the data must be among the likeliest.
//
// Usage: gp_loglik [data sets = 256] [points = 40]
#include <Batchol.hpp>

#include "example_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;

constexpr double kSigma = 0.1;
constexpr double kTrueLength = 0.3;
constexpr double kTwoPi = 6.283185307179586;

// Length scale of data set i: a grid from 0.05 to 1.5 around the true one.
KOKKOS_INLINE_FUNCTION double length_of(int i, int sets) {
  return 0.05 + 1.45 * double(i) / double(sets > 1 ? sets - 1 : 1);
}

KOKKOS_INLINE_FUNCTION double kernel(double a, double b, double l) {
  const double d = a - b;
  // Kokkos 3.7 moved the math functions out of Kokkos::Experimental.
#if KOKKOS_VERSION >= 30700
  return Kokkos::exp(-d * d / (2 * l * l));
#else
  return Kokkos::Experimental::exp(-d * d / (2 * l * l));
#endif
}

// The log-likelihood of one data set in plain host code, as a reference.
double host_loglik(const std::vector<double>& x, const std::vector<double>& y, double l) {
  const int n = int(x.size());
  std::vector<double> k(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      k[i * n + j] =
          std::exp(-(x[i] - x[j]) * (x[i] - x[j]) / (2 * l * l)) + (i == j ? kSigma * kSigma : 0.0);
  for (int j = 0; j < n; ++j) {  // Cholesky, lower, row-major
    double d = k[j * n + j];
    for (int p = 0; p < j; ++p) d -= k[j * n + p] * k[j * n + p];
    k[j * n + j] = std::sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double v = k[i * n + j];
      for (int p = 0; p < j; ++p) v -= k[i * n + p] * k[j * n + p];
      k[i * n + j] = v / k[j * n + j];
    }
  }
  std::vector<double> z(y);  // L z = y: y^T K^{-1} y = z^T z
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; ++i) {
    for (int p = 0; p < i; ++p) z[i] -= k[i * n + p] * z[p];
    z[i] /= k[i * n + i];
    quad += z[i] * z[i];
    logdet += 2 * std::log(k[i * n + i]);
  }
  return -0.5 * quad - 0.5 * logdet - 0.5 * n * std::log(kTwoPi);
}

int run(int argc, char** argv) {
  const int sets = std::max(2, example::int_arg(argc, argv, 0, 256));
  const int n = std::max(2, example::int_arg(argc, argv, 1, 40));
  std::printf("gp_loglik: %d data sets, %d points each\n", sets, n);

  // One data set drawn from the GP with the true length scale, approximately:
  // a smooth function plus noise; every entry of the batch fits it with its
  // own length scale.
  example::Rng rng(42);
  std::vector<double> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = double(i) / double(n - 1);
    hy[i] = std::sin(hx[i] / kTrueLength) + 0.5 * std::cos(2.3 * hx[i] / kTrueLength) +
            kSigma * rng.normal();
  }
  Kokkos::View<double*, Exec> x("x", n), y("y", n);
  Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace>(hx.data(), n));
  Kokkos::deep_copy(y, Kokkos::View<const double*, Kokkos::HostSpace>(hy.data(), n));

  // K_i with noise variance `noise` on the diagonal (lower triangle).
  auto build = [&](const Kokkos::View<double***, Exec>& K, double noise) {
    Kokkos::parallel_for(
        "build_K", Kokkos::RangePolicy<Exec>(0, sets), KOKKOS_LAMBDA(const int s) {
          const double l = length_of(s, sets);
          for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j)
              K(s, i, j) = kernel(x(i), x(j), l) + (i == j ? noise : 0.0);
        });
  };
  Kokkos::View<double***, Exec> K("K", sets, n, n), L("L", sets, n, n);
  Kokkos::View<double**, Exec> alpha("alpha", sets, n);
  build(K, kSigma * kSigma);
  Kokkos::parallel_for(
      "alpha", Kokkos::RangePolicy<Exec>(0, sets), KOKKOS_LAMBDA(const int s) {
        for (int i = 0; i < n; ++i) alpha(s, i) = y(i);
      });

  Kokkos::View<int*, Exec> info("info", sets);
  Kokkos::View<double*, Exec> shift("shift", sets);
  Kokkos::View<double*, Exec> logdet("logdet", sets), loglik("loglik", sets);
  batchol::potrf_shifted(Exec(), K, L, info, shift);  // default policy: 1e-8 max K_jj, x10, 6 tries
  batchol::potrs(Exec(), L, alpha);
  batchol::logdet(Exec(), L, info, logdet);
  const double log_two_pi = std::log(kTwoPi);
  Kokkos::parallel_for(
      "loglik", Kokkos::RangePolicy<Exec>(0, sets), KOKKOS_LAMBDA(const int s) {
        double quad = 0;
        for (int i = 0; i < n; ++i) quad += y(i) * alpha(s, i);
        loglik(s) = -0.5 * quad - 0.5 * logdet(s) - 0.5 * n * log_two_pi;
      });

  auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), loglik);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  int jittered = 0;  // counted now: the second batch below reuses `shift`
  {
    auto hs1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shift);
    for (int s = 0; s < sets; ++s) jittered += hs1(s) != 0;
  }
  int best = 0;
  for (int s = 0; s < sets; ++s)
    if (hi(s) == 0 && hl(s) > hl(best)) best = s;
  for (int s = 0; s < sets; s += std::max(1, sets / 8))
    std::printf("  length %.3f  log-likelihood %12.4f  (info %d)\n", length_of(s, sets), hl(s),
                hi(s));
  std::printf("  likeliest length %.3f (data drawn with %.3f)\n", length_of(best, sets),
              kTrueLength);

  // The same kernels without noise: at long length scales K_i is singular to
  // rounding, and only a shift factors it.
  build(K, 0.0);
  Kokkos::View<int*, Exec> info0("info0", sets);
  batchol::potrf_shifted(Exec(), K, L, info0, shift);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shift);
  auto hi0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info0);
  int shifted = 0, failed0 = 0;
  double largest = 0;
  for (int s = 0; s < sets; ++s) {
    shifted += hs(s) > 0;
    failed0 += hi0(s) != 0;
    largest = std::max(largest, double(hs(s)));
  }
  std::printf(
      "  without noise: %d of %d kernel matrices needed a shift (largest %.1e), %d failed\n",
      shifted, sets, largest, failed0);

  example::Checks checks;
  int failed = 0;
  for (int s = 0; s < sets; ++s) failed += hi(s) != 0;
  checks.require(failed == 0 && jittered == 0, "every K_i is positive definite, no shift needed");
  checks.require(failed0 == 0 && shifted > 0,
                 "without noise, some K_i need a shift and every one is factored");
  const int probe = sets / 3;
  const double ref = host_loglik(hx, hy, length_of(probe, sets));
  checks.require(std::abs(hl(probe) - ref) <= 1e-8 * std::max(1.0, std::abs(ref)),
                 "log-likelihood of one data set matches the host computation");
  checks.require(std::abs(length_of(best, sets) - kTrueLength) < 0.2,
                 "the likeliest length scale is near the true one");
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int code = 0;
  { code = run(argc, argv); }
  Kokkos::finalize();
  return code;
}
