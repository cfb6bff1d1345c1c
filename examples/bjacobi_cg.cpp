// Block-Jacobi preconditioned conjugate gradients for a high-order
// discontinuous Galerkin (DG) discretization of the Poisson problem
//
//   -Laplace(u) = f on the unit square, u = 0 on its boundary,
//   f = 2 pi^2 sin(pi x) sin(pi y), exact solution u = sin(pi x) sin(pi y).
//
// Discretization: a grid of n x n square cells. Each cell carries p x p nodal
// unknowns (Lagrange polynomials of degree p-1 through the Chebyshev-Lobatto
// points in each direction); cells are coupled to their four neighbours by the
// symmetric interior penalty (SIPG) face terms, and the boundary condition is
// imposed weakly the same way (Nitsche). The global matrix is symmetric positive
// definite and block-sparse: one dense p^2 x p^2 block on the diagonal per cell
// and four neighbour blocks. On a Cartesian grid with a tensor-product basis the
// SIPG form splits exactly into 1D pieces, A = A1 (x) M1 + M1 (x) A1 (A1: the 1D
// SIPG matrix, M1: the 1D mass matrix), which is how the blocks are built.
//
// Preconditioner: the diagonal blocks are factored once by the host-level
// batchol::potrf; every CG iteration applies their inverses inside the
// preconditioner kernel with the device-level API: batchol::serial::potrs (a
// thread per cell) for small blocks, batchol::team::potrs (a team per cell)
// for larger ones. A second block-Jacobi variant forms the explicit inverses
// once (batchol::potri) and applies them as matrix-vector products. Plain CG
// and point-Jacobi PCG solve the same system for comparison.
//
// Built with BATCHOL_EXAMPLE_MPI the grid is cut into strips of cell rows, one
// per MPI rank: a matrix-vector product first exchanges the boundary row of
// cells with each neighbouring strip, and dot products are summed with
// MPI_Allreduce. The block-Jacobi preconditioner needs no communication at all.
//
// Usage: bjacobi_cg [cells per side = 32] [nodes per direction p = 6, 2..8]
#include <Batchol.hpp>

#include "example_common.hpp"

#ifdef BATCHOL_EXAMPLE_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace {

constexpr double pi = 3.14159265358979323846;

using Exec = Kokkos::DefaultExecutionSpace;
using Range = Kokkos::RangePolicy<Exec>;
using Vec = Kokkos::View<double*>;       // unknown r of local cell c at c * nb + r
using Blocks = Kokkos::View<double***>;  // (cell, nb, nb)
using Bsr = Kokkos::View<double****>;    // (owned cell, neighbour slot, nb, nb)
using HostVec = Kokkos::View<double*, Kokkos::HostSpace>;

// Neighbour slots of a cell's block row.
enum Slot { Self = 0, West, East, South, North, NumSlots };

// ------------------------------------------------------------- communication

// What the solver needs from MPI; without MPI there is a single rank.
struct Comm {
  int rank = 0;
  int size = 1;

  Comm() {
#ifdef BATCHOL_EXAMPLE_MPI
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
  }
  double sum(double local) const {
    return reduce(local, 0);
  }
  double max(double local) const {
    return reduce(local, 1);
  }

