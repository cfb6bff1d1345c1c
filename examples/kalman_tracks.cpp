// A batched Kalman filter: many independent targets tracked at once, each with
// a constant-velocity model, in 2D (state: position, velocity; n = 4) and in 3D
// (n = 6). This is the tiny-matrix workload of Lemaitre & Lacassagne's batched
// Cholesky: every step factors one small SPD matrix per track.
//
// Every time step, for every track:
//   predict   x = F x,  P = F P F^T + Q
//   innovate  S = H P H^T + R (m x m, SPD),  y = z - H x
//   gain      K = P H^T S^{-1}, computed without an inverse: S = L L^T by
//             batchol::potrf, then K^T = S^{-1} (H P) by batchol::potrs with
//             n right-hand sides (S and P are symmetric)
//   update    x += K y,  P -= K (H P)
// Two sensors: one measures the position (m = 2 or 3), the other position and
// velocity, as a satellite-navigation receiver with Doppler does (m = 4 or 6).
//
// Checks: the same filter in plain double-precision host code, with S inverted
// explicitly by Gauss-Jordan elimination, must agree to rounding; the filter
// must beat the raw measurements; and its covariance must be honest: the mean
// normalized estimation error squared e^T P^{-1} e over the tracks is about n
// when P describes the real error (the NEES consistency test).
//
// Usage: kalman_tracks [tracks = 20000] [time steps = 100]
#include <Batchol.hpp>

#include "example_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Range = Kokkos::RangePolicy<Exec>;

// The constant-velocity model in D dimensions; the state is (position,
// velocity), each D long. H picks the first M state entries.
template <int D, bool MeasureVelocity>
struct Model {
  static constexpr int N = 2 * D;
  static constexpr int M = MeasureVelocity ? N : D;
  double dt = 1.0;          // s
  double q = 0.5;           // process noise (white acceleration), m^2 / s^3
  double sigma_pos = 10.0;  // m
  double sigma_vel = 1.0;   // m / s

  KOKKOS_INLINE_FUNCTION double f(int i, int j) const {
    return (i == j ? 1.0 : 0.0) + (j == i + D ? dt : 0.0);
  }
  // Continuous white-acceleration noise integrated over one step; the axes are
  // independent.
  KOKKOS_INLINE_FUNCTION double qm(int i, int j) const {
    if (i % D != j % D) return 0.0;
    if (i < D && j < D) return q * dt * dt * dt / 3;
    if (i >= D && j >= D) return q * dt;
    return q * dt * dt / 2;
  }
  KOKKOS_INLINE_FUNCTION double h(int a, int j) const { return a == j ? 1.0 : 0.0; }
  KOKKOS_INLINE_FUNCTION double r(int a, int b) const {
    const double s = a < D ? sigma_pos : sigma_vel;
    return a == b ? s * s : 0.0;
  }
};

// ------------------------------------------------------------ device filter

template <class Mdl>
struct Filter {
  static constexpr int N = Mdl::N, M = Mdl::M;
  Kokkos::View<double**> x;   // (track, N)
  Kokkos::View<double***> p;  // (track, N, N)
  Kokkos::View<double***> s;  // (track, M, M): S, then its Cholesky factor
  Kokkos::View<double***> b;  // (track, M, N): H P, then K^T
  Kokkos::View<double**> y;   // (track, M): innovation
  Kokkos::View<double**> z;   // (track, M): this step's measurement
  Kokkos::View<int*> info;    // potrf's report for this step
  Kokkos::View<int*> failed;  // tracks whose S was ever not SPD
  explicit Filter(int tracks)
      : x("x", tracks, N),
        p("P", tracks, N, N),
        s("S", tracks, M, M),
        b("B", tracks, M, N),
        y("y", tracks, M),
        z("z", tracks, M),
        info("info", tracks),
        failed("failed", tracks) {}
};

