// Adaptive beamforming across frequency bins: complex Hermitian systems.
//
// A uniform linear array of m sensors (half a wavelength apart at the top
// frequency) hears a source from broadside and an interferer 20 dB stronger
// from 40 degrees, in white noise. For every frequency bin f the array
// estimates its spatial covariance from K snapshots, R_f = (1/K) sum x x^H +
// delta I (Hermitian positive definite), and forms the minimum-variance
// distortionless (MVDR) weights w_f = R_f^{-1} d_f / (d_f^H R_f^{-1} d_f),
// d_f the steering vector of the source. The F solves R_f v_f = d_f are one
// batchol::posv call on Kokkos::complex<double> matrices.
//
// Checks: each v_f against Gaussian elimination in plain host code, and the
// weights (which pass the source undistorted, w^H d = 1, by construction)
// suppress the interferer by more than 20 dB in every bin.
//
// Usage: mvdr_beamformer [bins = 2048] [sensors = 8]
#include <Batchol.hpp>

#include "example_common.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using S = Kokkos::complex<double>;
using C = std::complex<double>;

constexpr double kPi = 3.14159265358979323846;

// The steering vector of a plane wave from `angle` (radians from broadside)
// at the fraction `nu` of the top frequency.
std::vector<C> steering(int m, double nu, double angle) {
  std::vector<C> d(m);
  for (int s = 0; s < m; ++s) d[s] = std::polar(1.0, -kPi * nu * s * std::sin(angle));
  return d;
}

// x = A^{-1} b by Gaussian elimination with partial pivoting (A copied).
std::vector<C> host_solve(std::vector<C> a, std::vector<C> b, int m) {
  for (int k = 0; k < m; ++k) {
    int p = k;
    for (int i = k + 1; i < m; ++i)
      if (std::abs(a[i * m + k]) > std::abs(a[p * m + k])) p = i;
    for (int j = 0; j < m; ++j) std::swap(a[k * m + j], a[p * m + j]);
    std::swap(b[k], b[p]);
    for (int i = k + 1; i < m; ++i) {
      const C f = a[i * m + k] / a[k * m + k];
      for (int j = k; j < m; ++j) a[i * m + j] -= f * a[k * m + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = m - 1; i >= 0; --i) {
    for (int j = i + 1; j < m; ++j) b[i] -= a[i * m + j] * b[j];
    b[i] /= a[i * m + i];
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int bins = example::int_arg(argc, argv, 0, 2048);
  const int m = example::int_arg(argc, argv, 1, 8);
  const int snapshots = 4 * m;
  const double source_angle = 0.0, interferer_angle = 40.0 * kPi / 180.0;
  const double interferer_amp = 10.0, noise_amp = 0.1, loading = 1e-3;
  example::Rng rng(7);
  std::printf("MVDR beamformer: %d bins, %d sensors, %d snapshots per bin\n", bins, m, snapshots);

  // Covariance estimates and steering vectors, built on the host.
  Kokkos::View<S***, Kokkos::LayoutRight, Exec> R("R", bins, m, m);
  Kokkos::View<S**, Kokkos::LayoutRight, Exec> V("V", bins, m);
  auto hR = Kokkos::create_mirror_view(R);
  auto hV = Kokkos::create_mirror_view(V);
  std::vector<std::vector<C>> r_full(bins, std::vector<C>(std::size_t(m) * m));
  std::vector<std::vector<C>> d_src(bins), d_int(bins);
  auto gauss = [&] { return C(rng.normal(), rng.normal()) / std::sqrt(2.0); };
  for (int f = 0; f < bins; ++f) {
    const double nu = 0.25 + 0.75 * (f + 0.5) / bins;
    d_src[f] = steering(m, nu, source_angle);
    d_int[f] = steering(m, nu, interferer_angle);
    std::vector<C>& r = r_full[f];
    for (int k = 0; k < snapshots; ++k) {
      const C s = gauss(), q = interferer_amp * gauss();
      std::vector<C> x(m);
      for (int i = 0; i < m; ++i) x[i] = s * d_src[f][i] + q * d_int[f][i] + noise_amp * gauss();
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) r[i * m + j] += x[i] * std::conj(x[j]) / double(snapshots);
    }
    for (int i = 0; i < m; ++i) r[i * m + i] += loading;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) hR(f, i, j) = S(r[i * m + j].real(), r[i * m + j].imag());
      hV(f, i) = S(d_src[f][i].real(), d_src[f][i].imag());
    }
  }
  Kokkos::deep_copy(R, hR);
  Kokkos::deep_copy(V, hV);

  // R_f v_f = d_f for every bin at once.
  Kokkos::View<int*, Exec> info("info", bins);
  batchol::posv(Exec(), R, V, info);
  Kokkos::deep_copy(hV, V);
  auto hinfo = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);

  int failed = 0;
  double worst_diff = 0, worst_rejection_db = 1e9;
  for (int f = 0; f < bins; ++f) {
    if (hinfo(f) != 0) ++failed;
    const std::vector<C> ref = host_solve(r_full[f], d_src[f], m);
    std::vector<C> v(m);
    double diff = 0, norm = 0;
    for (int i = 0; i < m; ++i) {
      v[i] = C(hV(f, i).real(), hV(f, i).imag());
      diff += std::norm(v[i] - ref[i]);
      norm += std::norm(ref[i]);
    }
    worst_diff = std::max(worst_diff, std::sqrt(diff / norm));
    // w = v / (d^H v): the interferer's response relative to the source's.
    C dv = 0, iv = 0;
    for (int i = 0; i < m; ++i) {
      dv += std::conj(d_src[f][i]) * v[i];
      iv += std::conj(d_int[f][i]) * v[i];
    }
    const double rejection = -20.0 * std::log10(std::abs(iv / dv));
    worst_rejection_db = std::min(worst_rejection_db, rejection);
  }
  std::printf("  worst relative difference to Gaussian elimination  %.2e\n", worst_diff);
  std::printf("  weakest interferer rejection over the bins         %.1f dB\n", worst_rejection_db);

  example::Checks checks;
  checks.require(failed == 0, "every covariance matrix is positive definite");
  checks.require(worst_diff < 1e-10, "posv agrees with Gaussian elimination");
  checks.require(worst_rejection_db > 20.0, "the interferer is rejected by > 20 dB");
  return checks.exit_code();
}