  // Ranks own strips in order, rank 0 at the bottom (south). Sends `to_south`
  // to rank - 1 and `to_north` to rank + 1, receiving what they send back.
  void exchange(const HostVec& to_south, const HostVec& to_north, const HostVec& from_south,
                const HostVec& from_north) const {
#ifdef BATCHOL_EXAMPLE_MPI
    const int count = static_cast<int>(to_south.extent(0));
    const int south = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int north = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    MPI_Sendrecv(to_south.data(), count, MPI_DOUBLE, south, 0, from_north.data(), count, MPI_DOUBLE,
                 north, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(to_north.data(), count, MPI_DOUBLE, north, 1, from_south.data(), count, MPI_DOUBLE,
                 south, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
    (void)to_south, (void)to_north, (void)from_south, (void)from_north;
#endif
  }

 private:
  double reduce(double local, int is_max) const {
#ifdef BATCHOL_EXAMPLE_MPI
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, is_max ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    return global;
#else
    (void)is_max;
    return local;
#endif
  }
};

// -------------------------------------------------- the 1D SIPG discretization

// A small dense row-major matrix for the host-side assembly.
struct Small {
  int p = 0;
  std::vector<double> v;
  explicit Small(int size = 0) : p(size), v(std::size_t(size) * size, 0.0) {}
  double& operator()(int i, int j) { return v[std::size_t(i) * p + j]; }
  double operator()(int i, int j) const { return v[std::size_t(i) * p + j]; }
  Small transposed() const {
    Small t(p);
    for (int i = 0; i < p; ++i)
      for (int j = 0; j < p; ++j) t(j, i) = (*this)(i, j);
    return t;
  }
};

// Gauss-Legendre points and weights on [-1, 1] (Newton on the Legendre
// polynomial); q points integrate polynomials of degree 2q - 1 exactly.
void gauss_legendre(int q, std::vector<double>& x, std::vector<double>& w) {
  x.assign(q, 0.0);
  w.assign(q, 0.0);
  for (int i = 0; i < q; ++i) {
    double z = std::cos(pi * (i + 0.75) / (q + 0.5));
    double dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;  // P_{k-1}(z), P_k(z) by the three-term recurrence
      for (int k = 2; k <= q; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = q * (z * p1 - p0) / (z * z - 1.0);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-15) break;
    }
    x[i] = z;
    w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

// Values and derivatives at x of the Lagrange polynomials through `nodes`.
void lagrange(const std::vector<double>& nodes, double x, std::vector<double>& val,
              std::vector<double>& der) {
  const int p = static_cast<int>(nodes.size());
  val.assign(p, 1.0);
  der.assign(p, 0.0);
  for (int a = 0; a < p; ++a) {
    for (int b = 0; b < p; ++b)
      if (b != a) val[a] *= (x - nodes[b]) / (nodes[a] - nodes[b]);
    for (int c = 0; c < p; ++c) {  // product rule: drop one factor at a time
      if (c == a) continue;
      double t = 1.0 / (nodes[a] - nodes[c]);
      for (int b = 0; b < p; ++b)
        if (b != a && b != c) t *= (x - nodes[b]) / (nodes[a] - nodes[b]);
      der[a] += t;
    }
  }
}

// SIPG for -u'' on [0, 1] with n cells of p nodes: a block-tridiagonal matrix.
struct Dg1d {
  int n = 0, p = 0;
  double h = 0;
  std::vector<double> nodes;  // reference nodes in [-1, 1]
  Small mass;                 // the same in every cell
  std::vector<Small> diag;    // diag[c]: block (c, c)
  std::vector<Small>
      west;  // west[c]: block (c, c - 1) for c >= 1; block (c - 1, c) is its transpose
  std::vector<double>
      load;  // load[c * p + a]: integral of sin(pi x) against basis function a of cell c
};

// The p >= 2 Chebyshev-Lobatto points of [-1, 1], ascending. They include both
// ends (so face traces are single nodal values) and interpolate stably.
std::vector<double> reference_nodes(int p) {
  std::vector<double> nodes;
  for (int a = 0; a < p; ++a) nodes.push_back(-std::cos(pi * a / (p - 1)));
  return nodes;
}

Dg1d make_dg1d(int n, int p) {
  Dg1d d;
  d.n = n;
  d.p = p;
  d.h = 1.0 / n;
  d.nodes = reference_nodes(p);

  // Cell matrices, by quadrature exact for them (and very accurate for the load).
  std::vector<double> qx, qw, val, der;
  gauss_legendre(p + 4, qx, qw);
  Small stiffness(p);
  d.mass = Small(p);
  for (std::size_t q = 0; q < qx.size(); ++q) {
    lagrange(d.nodes, qx[q], val, der);
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b) {
        stiffness(a, b) += qw[q] * der[a] * der[b] * (2.0 / d.h);  // d/dx = (2/h) d/dxi
        d.mass(a, b) += qw[q] * val[a] * val[b] * (d.h / 2.0);
      }
  }
  d.diag.assign(n, stiffness);
  d.west.assign(n, Small(p));
  d.load.assign(std::size_t(n) * p, 0.0);
  for (int c = 0; c < n; ++c)
    for (std::size_t q = 0; q < qx.size(); ++q) {
      lagrange(d.nodes, qx[q], val, der);
      const double x = (c + 0.5 * (qx[q] + 1.0)) * d.h;
      for (int a = 0; a < p; ++a) d.load[c * p + a] += qw[q] * std::sin(pi * x) * val[a] * d.h / 2;
    }

  // Face terms: a_F(u, v) = -{u'}[v] - {v'}[u] + (sigma / h) [u][v], with the
  // jump [v] = v(left cell) - v(right cell) and the average {v'} (one-sided
  // on the boundary, where the missing side counts as zero). sigma = p^2 makes
  // the form coercive for these degrees (the classic (k + 1)^2 choice).
  std::vector<double> jump_l, avg_l, jump_r, avg_r;  // traces at the right / left end of a cell
  lagrange(d.nodes, 1.0, jump_l, avg_l);
  lagrange(d.nodes, -1.0, jump_r, avg_r);
  for (int a = 0; a < p; ++a) {
    jump_r[a] = -jump_r[a];  // the right cell enters the jump with a minus sign
    avg_l[a] *= 2.0 / d.h;
    avg_r[a] *= 2.0 / d.h;
  }
  const double penalty = double(p) * p / d.h;
  // block(X, Y) += -jump_X avg_Y^T - avg_X jump_Y^T + penalty jump_X jump_Y^T
  auto add = [&](Small& block, double wx, const std::vector<double>& jx,
                 const std::vector<double>& gx, double wy, const std::vector<double>& jy,
                 const std::vector<double>& gy) {
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b)
        block(a, b) += -jx[a] * wy * gy[b] - wx * gx[a] * jy[b] + penalty * jx[a] * jy[b];
  };
  for (int f = 0; f <= n; ++f) {  // face f lies between cells f - 1 and f
    const bool left = f > 0, right = f < n;
    const double w = (left && right) ? 0.5 : 1.0;  // weight of each side in the average
    if (left) add(d.diag[f - 1], w, jump_l, avg_l, w, jump_l, avg_l);
    if (right) add(d.diag[f], w, jump_r, avg_r, w, jump_r, avg_r);
    if (left && right) add(d.west[f], w, jump_r, avg_r, w, jump_l, avg_l);
  }
  return d;
}

// ------------------------------------------------------- the distributed system

// This rank's strip: cell rows j0 .. j0 + rows - 1 of the n x n grid. Local
// cell k = (j - j0) * n + i for the owned cells, then one ghost row of cells
// from the strip below (south) and one from the strip above (north).
struct System {
  Comm comm;
  int n = 0, p = 0, nb = 0;
  int j0 = 0, rows = 0, owned = 0;
  Bsr a;                    // block rows of the owned cells
  Kokkos::View<int**> nbr;  // (owned cell, slot): local cell index, or -1 outside the domain
  Blocks diag;              // copy of the diagonal blocks (the preconditioner factors it)
  Vec b;                    // right-hand side
  HostVec to_south, to_north, from_south, from_north;  // halo staging on the host

