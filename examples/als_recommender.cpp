// Alternating least squares (ALS) for implicit-feedback recommendation, the
// workload that motivated Kurzak et al.'s batched Cholesky: every sweep solves
// one small k x k SPD system per user and one per item.
//
// Model (Hu, Koren & Volinsky, "Collaborative filtering for implicit feedback
// datasets", 2008): user u interacted r_ui > 0 times with item i. Preference
// p_ui = 1 if r_ui > 0 else 0, confidence c_ui = 1 + alpha r_ui. Find user
// factors x_u and item factors y_i (length k) minimizing
//
//   L = sum over ALL pairs c_ui (p_ui - x_u . y_i)^2 + lambda (|X|^2 + |Y|^2).
//
// With Y fixed, L is a quadratic in each x_u separately, minimized by
//
//   (Y^T Y + lambda I + sum_{i: r_ui > 0} alpha r_ui y_i y_i^T) x_u
//       = sum_{i: r_ui > 0} (1 + alpha r_ui) y_i,
//
// an SPD system per user; the dense part Y^T Y is shared, the rest touches only
// u's interactions. All systems of a half-sweep go to one batchol::posv call;
// then the same for the items with X fixed. Each half-sweep minimizes L exactly
// in its unknowns, so L can only go down: the example checks that it does.
//
// Data: a synthetic interaction matrix with a planted low-rank structure (user
// u interacts with item i when a hidden rank-8 affinity is high). One
// interaction per user is held out; the trained model should rank it near the
// top among the items u has not seen (hit rate at 10), far better than
// recommending the most popular items.
//
// Usage: als_recommender [users = 5000] [items = 2000] [k = 32] [sweeps = 10]
#include <Batchol.hpp>

#include "example_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Range = Kokkos::RangePolicy<Exec>;
using Factors = Kokkos::View<double**>;  // (users or items, k)

constexpr double alpha = 10.0;  // confidence per interaction
constexpr double lambda = 1.0;  // regularization
constexpr int planted_rank = 8;

// Interactions in compressed rows: row u's entries are idx[ptr[u] .. ptr[u+1]),
// sorted, with weight w = alpha * r_ui (so c_ui = 1 + w).
struct Csr {
  Kokkos::View<int*> ptr, idx;
  Kokkos::View<double*> w;
};

struct Data {
  int users = 0, items = 0;
  long long interactions = 0;   // in training
  Csr by_user, by_item;         // the same matrix, and its transpose
  Kokkos::View<int*> held_out;  // per user: the hidden item, or -1
  int evaluated = 0;            // users with a hidden item
  std::vector<int> popularity;  // training interactions per item
};

// Builds a Csr on the device from host rows of (column, weight) pairs.
Csr make_csr(const std::vector<std::vector<std::pair<int, double>>>& rows) {
  long long nnz = 0;
  for (const auto& r : rows) nnz += static_cast<long long>(r.size());
  Csr c{Kokkos::View<int*>("ptr", rows.size() + 1), Kokkos::View<int*>("idx", nnz),
        Kokkos::View<double*>("w", nnz)};
  auto hp = Kokkos::create_mirror_view(c.ptr);
  auto hi = Kokkos::create_mirror_view(c.idx);
  auto hw = Kokkos::create_mirror_view(c.w);
  int e = 0;
  for (std::size_t u = 0; u < rows.size(); ++u) {
    hp(u) = e;
    for (const auto& [col, w] : rows[u]) {
      hi(e) = col;
      hw(e) = w;
      ++e;
    }
  }
  hp(rows.size()) = e;
  Kokkos::deep_copy(c.ptr, hp);
  Kokkos::deep_copy(c.idx, hi);
  Kokkos::deep_copy(c.w, hw);
  return c;
}