// Predict, then form S, H P and the innovation. One thread per track.
template <class Mdl>
void predict(const Mdl& mdl, const Filter<Mdl>& flt) {
  constexpr int N = Mdl::N, M = Mdl::M;
  const auto x = flt.x;
  const auto p = flt.p;
  const auto s = flt.s;
  const auto b = flt.b;
  const auto y = flt.y;
  const auto z = flt.z;
  Kokkos::parallel_for(
      "predict", Range(0, static_cast<int>(x.extent(0))), KOKKOS_LAMBDA(const int t) {
        double xp[N], fp[N][N], pp[N][N], hp[M][N];
        for (int i = 0; i < N; ++i) {
          xp[i] = 0;
          for (int k = 0; k < N; ++k) xp[i] += mdl.f(i, k) * x(t, k);
        }
        for (int i = 0; i < N; ++i)
          for (int j = 0; j < N; ++j) {
            fp[i][j] = 0;
            for (int k = 0; k < N; ++k) fp[i][j] += mdl.f(i, k) * p(t, k, j);
          }
        for (int i = 0; i < N; ++i)
          for (int j = 0; j < N; ++j) {
            pp[i][j] = mdl.qm(i, j);
            for (int k = 0; k < N; ++k) pp[i][j] += fp[i][k] * mdl.f(j, k);
          }
        for (int i = 0; i < N; ++i) {
          x(t, i) = xp[i];
          for (int j = 0; j < N; ++j) p(t, i, j) = pp[i][j];
        }
        for (int a = 0; a < M; ++a)
          for (int j = 0; j < N; ++j) {
            hp[a][j] = 0;
            for (int k = 0; k < N; ++k) hp[a][j] += mdl.h(a, k) * pp[k][j];
            b(t, a, j) = hp[a][j];
          }
        for (int a = 0; a < M; ++a) {
          for (int c = 0; c < M; ++c) {
            double v = mdl.r(a, c);
            for (int k = 0; k < N; ++k) v += hp[a][k] * mdl.h(c, k);
            s(t, a, c) = v;
          }
          double hx = 0;
          for (int k = 0; k < N; ++k) hx += mdl.h(a, k) * xp[k];
          y(t, a) = z(t, a) - hx;
        }
      });
}

// x += K y and P -= K (H P), with K^T in b. One thread per track.
template <class Mdl>
void update(const Mdl& mdl, const Filter<Mdl>& flt) {
  constexpr int N = Mdl::N, M = Mdl::M;
  const auto x = flt.x;
  const auto p = flt.p;
  const auto b = flt.b;
  const auto y = flt.y;
  const auto info = flt.info;
  const auto failed = flt.failed;
  Kokkos::parallel_for(
      "update", Range(0, static_cast<int>(x.extent(0))), KOKKOS_LAMBDA(const int t) {
        if (info(t) != 0) {  // S not SPD: skip this measurement, remember it
          failed(t) = 1;
          return;
        }
        double hp[M][N], pn[N][N];
        for (int a = 0; a < M; ++a)
          for (int j = 0; j < N; ++j) {
            hp[a][j] = 0;
            for (int k = 0; k < N; ++k) hp[a][j] += mdl.h(a, k) * p(t, k, j);
          }
        for (int i = 0; i < N; ++i) {
          double dx = 0;
          for (int a = 0; a < M; ++a) dx += b(t, a, i) * y(t, a);
          x(t, i) += dx;
          for (int j = 0; j < N; ++j) {
            pn[i][j] = p(t, i, j);
            for (int a = 0; a < M; ++a) pn[i][j] -= b(t, a, i) * hp[a][j];
          }
        }
        // Keep P exactly symmetric, or rounding slowly makes it drift.
        for (int i = 0; i < N; ++i)
          for (int j = 0; j < N; ++j) p(t, i, j) = 0.5 * (pn[i][j] + pn[j][i]);
      });
}