  int length() const { return (owned + 2 * n) * nb; }  // owned cells + two ghost rows
  int owned_length() const { return owned * nb; }
};

System build_system(const Comm& comm, int n, int p) {
  System s;
  s.comm = comm;
  s.n = n;
  s.p = p;
  s.nb = p * p;
  const int base = n / comm.size, extra = n % comm.size;
  s.rows = base + (comm.rank < extra ? 1 : 0);
  s.j0 = comm.rank * base + std::min(comm.rank, extra);
  s.owned = s.rows * n;
  const int nb = s.nb;

  s.a = Bsr("A", s.owned, int(NumSlots), nb, nb);
  s.nbr = Kokkos::View<int**>("neighbours", s.owned, int(NumSlots));
  s.diag = Blocks("diagonal blocks", s.owned, nb, nb);
  s.b = Vec("b", s.length());
  const int halo = n * nb;
  s.to_south = HostVec("to_south", halo);
  s.to_north = HostVec("to_north", halo);
  s.from_south = HostVec("from_south", halo);
  s.from_north = HostVec("from_north", halo);

  const Dg1d d = make_dg1d(n, p);
  auto ha = Kokkos::create_mirror_view(s.a);
  auto hn = Kokkos::create_mirror_view(s.nbr);
  auto hd = Kokkos::create_mirror_view(s.diag);
  auto hb = Kokkos::create_mirror_view(s.b);
  Kokkos::deep_copy(ha, 0.0);
  Kokkos::deep_copy(hb, 0.0);

  // Local index of grid cell (i, j); j may be one row outside the strip.
  auto local = [&](int i, int j) {
    if (j < s.j0) return s.owned + i;
    if (j >= s.j0 + s.rows) return s.owned + n + i;
    return (j - s.j0) * n + i;
  };
  // Block (a * p + b, a2 * p + b2) of X (x) Y is X(a, a2) Y(b, b2): the first
  // factor acts along x, the second along y.
  auto add_kron = [&](int k, int slot, const Small& X, const Small& Y) {
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b)
        for (int a2 = 0; a2 < p; ++a2)
          for (int b2 = 0; b2 < p; ++b2) ha(k, slot, a * p + b, a2 * p + b2) += X(a, a2) * Y(b, b2);
  };
  for (int j = s.j0; j < s.j0 + s.rows; ++j)
    for (int i = 0; i < n; ++i) {
      const int k = local(i, j);
      hn(k, Self) = k;
      hn(k, West) = i > 0 ? local(i - 1, j) : -1;
      hn(k, East) = i + 1 < n ? local(i + 1, j) : -1;
      hn(k, South) = j > 0 ? local(i, j - 1) : -1;
      hn(k, North) = j + 1 < n ? local(i, j + 1) : -1;
      add_kron(k, Self, d.diag[i], d.mass);
      add_kron(k, Self, d.mass, d.diag[j]);
      if (i > 0) add_kron(k, West, d.west[i], d.mass);
      if (i + 1 < n) add_kron(k, East, d.west[i + 1].transposed(), d.mass);
      if (j > 0) add_kron(k, South, d.mass, d.west[j]);
      if (j + 1 < n) add_kron(k, North, d.mass, d.west[j + 1].transposed());
      for (int r = 0; r < nb; ++r)
        for (int c = 0; c < nb; ++c) hd(k, r, c) = ha(k, Self, r, c);
      for (int a = 0; a < p; ++a)
        for (int b = 0; b < p; ++b)
          hb(k * nb + a * p + b) = 2 * pi * pi * d.load[i * p + a] * d.load[j * p + b];
    }
  Kokkos::deep_copy(s.a, ha);
  Kokkos::deep_copy(s.nbr, hn);
  Kokkos::deep_copy(s.diag, hd);
  Kokkos::deep_copy(s.b, hb);
  return s;
}