Data generate(int users, int items, example::Rng& rng) {
  // Hidden tastes: affinity(u, i) = a_u . b_i / sqrt(rank), about N(0, 1).
  std::vector<double> a(std::size_t(users) * planted_rank), b(std::size_t(items) * planted_rank);
  for (double& v : a) v = rng.normal();
  for (double& v : b) v = rng.normal();
  // Interact when the affinity (plus a little noise) clears a threshold that
  // leaves about 2 % of the pairs; stronger affinity, more interactions.
  const double threshold = 2.0;
  std::vector<std::vector<std::pair<int, double>>> by_user(users), by_item(items);
  Data d;
  d.users = users;
  d.items = items;
  d.popularity.assign(items, 0);
  auto held = Kokkos::View<int*, Kokkos::HostSpace>("held_out", users);
  for (int u = 0; u < users; ++u) {
    std::vector<std::pair<int, double>> row;
    for (int i = 0; i < items; ++i) {
      double s = 0;
      for (int f = 0; f < planted_rank; ++f) s += a[u * planted_rank + f] * b[i * planted_rank + f];
      s = s / std::sqrt(double(planted_rank)) + 0.5 * (rng.uniform() - 0.5);
      if (s > threshold) row.emplace_back(i, alpha * (1 + int(4 * (s - threshold))));
    }
    // Hide one interaction of every user who has at least two.
    held(u) = -1;
    if (row.size() >= 2) {
      const std::size_t pick = rng.next() % row.size();
      held(u) = row[pick].first;
      ++d.evaluated;
      row.erase(row.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    for (const auto& [i, w] : row) {
      by_item[i].emplace_back(u, w);
      ++d.popularity[i];
    }
    d.interactions += static_cast<long long>(row.size());
    by_user[u] = std::move(row);
  }
  d.by_user = make_csr(by_user);
  d.by_item = make_csr(by_item);
  d.held_out = Kokkos::View<int*>("held_out", users);
  Kokkos::deep_copy(d.held_out, held);
  return d;
}

// G = F^T F (k x k): one team per entry, summing over the rows of F.
Factors gram(const Factors& f) {
  using Team = Kokkos::TeamPolicy<Exec>;
  const int rows = static_cast<int>(f.extent(0)), k = static_cast<int>(f.extent(1));
  Factors g("gram", k, k);
  Kokkos::parallel_for(
      "gram", Team(k * k, Kokkos::AUTO), KOKKOS_LAMBDA(const Team::member_type& team) {
        const int r = team.league_rank() / k, c = team.league_rank() % k;
        double s = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, rows),
            [&](const int j, double& acc) { acc += f(j, r) * f(j, c); }, s);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { g(r, c) = s; });
      });
  return g;
}

// One half-sweep: every row u of `x` becomes the exact minimizer of L with
// `y` fixed. Assembles all systems (in `a` and, as right-hand sides, in x
// itself), then solves them with one batched call. Returns the number of
// systems batchol reported as not SPD (none, by construction: lambda > 0).
int update(const Csr& rows, const Factors& y, const Factors& x, const Kokkos::View<double***>& a,
           const Kokkos::View<int*>& info, double& solve_seconds) {
  const int n = static_cast<int>(x.extent(0)), k = static_cast<int>(x.extent(1));
  const Factors g = gram(y);
  const auto ptr = rows.ptr;
  const auto idx = rows.idx;
  const auto w = rows.w;
  const double lam = lambda;  // a local copy is what device code can capture
  // One thread per (system u, row r): row r of u's matrix and entry r of its
  // right-hand side. Neighbouring threads take neighbouring systems when the
  // system index is the fastest in memory (LayoutLeft, a GPU's default), else
  // neighbouring rows of one system (LayoutRight, the host's default).
  constexpr bool system_fastest =
      std::is_same_v<Kokkos::View<double***>::array_layout, Kokkos::LayoutLeft>;
  Kokkos::parallel_for(
      "assemble", Range(0, n * k), KOKKOS_LAMBDA(const int t) {
        const int u = system_fastest ? t % n : t / k;
        const int r = system_fastest ? t / n : t % k;
        for (int c = 0; c < k; ++c) {
          double s = g(r, c) + (r == c ? lam : 0.0);
          for (int e = ptr(u); e < ptr(u + 1); ++e) s += w(e) * y(idx(e), r) * y(idx(e), c);
          a(u, r, c) = s;
        }
        double rhs = 0;
        for (int e = ptr(u); e < ptr(u + 1); ++e) rhs += (1.0 + w(e)) * y(idx(e), r);
        x(u, r) = rhs;
      });
  Kokkos::fence();
  Kokkos::Timer timer;
  batchol::posv(Exec(), a, x, info);
  Kokkos::fence();
  solve_seconds += timer.seconds();
  int bad = 0;
  Kokkos::parallel_reduce(
      "count_failures", Range(0, n),
      KOKKOS_LAMBDA(const int u, int& count) { count += info(u) != 0 ? 1 : 0; }, bad);
  return bad;
}

