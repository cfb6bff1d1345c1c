// A block-Jacobi preconditioner whose blocks have different orders, with
// Batchol's variable-size batches in packed storage.
//
// A discontinuous Galerkin discretization with p-adaptivity on tetrahedra
// has one dense block per element, of order (p+1)(p+2)(p+3)/6: 4, 10, 20 or
// 35 for p = 1..4. The global SPD matrix here is those blocks (each element
// with its own scale, 1 to 10^4, which plain CG suffers from) plus a weak
// coupling between neighbouring elements of a ring. Its diagonal blocks are
// the preconditioner M. The call sequence, all on the device, with no copies:
//   1. the orders n(e), and the offsets of each block in one array (a scan
//      of n(e)^2) and of each element's unknowns (a scan of n(e));
//   2. the blocks assembled straight into the packed array, by columns;
//   3. batchol::potrf on batchol::packed(values, offsets, n, 35): once;
//   4. each CG step applies M^-1 in place on the residual: the global vector
//      is already a packed right-hand side (element e's unknowns at the
//      scan of n(e)), so batchol::potrs on batchol::packed_rhs(z, dofs).
// It checks every info, that one application of M^-1 solves each block, and
// that preconditioned CG converges to the known solution in fewer iterations
// than plain CG.
//
// Usage: vbatch_block_jacobi [elements = 4000]
#include <Batchol.hpp>

#include "example_common.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Vec = Kokkos::View<double*>;
using Offsets = Kokkos::View<std::int64_t*>;
using Orders = Kokkos::View<int*>;

constexpr int kMaxOrder = 35;  // p = 4

// The order of element e's block: p from a hash of e.
KOKKOS_INLINE_FUNCTION int order_of(int e) {
  const unsigned h = (unsigned(e) * 2654435761u) >> 16;
  const int p = 1 + int(h % 4);
  return (p + 1) * (p + 2) * (p + 3) / 6;
}

// Element e's scale: 1, 10, ..., 10^4.
KOKKOS_INLINE_FUNCTION double scale_of(int e) {
  double s = 1;
  for (int k = 0; k < e % 5; ++k) s *= 10;
  return s;
}

// Entry (i, j) of element e's block of order n: strictly diagonally dominant
// by at least 3 times its scale (the off-diagonal row sums stay below
// 2 ln(n) + 1 < n - 2 for n = 10, 20, 35, and below 1.1 for n = 4).
KOKKOS_INLINE_FUNCTION double block_entry(int e, int n, int i, int j) {
  const int d = i > j ? i - j : j - i;
  return scale_of(e) * (1.0 / (1.0 + d) + (i == j ? n : 0));
}

// The coupling of unknown i of two neighbouring elements: at most half the
// smaller scale, so that the two couplings of a row leave it dominant.
KOKKOS_INLINE_FUNCTION double coupling(int e, int f) {
  const double a = scale_of(e), b = scale_of(f);
  return -0.5 * (a < b ? a : b);
}

struct Mesh {
  int elements = 0;
  Orders n;
  Offsets block_at;  // where element e's block starts in the packed values
  Offsets dof_at;    // where element e's unknowns start in a global vector
  std::int64_t values = 0, dofs = 0;
};

Mesh make_mesh(int elements) {
  Mesh m;
  m.elements = elements;
  m.n = Orders("n", elements);
  m.block_at = Offsets("block_at", elements);
  m.dof_at = Offsets("dof_at", elements);
  const Orders n = m.n;
  const Offsets block_at = m.block_at, dof_at = m.dof_at;
  Kokkos::parallel_for(
      "orders", elements, KOKKOS_LAMBDA(const int e) { n(e) = order_of(e); });
  Kokkos::parallel_scan(
      "block_offsets", elements,
      KOKKOS_LAMBDA(const int e, std::int64_t& at, const bool last) {
        if (last) block_at(e) = at;
        at += std::int64_t(n(e)) * n(e);
      },
      m.values);
  Kokkos::parallel_scan(
      "dof_offsets", elements,
      KOKKOS_LAMBDA(const int e, std::int64_t& at, const bool last) {
        if (last) dof_at(e) = at;
        at += n(e);
      },
      m.dofs);
  return m;
}

// y = A x, one element's rows per work item: its block, then the couplings
// with the previous and next element of the ring.
void apply_a(const Mesh& m, const Vec& x, const Vec& y) {
  const Orders n = m.n;
  const Offsets dof_at = m.dof_at;
  const int elements = m.elements;
  Kokkos::parallel_for(
      "apply_a", elements, KOKKOS_LAMBDA(const int e) {
        const int ne = n(e);
        const int prev = (e + elements - 1) % elements, next = (e + 1) % elements;
        const std::int64_t at = dof_at(e);
        for (int i = 0; i < ne; ++i) {
          double v = 0;
          for (int j = 0; j < ne; ++j) v += block_entry(e, ne, i, j) * x(at + j);
          if (i < n(prev)) v += coupling(e, prev) * x(dof_at(prev) + i);
          if (i < n(next)) v += coupling(e, next) * x(dof_at(next) + i);
          y(at + i) = v;
        }
      });
}

double dot(const Vec& a, const Vec& b) {
  double s = 0;
  Kokkos::parallel_reduce(
      "dot", a.extent(0), KOKKOS_LAMBDA(const std::int64_t k, double& acc) { acc += a(k) * b(k); },
      s);
  return s;
}

// y += alpha x
void axpy(double alpha, const Vec& x, const Vec& y) {
  Kokkos::parallel_for(
      "axpy", x.extent(0), KOKKOS_LAMBDA(const std::int64_t k) { y(k) += alpha * x(k); });
}