// ------------------------------------------------------------- vector kernels

// Fills x's ghost rows with the neighbouring strips' boundary rows. Staged
// through the host so that any MPI works; a CUDA-aware MPI could skip that.
void exchange_halo(const System& s, const Vec& x) {
  if (s.comm.size == 1) return;
  const int row = s.n * s.nb, end = s.owned_length();
  Kokkos::deep_copy(s.to_south, Kokkos::subview(x, Kokkos::make_pair(0, row)));
  Kokkos::deep_copy(s.to_north, Kokkos::subview(x, Kokkos::make_pair(end - row, end)));
  s.comm.exchange(s.to_south, s.to_north, s.from_south, s.from_north);
  Kokkos::deep_copy(Kokkos::subview(x, Kokkos::make_pair(end, end + row)), s.from_south);
  Kokkos::deep_copy(Kokkos::subview(x, Kokkos::make_pair(end + row, end + 2 * row)), s.from_north);
}

// y = A x on the owned cells (x's ghost rows are refreshed first).
void apply(const System& s, const Vec& x, const Vec& y) {
  exchange_halo(s, x);
  const auto a = s.a;
  const auto nbr = s.nbr;
  const int nb = s.nb, owned = s.owned;
  constexpr bool cell_fastest = std::is_same_v<Bsr::array_layout, Kokkos::LayoutLeft>;
  Kokkos::parallel_for(
      "spmv", Range(0, s.owned_length()), KOKKOS_LAMBDA(const int t) {
        // Neighbouring threads take neighbouring cells when the cell index is
        // the fastest one in memory (LayoutLeft, a GPU's default), else
        // neighbouring rows of one block (LayoutRight, the host's default).
        const int k = cell_fastest ? t % owned : t / nb;
        const int r = cell_fastest ? t / owned : t % nb;
        double sum = 0;
        for (int slot = 0; slot < NumSlots; ++slot) {
          const int c = nbr(k, slot);
          if (c < 0) continue;
          for (int col = 0; col < nb; ++col) sum += a(k, slot, r, col) * x(c * nb + col);
        }
        y(k * nb + r) = sum;
      });
}