// L(X, Y). The sum over all pairs splits into sum_all s^2 (= <X^T X, Y^T Y>,
// cheap) plus a correction over the observed pairs only.
double loss(const Data& d, const Factors& x, const Factors& y) {
  const int k = static_cast<int>(x.extent(1));
  const auto gx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gram(x));
  const auto gy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gram(y));
  double all = 0, reg = 0;
  for (int r = 0; r < k; ++r) {
    for (int c = 0; c < k; ++c) all += gx(r, c) * gy(r, c);
    reg += lambda * (gx(r, r) + gy(r, r));  // |X|^2 = trace(X^T X)
  }
  const auto ptr = d.by_user.ptr;
  const auto idx = d.by_user.idx;
  const auto w = d.by_user.w;
  double observed = 0;
  Kokkos::parallel_reduce(
      "observed_loss", Range(0, d.users),
      KOKKOS_LAMBDA(const int u, double& acc) {
        for (int e = ptr(u); e < ptr(u + 1); ++e) {
          double s = 0;
          for (int c = 0; c < k; ++c) s += x(u, c) * y(idx(e), c);
          acc += (1.0 + w(e)) * (1.0 - s) * (1.0 - s) - s * s;
        }
      },
      observed);
  return all + observed + reg;
}

// Fraction of users whose held-out item ranks in the top 10 of the items they
// have not interacted with, by the model's score x_u . y_i.
double hit_rate(const Data& d, const Factors& x, const Factors& y) {
  const int k = static_cast<int>(x.extent(1)), items = d.items;
  const auto ptr = d.by_user.ptr;
  const auto idx = d.by_user.idx;
  const auto held = d.held_out;
  int hits = 0;
  Kokkos::parallel_reduce(
      "hit_rate", Range(0, d.users),
      KOKKOS_LAMBDA(const int u, int& hit) {
        const int h = held(u);
        if (h < 0) return;
        auto score = [&](int i) {
          double s = 0;
          for (int c = 0; c < k; ++c) s += x(u, c) * y(i, c);
          return s;
        };
        const double target = score(h);
        int better = 0, e = ptr(u);
        for (int i = 0; i < items; ++i) {
          if (e < ptr(u + 1) && idx(e) == i) {  // seen in training: not a candidate
            ++e;
            continue;
          }
          if (i != h && score(i) > target) ++better;
        }
        hit += better < 10 ? 1 : 0;
      },
      hits);
  return d.evaluated > 0 ? double(hits) / d.evaluated : 0.0;
}

// The same measure for "recommend the 10 most popular unseen items".
double popularity_hit_rate(const Data& d) {
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.by_user.ptr);
  auto idx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.by_user.idx);
  auto held = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.held_out);
  std::vector<int> order(d.items);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return d.popularity[a] > d.popularity[b]; });
  int hits = 0, tested = 0;
  for (int u = 0; u < d.users; ++u) {
    if (held(u) < 0) continue;
    ++tested;
    int shown = 0;
    for (int i : order) {
      if (std::binary_search(idx.data() + ptr(u), idx.data() + ptr(u + 1), i)) continue;
      if (i == held(u)) ++hits;
      if (++shown == 10 || i == held(u)) break;
    }
  }
  return tested > 0 ? double(hits) / tested : 0.0;
}