template <class Mdl>
void filter_step(const Mdl& mdl, const Filter<Mdl>& flt) {
  const Exec exec;
  predict(mdl, flt);
  batchol::potrf(exec, flt.s, flt.info);  // S = L L^T
  batchol::potrs(exec, flt.s, flt.b);     // B = S^{-1} (H P) = K^T
  update(mdl, flt);
}

// ---------------------------------------------------------- host reference

// Inverts the m x m matrix a (row-major) in place by Gauss-Jordan elimination
// with partial pivoting. Returns false when it is singular.
bool invert(std::vector<double>& a, int m) {
  std::vector<double> inv(std::size_t(m) * m, 0.0);
  for (int i = 0; i < m; ++i) inv[i * m + i] = 1.0;
  for (int c = 0; c < m; ++c) {
    int piv = c;
    for (int r = c + 1; r < m; ++r)
      if (std::abs(a[r * m + c]) > std::abs(a[piv * m + c])) piv = r;
    if (a[piv * m + c] == 0.0) return false;
    for (int j = 0; j < m; ++j) {
      std::swap(a[c * m + j], a[piv * m + j]);
      std::swap(inv[c * m + j], inv[piv * m + j]);
    }
    const double d = a[c * m + c];
    for (int j = 0; j < m; ++j) a[c * m + j] /= d, inv[c * m + j] /= d;
    for (int r = 0; r < m; ++r) {
      if (r == c) continue;
      const double f = a[r * m + c];
      for (int j = 0; j < m; ++j)
        a[r * m + j] -= f * a[c * m + j], inv[r * m + j] -= f * inv[c * m + j];
    }
  }
  a = inv;
  return true;
}

// One textbook Kalman step for one track: x (N), P (N x N, row-major).
template <class Mdl>
void reference_step(const Mdl& mdl, double* x, double* p, const double* z) {
  constexpr int N = Mdl::N, M = Mdl::M;
  double xp[N], fp[N][N], pp[N][N], hp[M][N], k[N][M];
  for (int i = 0; i < N; ++i) {
    xp[i] = 0;
    for (int j = 0; j < N; ++j) xp[i] += mdl.f(i, j) * x[j];
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      fp[i][j] = 0;
      for (int l = 0; l < N; ++l) fp[i][j] += mdl.f(i, l) * p[l * N + j];
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      pp[i][j] = mdl.qm(i, j);
      for (int l = 0; l < N; ++l) pp[i][j] += fp[i][l] * mdl.f(j, l);
    }
  for (int a = 0; a < M; ++a)
    for (int j = 0; j < N; ++j) {
      hp[a][j] = 0;
      for (int l = 0; l < N; ++l) hp[a][j] += mdl.h(a, l) * pp[l][j];
    }
  std::vector<double> s(M * M);
  for (int a = 0; a < M; ++a)
    for (int c = 0; c < M; ++c) {
      s[a * M + c] = mdl.r(a, c);
      for (int l = 0; l < N; ++l) s[a * M + c] += hp[a][l] * mdl.h(c, l);
    }
  invert(s, M);
  for (int i = 0; i < N; ++i)  // K = P H^T S^{-1} = (H P)^T S^{-1}
    for (int a = 0; a < M; ++a) {
      k[i][a] = 0;
      for (int c = 0; c < M; ++c) k[i][a] += hp[c][i] * s[c * M + a];
    }
  double innovation[M];
  for (int a = 0; a < M; ++a) {
    innovation[a] = z[a];
    for (int l = 0; l < N; ++l) innovation[a] -= mdl.h(a, l) * xp[l];
  }
  for (int i = 0; i < N; ++i) {
    x[i] = xp[i];
    for (int a = 0; a < M; ++a) x[i] += k[i][a] * innovation[a];
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double v = pp[i][j];
      for (int a = 0; a < M; ++a) v -= k[i][a] * hp[a][j];
      fp[i][j] = v;
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) p[i * N + j] = 0.5 * (fp[i][j] + fp[j][i]);
}

// ------------------------------------------------------------------- driver