double dot(const System& s, const Vec& x, const Vec& y) {
  double local = 0;
  Kokkos::parallel_reduce(
      "dot", Range(0, s.owned_length()),
      KOKKOS_LAMBDA(const int t, double& acc) { acc += x(t) * y(t); }, local);
  return s.comm.sum(local);
}

// y = alpha x + beta y on the owned cells.
void axpby(const System& s, double alpha, const Vec& x, double beta, const Vec& y) {
  Kokkos::parallel_for(
      "axpby", Range(0, s.owned_length()),
      KOKKOS_LAMBDA(const int t) { y(t) = alpha * x(t) + beta * y(t); });
}

// ----------------------------------------------------------- preconditioners

struct Identity {
  const char* name = "CG (no preconditioner)";
  void apply(const System&, const Vec& r, const Vec& z) const { Kokkos::deep_copy(z, r); }
};

struct PointJacobi {
  const char* name = "point-Jacobi PCG";
  Vec inv_diag;
  void apply(const System& s, const Vec& r, const Vec& z) const {
    const auto inv = inv_diag;
    Kokkos::parallel_for(
        "point_jacobi", Range(0, s.owned_length()),
        KOKKOS_LAMBDA(const int t) { z(t) = inv(t) * r(t); });
  }
};

// (A free function, not a constructor: CUDA forbids device lambdas in constructors.)
PointJacobi make_point_jacobi(const System& s) {
  PointJacobi m;
  m.inv_diag = Vec("inv_diag", s.owned_length());
  const auto a = s.a;
  const auto inv = m.inv_diag;
  const int nb = s.nb;
  Kokkos::parallel_for(
      "point_jacobi_setup", Range(0, s.owned_length()),
      KOKKOS_LAMBDA(const int t) { inv(t) = 1.0 / a(t / nb, Self, t % nb, t % nb); });
  return m;
}

// z = D^{-1} r with D the block diagonal, factored once by batchol::potrf.
struct BlockJacobi {
  const char* name = "block-Jacobi PCG (batchol)";
  Blocks factors;
  int failures = 0;  // blocks that are not SPD, over all ranks
  double factor_seconds = 0;