int run(int argc, char** argv) {
  const int users = example::int_arg(argc, argv, 0, 5000);
  const int items = example::int_arg(argc, argv, 1, 2000);
  const int k = example::int_arg(argc, argv, 2, 32);
  const int sweeps = example::int_arg(argc, argv, 3, 10);
  if (users < 1 || items < 11 || k < 1 || sweeps < 1) {
    std::fprintf(stderr, "usage: als_recommender [users] [items > 10] [k] [sweeps]\n");
    return 2;
  }
  example::Rng rng(2016);
  const Data d = generate(users, items, rng);
  std::printf("Implicit-feedback ALS: %d users, %d items, %lld training interactions (%.2f %%)\n",
              users, items, d.interactions, 100.0 * d.interactions / (double(users) * items));
  std::printf("  planted rank %d, model rank k = %d, alpha = %g, lambda = %g, Kokkos %s\n",
              planted_rank, k, alpha, lambda, Exec::name());
  std::printf("  each sweep: batchol::posv on %d + %d SPD systems of %d x %d\n\n", users, items, k,
              k);

  // Small random start; the scale hardly matters, the first half-sweep fixes it.
  Factors x("user factors", users, k), y("item factors", items, k);
  {
    auto hx = Kokkos::create_mirror_view(x);
    auto hy = Kokkos::create_mirror_view(y);
    for (int u = 0; u < users; ++u)
      for (int c = 0; c < k; ++c) hx(u, c) = 0.1 * rng.normal();
    for (int i = 0; i < items; ++i)
      for (int c = 0; c < k; ++c) hy(i, c) = 0.1 * rng.normal();
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(y, hy);
  }
  Kokkos::View<double***> a_users("user systems", users, k, k),
      a_items("item systems", items, k, k);
  Kokkos::View<int*> info_users("info", users), info_items("info", items);

  // The loss of predicting nothing (X = 0): the sum of c_ui over the interactions.
  double zero_model = 0;
  const auto w = d.by_user.w;
  Kokkos::parallel_reduce(
      "zero_model", Range(0, static_cast<int>(w.extent(0))),
      KOKKOS_LAMBDA(const int e, double& acc) { acc += 1.0 + w(e); }, zero_model);
  double previous = loss(d, x, y);
  std::printf("  %5s %14s %12s %11s %10s\n", "sweep", "loss", "/ zero model", "sweep [ms]",
              "posv [ms]");
  std::printf("  %5d %14.6e %12.4f\n", 0, previous, previous / zero_model);
  bool decreasing = true;
  int failures = 0;
  double total_solve = 0;
  for (int sweep = 1; sweep <= sweeps; ++sweep) {
    // Time the two half-sweeps, not the loss evaluations (monitoring only).
    double solve = 0, seconds = 0;
    Kokkos::fence();
    Kokkos::Timer timer;
    failures += update(d.by_user, y, x, a_users, info_users, solve);
    Kokkos::fence();
    seconds += timer.seconds();
    const double half = loss(d, x, y);
    timer.reset();
    failures += update(d.by_item, x, y, a_items, info_items, solve);
    Kokkos::fence();
    seconds += timer.seconds();
    const double now = loss(d, x, y);
    total_solve += solve;
    std::printf("  %5d %14.6e %12.4f %11.2f %10.2f\n", sweep, now, now / zero_model, 1e3 * seconds,
                1e3 * solve);
    // Exact minimization never increases L; allow for rounding only.
    const double slack = 1e-10 * previous;
    if (half > previous + slack || now > half + slack) decreasing = false;
    previous = now;
  }
  const double als_hits = hit_rate(d, x, y);
  const double popular_hits = popularity_hit_rate(d);
  const double random_hits = 10.0 / (items - d.interactions / double(users));
  const double systems = double(sweeps) * (users + items);
  std::printf("\n  batchol::posv: %.0f systems in %.3f ms (%.3g systems/s)\n", systems,
              1e3 * total_solve, systems / total_solve);
  std::printf("  held-out hit rate at 10: ALS %.3f, most popular %.3f, random %.3f\n", als_hits,
              popular_hits, random_hits);

  example::Checks checks;
  checks.require(failures == 0, "every system is SPD (posv info == 0)");
  checks.require(decreasing, "the loss decreases at every half-sweep");
  checks.require(previous < 0.25 * zero_model, "final loss < 0.25 x the zero model's");
  checks.require(als_hits > 2 * popular_hits && als_hits > 5 * random_hits,
                 "ALS hit rate > 2 x popularity and > 5 x random");
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