// p = z + beta p
void xpby(const Vec& z, double beta, const Vec& p) {
  Kokkos::parallel_for(
      "update_p", z.extent(0), KOKKOS_LAMBDA(const std::int64_t k) { p(k) = z(k) + beta * p(k); });
}

// (Preconditioned) CG from x = 0; precondition(r, z) sets z = M^-1 r.
// Returns the iterations taken to reach |r| <= tol |b|, or -1.
template <class Precondition>
int cg(const Mesh& m, const Vec& b, const Vec& x, double tol, int max_iter,
       const Precondition& precondition) {
  const std::int64_t N = m.dofs;
  Vec r("r", N), z("z", N), p("p", N), q("q", N);
  Kokkos::deep_copy(x, 0.0);
  Kokkos::deep_copy(r, b);
  precondition(r, z);
  Kokkos::deep_copy(p, z);
  double rz = dot(r, z);
  const double stop = tol * std::sqrt(dot(b, b));
  for (int it = 1; it <= max_iter; ++it) {
    apply_a(m, p, q);
    const double alpha = rz / dot(p, q);
    axpy(alpha, p, x);
    axpy(-alpha, q, r);
    if (std::sqrt(dot(r, r)) <= stop) return it;
    precondition(r, z);
    const double rz_next = dot(r, z);
    const double beta = rz_next / rz;
    rz = rz_next;
    xpby(z, beta, p);
  }
  return -1;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = EXIT_FAILURE;
  {
    const int elements = example::int_arg(argc, argv, 0, 4000);
    example::Checks checks;
    const Exec exec;
    const Mesh mesh = make_mesh(elements);
    std::printf("vbatch_block_jacobi: %d elements (blocks of order 4, 10, 20, 35), %lld unknowns\n",
                elements, static_cast<long long>(mesh.dofs));

    // 2. Assemble every block into the packed array, by columns.
    Vec values("values", mesh.values);
    {
      const Orders n = mesh.n;
      const Offsets block_at = mesh.block_at;
      Kokkos::parallel_for(
          "assemble", elements, KOKKOS_LAMBDA(const int e) {
            const int ne = n(e);
            for (int j = 0; j < ne; ++j)
              for (int i = 0; i < ne; ++i)
                values(block_at(e) + i + std::int64_t(j) * ne) = block_entry(e, ne, i, j);
          });
    }

    // 3. Factor the preconditioner's blocks: one call for every order.
    const auto blocks =
        batchol::packed(values, mesh.block_at, mesh.n, kMaxOrder, batchol::Storage::ColMajor);
    Kokkos::View<int*> info("info", elements);
    batchol::potrf(exec, blocks, info);
    int failed = 0;
    Kokkos::parallel_reduce(
        "count_failed", elements,
        KOKKOS_LAMBDA(const int e, int& acc) { acc += info(e) != 0 ? 1 : 0; }, failed);
    checks.require(failed == 0, "every block factored (info == 0)");

    // 4. M^-1 in place: the global vector is a packed right-hand side.
    auto precondition = [&](const Vec& r, const Vec& z) {
      Kokkos::deep_copy(exec, z, r);
      batchol::potrs(exec, blocks, batchol::packed_rhs(z, mesh.dof_at));
    };
    auto identity = [&](const Vec& r, const Vec& z) { Kokkos::deep_copy(exec, z, r); };

    // One application solves each block: max |B_e z_e - r_e| / max |r_e|.
    const std::int64_t N = mesh.dofs;
    Vec r("r", N), z("z", N);
    Kokkos::parallel_for(
        "some_rhs", N, KOKKOS_LAMBDA(const std::int64_t k) { r(k) = 1.0 + double(k % 7) / 7; });
    precondition(r, z);
    double block_residual = 0;
    {
      const Orders n = mesh.n;
      const Offsets dof_at = mesh.dof_at;
      Kokkos::parallel_reduce(
          "block_residual", elements,
          KOKKOS_LAMBDA(const int e, double& worst) {
            const int ne = n(e);
            const std::int64_t at = dof_at(e);
            for (int i = 0; i < ne; ++i) {
              double v = -r(at + i);
              for (int j = 0; j < ne; ++j) v += block_entry(e, ne, i, j) * z(at + j);
              const double rel = (v < 0 ? -v : v) / r(at + i);
              if (rel > worst) worst = rel;
            }
          },
          Kokkos::Max<double>(block_residual));
    }
    std::printf("  worst block residual of M^-1 r: %.2e\n", block_residual);
    checks.require(block_residual < 1e-12, "M^-1 solves every block");

    // A x = b with a known x, by CG with and without the preconditioner.
    Vec x_true("x_true", N), b("b", N), x("x", N);
    Kokkos::parallel_for(
        "x_true", N, KOKKOS_LAMBDA(const std::int64_t k) {
          x_true(k) = 1.0 + double(k % 11) / 11 - 0.5 * double(k % 3);
        });
    apply_a(mesh, x_true, b);
    const double tol = 1e-10;
    const int plain = cg(mesh, b, x, tol, 5000, identity);
    const int pcg = cg(mesh, b, x, tol, 5000, precondition);
    std::printf("  CG iterations: %d without, %d with the block-Jacobi preconditioner\n", plain,
                pcg);
    checks.require(pcg > 0, "preconditioned CG converges");
    checks.require(plain < 0 || pcg < plain, "the preconditioner takes fewer iterations");
    Vec err("err", N);
    Kokkos::deep_copy(err, x);
    axpy(-1.0, x_true, err);
    const double rel_err = std::sqrt(dot(err, err) / dot(x_true, x_true));
    std::printf("  relative error of the solution: %.2e\n", rel_err);
    checks.require(rel_err < 1e-8, "solution matches the known one");
    status = checks.exit_code();
  }
  Kokkos::finalize();
  return status;
}