  void apply(const System& s, const Vec& r, const Vec& z) const {
    const auto l = factors;
    const int nb = s.nb;
    // Small blocks: one thread per cell with batchol::serial::potrs. On a GPU
    // the default layout of `factors` is LayoutLeft (cell index fastest), so
    // neighbouring threads read neighbouring memory.
    if (nb <= 16) {
      Kokkos::parallel_for(
          "block_jacobi_serial", Range(0, s.owned), KOKKOS_LAMBDA(const int k) {
            const auto zk = Kokkos::subview(z, Kokkos::make_pair(k * nb, (k + 1) * nb));
            for (int i = 0; i < nb; ++i) zk(i) = r(k * nb + i);
            batchol::serial::potrs(Kokkos::subview(l, k, Kokkos::ALL, Kokkos::ALL), zk);
          });
      return;
    }
    // Larger blocks: one team per cell with batchol::team::potrs, which
    // spreads the rows of each solve over the team. A warp on a GPU (measured
    // on an H200: 2-3x faster than a thread per cell at 36 x 36 and 64 x 64,
    // slower at 16 x 16); on a CPU a team is one thread anyway.
    using Team = Kokkos::TeamPolicy<Exec>;
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    Kokkos::parallel_for(
        "block_jacobi_team", Team(s.owned, host ? 1 : 32),
        KOKKOS_LAMBDA(const Team::member_type& team) {
          const int k = team.league_rank();
          const auto zk = Kokkos::subview(z, Kokkos::make_pair(k * nb, (k + 1) * nb));
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nb),
                               [&](const int i) { zk(i) = r(k * nb + i); });
          team.team_barrier();
          batchol::team::potrs(team, Kokkos::subview(l, k, Kokkos::ALL, Kokkos::ALL), zk);
        });
  }
};

// Factors every diagonal block once, in place in s.diag (no longer needed
// as such: the matrix-vector product reads the blocks from s.a).
BlockJacobi make_block_jacobi(const System& s) {
  BlockJacobi m;
  m.factors = s.diag;
  Kokkos::View<int*> info("info", s.owned);
  Kokkos::fence();
  Kokkos::Timer timer;
  batchol::potrf(Exec(), m.factors, info);
  Kokkos::fence();
  m.factor_seconds = timer.seconds();
  int bad = 0;
  Kokkos::parallel_reduce(
      "count_failures", Range(0, s.owned),
      KOKKOS_LAMBDA(const int k, int& count) { count += info(k) != 0 ? 1 : 0; }, bad);
  m.failures = static_cast<int>(s.comm.sum(bad));
  return m;
}

// z = D^{-1} r with every inverse D_k^{-1} formed once (batchol::potrf, then
// batchol::potri with both triangles written): one matrix-vector product per
// block, twice the flops of potrs's two triangular solves but without their
// chain of dependent steps, which pays when the preconditioner is applied
// many times.
struct BlockJacobiInverse {
  const char* name = "block-Jacobi PCG (potri)";
  Blocks inverses;
  int failures = 0;
  double setup_seconds = 0;

  void apply(const System& s, const Vec& r, const Vec& z) const {
    const auto w = inverses;
    const int nb = s.nb;
    if (nb <= 16) {
      Kokkos::parallel_for(
          "block_jacobi_inverse_serial", Range(0, s.owned), KOKKOS_LAMBDA(const int k) {
            for (int i = 0; i < nb; ++i) {
              double v = 0;
              for (int j = 0; j < nb; ++j) v += w(k, i, j) * r(k * nb + j);
              z(k * nb + i) = v;
            }
          });
      return;
    }
    using Team = Kokkos::TeamPolicy<Exec>;
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    Kokkos::parallel_for(
        "block_jacobi_inverse_team", Team(s.owned, host ? 1 : 32),
        KOKKOS_LAMBDA(const Team::member_type& team) {
          const int k = team.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nb), [&](const int i) {
            double v = 0;
            for (int j = 0; j < nb; ++j) v += w(k, i, j) * r(k * nb + j);
            z(k * nb + i) = v;
          });
        });
  }
};

// Inverts a copy of every diagonal block (call it before make_block_jacobi,
// which factors s.diag in place).
BlockJacobiInverse make_block_jacobi_inverse(const System& s) {
  BlockJacobiInverse m;
  m.inverses = Blocks("inverses", s.owned, s.nb, s.nb);
  Kokkos::deep_copy(m.inverses, s.diag);
  Kokkos::View<int*> info_potrf("info_potrf", s.owned), info_potri("info_potri", s.owned);
  batchol::Options both;
  both.write_transposed = true;  // the whole symmetric inverse, for a plain product
  Kokkos::fence();
  Kokkos::Timer timer;
  batchol::potrf(Exec(), m.inverses, info_potrf);
  batchol::potri(Exec(), m.inverses, info_potri, both);
  Kokkos::fence();
  m.setup_seconds = timer.seconds();
  int bad = 0;
  Kokkos::parallel_reduce(
      "count_failures", Range(0, s.owned),
      KOKKOS_LAMBDA(const int k, int& count) {
        count += info_potrf(k) != 0 || info_potri(k) != 0 ? 1 : 0;
      },
      bad);
  m.failures = static_cast<int>(s.comm.sum(bad));
  return m;
}