struct Outcome {
  double ms_per_step = 0;
  double max_dx = 0, max_dp = 0;  // largest deviation from the reference (relative)
  double rms_filter = 0;          // position error of the estimate, final step
  double nees = 0;                // mean e^T P^{-1} e over the tracks, final step
  int failed = 0;
};

template <class Mdl>
Outcome track(const Mdl& mdl, int tracks, int steps, example::Rng& rng) {
  constexpr int N = Mdl::N, M = Mdl::M, D = N / 2;
  Filter<Mdl> flt(tracks);
  std::vector<double> truth(std::size_t(tracks) * N), ref_x(truth.size()),
      ref_p(std::size_t(tracks) * N * N, 0.0);
  // Initial truth, and an initial estimate whose error matches its covariance.
  const double p0_pos = 50.0, p0_vel = 10.0;  // initial standard deviations
  auto hx = Kokkos::create_mirror_view(flt.x);
  auto hp = Kokkos::create_mirror_view(flt.p);
  Kokkos::deep_copy(hp, 0.0);
  for (int t = 0; t < tracks; ++t)
    for (int i = 0; i < N; ++i) {
      const double sd = i < D ? p0_pos : p0_vel;
      truth[t * N + i] = i < D ? 2000.0 * (rng.uniform() - 0.5) : 10.0 * rng.normal();
      hx(t, i) = ref_x[t * N + i] = truth[t * N + i] + sd * rng.normal();
      hp(t, i, i) = ref_p[(t * N + i) * N + i] = sd * sd;
    }
  Kokkos::deep_copy(flt.x, hx);
  Kokkos::deep_copy(flt.p, hp);

  // Process noise per axis: the 2 x 2 (position, velocity) block of Q is
  // q [dt^3/3 dt^2/2; dt^2/2 dt]; sample it through its Cholesky factor.
  const double l11 = std::sqrt(mdl.qm(0, 0)), l21 = mdl.qm(D, 0) / l11;
  const double l22 = std::sqrt(mdl.qm(D, D) - l21 * l21);
  auto hz = Kokkos::create_mirror_view(flt.z);
  double device_seconds = 0;
  for (int step = 0; step < steps; ++step) {
    for (int t = 0; t < tracks; ++t) {
      double* xt = &truth[t * N];
      double next[N];
      for (int i = 0; i < N; ++i) {
        next[i] = 0;
        for (int j = 0; j < N; ++j) next[i] += mdl.f(i, j) * xt[j];
      }
      for (int d = 0; d < D; ++d) {
        const double g1 = rng.normal(), g2 = rng.normal();
        xt[d] = next[d] + l11 * g1;
        xt[D + d] = next[D + d] + l21 * g1 + l22 * g2;
      }
      for (int a = 0; a < M; ++a) {
        double v = 0;
        for (int j = 0; j < N; ++j) v += mdl.h(a, j) * xt[j];
        hz(t, a) = v + std::sqrt(mdl.r(a, a)) * rng.normal();
      }
    }
    Kokkos::deep_copy(flt.z, hz);
    Kokkos::fence();
    Kokkos::Timer timer;
    filter_step(mdl, flt);
    Kokkos::fence();
    device_seconds += timer.seconds();
    for (int t = 0; t < tracks; ++t) {
      double z[M];  // (a row of hz is strided when the layout is LayoutLeft)
      for (int a = 0; a < M; ++a) z[a] = hz(t, a);
      reference_step(mdl, &ref_x[t * N], &ref_p[t * N * N], z);
    }
  }

  Outcome out;
  out.ms_per_step = 1e3 * device_seconds / steps;
  Kokkos::deep_copy(hx, flt.x);
  Kokkos::deep_copy(hp, flt.p);
  auto failed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flt.failed);
  double sq = 0, nees = 0;
  for (int t = 0; t < tracks; ++t) {
    out.failed += failed(t);
    double xscale = 0, pscale = 0;
    for (int i = 0; i < N; ++i) {
      xscale = std::max(xscale, std::abs(ref_x[t * N + i]));
      for (int j = 0; j < N; ++j) pscale = std::max(pscale, std::abs(ref_p[(t * N + i) * N + j]));
    }
    for (int i = 0; i < N; ++i) {
      out.max_dx = std::max(out.max_dx, std::abs(hx(t, i) - ref_x[t * N + i]) / xscale);
      for (int j = 0; j < N; ++j)
        out.max_dp =
            std::max(out.max_dp, std::abs(hp(t, i, j) - ref_p[(t * N + i) * N + j]) / pscale);
    }
    std::vector<double> e(N), pinv(std::size_t(N) * N);
    for (int i = 0; i < N; ++i) {
      e[i] = hx(t, i) - truth[t * N + i];
      if (i < D) sq += e[i] * e[i];
      for (int j = 0; j < N; ++j) pinv[i * N + j] = hp(t, i, j);
    }
    invert(pinv, N);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) nees += e[i] * pinv[i * N + j] * e[j];
  }
  out.rms_filter = std::sqrt(sq / (double(tracks) * D));
  out.nees = nees / tracks;
  return out;
}