// ------------------------------------------------------------------------- CG

struct Result {
  int iterations = 0;
  double seconds = 0;
  double relres = 0;  // true relative residual |b - A x| / |b| at the end
  bool converged = false;
};

template <class Precond>
Result pcg(const System& s, const Precond& m, const Vec& x, double tol, int max_iterations) {
  Vec r("r", s.length()), z("z", s.length()), p("p", s.length()), q("q", s.length());
  Result res;
  Kokkos::fence();
  Kokkos::Timer timer;
  Kokkos::deep_copy(x, 0.0);
  Kokkos::deep_copy(r, s.b);
  m.apply(s, r, z);
  Kokkos::deep_copy(p, z);
  double rz = dot(s, r, z);
  const double bnorm = std::sqrt(dot(s, s.b, s.b));
  while (res.iterations < max_iterations) {
    ++res.iterations;
    apply(s, p, q);
    const double alpha = rz / dot(s, p, q);
    axpby(s, alpha, p, 1.0, x);
    axpby(s, -alpha, q, 1.0, r);
    if (std::sqrt(dot(s, r, r)) <= tol * bnorm) {
      res.converged = true;
      break;
    }
    m.apply(s, r, z);
    const double rz_next = dot(s, r, z);
    axpby(s, 1.0, z, rz_next / rz, p);  // p = z + beta p
    rz = rz_next;
  }
  Kokkos::fence();
  res.seconds = timer.seconds();
  // The recursively updated residual can drift from the true one: recompute.
  apply(s, x, q);
  axpby(s, 1.0, s.b, -1.0, q);
  res.relres = std::sqrt(dot(s, q, q)) / bnorm;
  return res;
}

// Largest nodal error against the exact solution, and |x|, over all ranks.
void measure(const System& s, const Vec& x, double& max_error, double& norm) {
  const std::vector<double> nodes = reference_nodes(s.p);
  auto hx = Kokkos::create_mirror_view(x);
  Kokkos::deep_copy(hx, x);
  const double h = 1.0 / s.n;
  double err = 0, sq = 0;
  for (int j = s.j0; j < s.j0 + s.rows; ++j)
    for (int i = 0; i < s.n; ++i)
      for (int a = 0; a < s.p; ++a)
        for (int b = 0; b < s.p; ++b) {
          const double xa = (i + 0.5 * (nodes[a] + 1)) * h;
          const double yb = (j + 0.5 * (nodes[b] + 1)) * h;
          const double v = hx(((j - s.j0) * s.n + i) * s.nb + a * s.p + b);
          err = std::max(err, std::abs(v - std::sin(pi * xa) * std::sin(pi * yb)));
          sq += v * v;
        }
  max_error = s.comm.max(err);
  norm = std::sqrt(s.comm.sum(sq));
}

int run(int argc, char** argv) {
  const Comm comm;
  const int n = example::int_arg(argc, argv, 0, 32);
  const int p = example::int_arg(argc, argv, 1, 6);
  const bool root = comm.rank == 0;
  if (n < comm.size || p < 2 || p > 8) {
    if (root)
      std::fprintf(stderr,
                   "usage: bjacobi_cg [cells per side >= ranks] [nodes per direction 2..8]\n");
    return 2;
  }
  example::Checks checks;
  checks.set_print(root);

  const System s = build_system(comm, n, p);
  const long long unknowns = (long long)n * n * s.nb;
  if (root) {
    std::printf(
        "Block-Jacobi PCG: -Laplace(u) = f on the unit square, SIPG discontinuous Galerkin\n");
    std::printf("  %d x %d cells, %d x %d nodes per cell (degree %d): %lld unknowns\n", n, n, p, p,
                p - 1, unknowns);
    std::printf("  %d diagonal blocks of %d x %d, %d MPI rank(s), Kokkos %s\n", n * n, s.nb, s.nb,
                comm.size, Exec::name());
  }

  // Invert a copy of every diagonal block, then factor them in place; each
  // preconditioner reuses its own result every iteration.
  const BlockJacobiInverse bji = make_block_jacobi_inverse(s);
  const BlockJacobi bj = make_block_jacobi(s);
  if (root) {
    std::printf("  batchol::potrf of the diagonal blocks: %.3f ms\n", bj.factor_seconds * 1e3);
    std::printf("  batchol::potrf + batchol::potri (inverses): %.3f ms\n", bji.setup_seconds * 1e3);
  }
  checks.require(bj.failures == 0, "every diagonal block is SPD (potrf info == 0)");
  checks.require(bji.failures == 0, "every diagonal block is inverted (potrf and potri info == 0)");
  if (bj.failures != 0 || bji.failures != 0) return checks.exit_code();
  if (root) std::printf("\n");

  const double tol = 1e-10;
  const int max_iterations = 20000;
  Vec x("x", s.length());
  if (root)
    std::printf("  %-28s %10s %10s %10s %14s\n", "solver", "iterations", "time [s]", "ms/iter",
                "|b-Ax|/|b|");
  auto report = [&](const char* name, const Result& r) {
    if (root)
      std::printf("  %-28s %10d %10.3f %10.3f %14.2e\n", name, r.iterations, r.seconds,
                  1e3 * r.seconds / r.iterations, r.relres);
  };
  const Identity none;
  const Result plain = pcg(s, none, x, tol, max_iterations);
  report(none.name, plain);
  const PointJacobi jacobi = make_point_jacobi(s);
  const Result point = pcg(s, jacobi, x, tol, max_iterations);
  report(jacobi.name, point);
  const Result block = pcg(s, bj, x, tol, max_iterations);  // x keeps this solution
  report(bj.name, block);
  Vec xi("x_inverse", s.length());
  const Result inverse = pcg(s, bji, xi, tol, max_iterations);
  report(bji.name, inverse);

  double max_error = 0, norm = 0;
  measure(s, x, max_error, norm);
  if (root) {
    std::printf("\n  max nodal error of the solution vs sin(pi x) sin(pi y): %.3e\n", max_error);
    // One line that the 1-rank and 2-rank runs must reproduce (see compare_ranks.cmake).
    std::printf("checksum: iterations %d %d %d solution_norm %.12e\n", plain.iterations,
                point.iterations, block.iterations, norm);
  }
  auto converged = [&](const Result& r) { return r.converged && r.relres < 100 * tol; };
  checks.require(converged(plain), "CG converges to |b-Ax|/|b| < 1e-8");
  checks.require(converged(point), "point-Jacobi PCG converges to |b-Ax|/|b| < 1e-8");
  checks.require(converged(block), "block-Jacobi PCG converges to |b-Ax|/|b| < 1e-8");
  checks.require(converged(inverse),
                 "block-Jacobi PCG with inverses converges to |b-Ax|/|b| < 1e-8");
  // The same preconditioner up to rounding: the same iteration count, give or take one.
  checks.require(std::abs(inverse.iterations - block.iterations) <= 1,
                 "inverses and factors need the same number of iterations (within one)");
  checks.require(block.iterations < point.iterations && block.iterations < plain.iterations,
                 "block-Jacobi needs fewer iterations than CG and point-Jacobi");
  // The discretization error of a smooth solution: ~1e-3 at the coarsest
  // setting used in the tests, orders smaller above; an assembly bug gives O(1).
  checks.require(max_error < 1e-2, "solution matches the exact one (max nodal error < 1e-2)");
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
#ifdef BATCHOL_EXAMPLE_MPI
  MPI_Init(&argc, &argv);
#endif
  Kokkos::initialize(argc, argv);
  int code = 0;
  { code = run(argc, argv); }  // every View is gone before finalize
  Kokkos::finalize();
#ifdef BATCHOL_EXAMPLE_MPI
  MPI_Finalize();
#endif
  return code;
}