int run(int argc, char** argv) {
  const int tracks = example::int_arg(argc, argv, 0, 20000);
  const int steps = example::int_arg(argc, argv, 1, 100);
  if (tracks < 1 || steps < 1) {
    std::fprintf(stderr, "usage: kalman_tracks [tracks] [time steps]\n");
    return 2;
  }
  std::printf("Batched Kalman filter: %d tracks, %d steps, constant-velocity model, Kokkos %s\n",
              tracks, steps, Exec::name());
  std::printf("  S = H P H^T + R factored by batchol::potrf, K^T = S^-1 (H P) by batchol::potrs\n");
  std::printf("  reference: the same filter on the host with S^-1 by Gauss-Jordan elimination\n\n");
  example::Rng rng(2016);
  struct Row {
    const char* name;
    int n, m;
    double sigma_pos;
    Outcome o;
  };
  const Model<2, false> m2p;
  const Model<2, true> m2v;
  const Model<3, false> m3p;
  const Model<3, true> m3v;
  const Row rows[] = {
      {"2D, position", m2p.N, m2p.M, m2p.sigma_pos, track(m2p, tracks, steps, rng)},
      {"2D, position+velocity", m2v.N, m2v.M, m2v.sigma_pos, track(m2v, tracks, steps, rng)},
      {"3D, position", m3p.N, m3p.M, m3p.sigma_pos, track(m3p, tracks, steps, rng)},
      {"3D, position+velocity", m3v.N, m3v.M, m3v.sigma_pos, track(m3v, tracks, steps, rng)},
  };
  std::printf("  %-22s %3s %5s %9s %10s %10s %9s %7s\n", "model, sensor", "n", "S", "ms/step",
              "max dx", "max dP", "pos rms", "NEES/n");
  for (const Row& r : rows)
    std::printf("  %-22s %3d %2dx%-2d %9.3f %10.2e %10.2e %9.3f %7.3f\n", r.name, r.n, r.m, r.m,
                r.o.ms_per_step, r.o.max_dx, r.o.max_dp, r.o.rms_filter, r.o.nees / r.n);
  std::printf(
      "\n  max dx, max dP: largest deviation from the reference, relative to the track's largest\n"
      "  entry; pos rms: position error after the last step (measurements: %.0f m rms)\n\n",
      m2p.sigma_pos);

  example::Checks checks;
  for (const Row& r : rows) {
    const std::string tag = std::string(r.name) + ": ";
    checks.require(r.o.failed == 0, tag + "every S is SPD");
    checks.require(r.o.max_dx < 1e-9 && r.o.max_dp < 1e-9, tag + "matches the reference");
    checks.require(r.o.rms_filter < r.sigma_pos, tag + "beats the raw measurements");
    checks.require(std::abs(r.o.nees / r.n - 1) < 0.25, tag + "consistent (NEES/n = 1 +- 0.25)");
  }
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
