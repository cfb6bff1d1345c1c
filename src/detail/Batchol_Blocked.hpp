// The Blocked path: right-looking blocked Cholesky (Dong et al. 2014) for the
// orders the one-team kernels serve poorly, above the Cuda path's tables on a
// GPU. A first launch factors the first diagonal block; then each block
// column k0 of width NB takes two launches over the batch:
//   panel:  teams of RT rows below the diagonal block solve them against it
//           (A21 = A21 L11^-T), one row per thread, in registers;
//   update: one team per (matrix, TB x TB tile of the trailing matrix)
//           subtracts A21 A21^T from the lower tiles of A22 (SYRK), the two
//           slices of A21 staged in team scratch, a 4 x 4 block of the tile
//           in each thread's registers. The tile that holds the next
//           diagonal block factors it, in scratch, once updated.
// A matrix that fails stops: later launches read its info and skip it. The
// columns before the failed one are complete (the panel solves them), as on
// the other paths. Summation order differs from the Generic path's: the two
// agree to rounding, not to the bit. Options::fast_math makes a subnormal
// pivot fail, as on the Host and Cuda paths (their approximate square roots
// flush it to zero), so the three report the same info.
//
// The solves are in Batchol_BlockedSolve.hpp.
#ifndef BATCHOL_BLOCKED_HPP
#define BATCHOL_BLOCKED_HPP

#include <detail/Batchol_BlockedSolve.hpp>
#include <detail/Batchol_Generic.hpp>
#include <detail/Batchol_KernelTeam.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Strided.hpp>

#include <algorithm>
#include <cstdint>

// Complete unrolling of the register blocks in device code (nvcc's host pass
// and host compilers leave it to their own heuristics).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define BATCHOL_DEVICE_UNROLL _Pragma("unroll")
#else
#define BATCHOL_DEVICE_UNROLL
#endif

namespace batchol::detail::blocked {

inline constexpr int NB = 32;  // block column width
inline constexpr int TB = 64;  // trailing tile edge
inline constexpr int RB = 4;   // register block edge: TB / RB = 16 threads per edge
inline constexpr int TT = TB / RB;
inline constexpr int LD = TB + 1;  // scratch distance between columns: no bank conflicts

// Scratch of factor_diagonal: the block, row by row.
inline constexpr int DLD = NB + 1;
inline constexpr std::size_t diagonal_count = std::size_t(NB) * DLD;

// Factors the diagonal block at (k0, k0) of matrix i with the team, in
// scratch s (diagonal_count scalars): loaded once, right-looking, one row per
// thread, written back. Sets info where it fails (and at k0 = 0 in every
// case); the block then holds what team_potrf leaves, the factor's columns
// before the failed one.
template <class Member, class T>
KOKKOS_INLINE_FUNCTION void factor_diagonal(const Member& m, const Problem<T>& pr, std::int64_t i,
                                            int k0, T* s) {
  const Strided<T> a = matrix_of(pr, i);
  const int w = min_int(NB, pr.n - k0);
  const bool rows_fast = (a.rs < 0 ? -a.rs : a.rs) < (a.cs < 0 ? -a.cs : a.cs);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * w), [&](const int t) {
    const int r = rows_fast ? t % w : t / w, c = rows_fast ? t / w : t % w;
    if (c <= r) s[r * DLD + c] = a(k0 + r, k0 + c);
  });
  m.team_barrier();
  int failed = 0;
  for (int j = 0; j < w; ++j) {
    const T d = s[j * DLD + j];  // every thread reads the same pivot: the team leaves together
    if (!pivot_ok(d) || (pr.fast_math && d < Limits<T>::min_normal)) {
      failed = j + 1;
      break;
    }
    const T sq = detail::sqrt(d), inv = T(1) / sq;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, j + 1, w),
                         [&](const int r) { s[r * DLD + j] *= inv; });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, j, w), [&](const int r) {
      if (r == j) {
        s[j * DLD + j] = sq;
        return;
      }
      const T lrj = s[r * DLD + j];
      for (int c = j + 1; c <= r; ++c) s[r * DLD + c] -= lrj * s[c * DLD + j];
    });
    m.team_barrier();
  }
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * w), [&](const int t) {
    const int r = rows_fast ? t % w : t / w, c = rows_fast ? t / w : t % w;
    if (c <= r) a(k0 + r, k0 + c) = s[r * DLD + c];
  });
  if (k0 == 0 || failed)
    Kokkos::single(Kokkos::PerTeam(m), [&]() { info_of(pr, i) = failed ? k0 + failed : 0; });
  m.team_barrier();
}

// The first diagonal block; the update kernel factors the later ones.
template <class ExecSpace, class T>
struct Diagonal {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr std::size_t scratch_count = diagonal_count;

  Problem<T> pr;
  std::int64_t offset;
  int level;  // of the team scratch

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const work_view work(m.team_scratch(level), std::size_t(scratch_count));
    factor_diagonal(m, pr, offset + m.league_rank(), 0, work.data());
  }
};

// The rows below the diagonal block at k0, RT per team, solved against it
// (A21 = A21 L11^-T), one row per thread in registers; where the block
// failed, the columns before the failed one.
inline constexpr int RT = 64;

template <class ExecSpace, class T>
struct Panel {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr std::size_t scratch_count = NB * NB + NB;

  Problem<T> pr;
  int k0;
  int blocks;  // teams per matrix
  std::int64_t offset;
  int level;  // of the team scratch

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank() / blocks;
    const int n = pr.n, w = min_int(NB, n - k0);
    const int info = info_of(pr, i);
    if (info != 0 && info <= k0) return;  // failed at an earlier block column
    const int cols = info != 0 ? info - k0 - 1 : w;
    if (cols <= 0) return;
    const Strided<T> a = matrix_of(pr, i);
    const work_view scratch(m.team_scratch(level), std::size_t(scratch_count));
    T* const ls = scratch.data();
    T* const inv = ls + NB * NB;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, w * w), [&](const int t) {
      const int c = t / w, k = t % w;
      if (k <= c) ls[c * NB + k] = a(k0 + c, k0 + k);
      if (k == c) inv[c] = T(1) / a(k0 + c, k0 + c);
    });
    m.team_barrier();
    const int first = k0 + w + (m.league_rank() % blocks) * RT;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, RT), [&](const int r) {
      const int row = first + r;
      if (row >= n) return;
      T x[NB];
      BATCHOL_DEVICE_UNROLL
      for (int c = 0; c < NB; ++c) {
        if (c < cols) {
          T v = a(row, k0 + c);
          BATCHOL_DEVICE_UNROLL
          for (int k = 0; k < c; ++k) v -= x[k] * ls[c * NB + k];
          x[c] = v * inv[c];
          a(row, k0 + c) = x[c];
        }
      }
    });
  }
};

// Tile t of the lower triangle of a grid of tiles, row by row: (0,0), (1,0),
// (1,1), (2,0), ...
KOKKOS_INLINE_FUNCTION void tile_of(int t, int& ti, int& tj) {
  ti = 0;
  while ((ti + 1) * (ti + 2) / 2 <= t) ++ti;
  tj = t - ti * (ti + 1) / 2;
}

template <class ExecSpace, class T>
struct Update {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using work_view =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  // Two slices of A21, TB rows x NB columns each, stored column by column.
  static constexpr std::size_t scratch_count = 2 * std::size_t(NB) * LD;

  Problem<T> pr;
  int k0;
  std::int64_t offset, count;  // the matrices of this launch
  int level;                   // of the team scratch

  // Tile-major: the first tiles of all matrices, which hold the next diagonal
  // block to factor, start first.
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank() % count;
    const int n = pr.n, w = min_int(NB, n - k0), first = k0 + w;
    // Skip a matrix that failed up to this block column, not one whose next
    // diagonal block failed in this launch: its rows below still need the
    // update (and the outcome must not depend on which team ran first).
    const int info = info_of(pr, i);
    if (info != 0 && info <= first) return;
    int ti, tj;
    tile_of(static_cast<int>(m.league_rank() / count), ti, tj);
    const int r0 = first + ti * TB, c0 = first + tj * TB;
    const Strided<T> a = matrix_of(pr, i);
    const work_view scratch(m.team_scratch(level), std::size_t(scratch_count));
    T* const pi = scratch.data();
    T* const pj = ti == tj ? pi : pi + NB * LD;

    // Loads run along the unit-stride direction of the storage.
    const bool rows_fast = (a.rs < 0 ? -a.rs : a.rs) < (a.cs < 0 ? -a.cs : a.cs);
    auto load = [&](T* s, int base) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, TB * w), [&](const int t) {
        const int r = rows_fast ? t % TB : t / w, k = rows_fast ? t / TB : t % w;
        s[k * LD + r] = base + r < n ? a(base + r, k0 + k) : T(0);
      });
    };
    load(pi, r0);
    if (ti != tj) load(pj, c0);
    m.team_barrier();

    // Thread q owns rows ty + TT u and columns tx + TT v of the tile, with tx
    // along the unit-stride direction, so that its stores coalesce.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, TT * TT), [&](const int q) {
      const int fast = q % TT, slow = q / TT;
      const int ty = rows_fast ? fast : slow, tx = rows_fast ? slow : fast;
      T acc[RB][RB];
      BATCHOL_DEVICE_UNROLL
      for (int u = 0; u < RB; ++u) {
        BATCHOL_DEVICE_UNROLL
        for (int v = 0; v < RB; ++v) acc[u][v] = T(0);
      }
      for (int k = 0; k < w; ++k) {
        T ri[RB], cj[RB];
        BATCHOL_DEVICE_UNROLL
        for (int u = 0; u < RB; ++u) {
          ri[u] = pi[k * LD + ty + TT * u];
          cj[u] = pj[k * LD + tx + TT * u];
        }
        BATCHOL_DEVICE_UNROLL
        for (int u = 0; u < RB; ++u) {
          BATCHOL_DEVICE_UNROLL
          for (int v = 0; v < RB; ++v) acc[u][v] += ri[u] * cj[v];
        }
      }
      BATCHOL_DEVICE_UNROLL
      for (int u = 0; u < RB; ++u) {
        BATCHOL_DEVICE_UNROLL
        for (int v = 0; v < RB; ++v) {
          const int r = r0 + ty + TT * u, c = c0 + tx + TT * v;
          if (r < n && c <= r) a(r, c) -= acc[u][v];
        }
      }
    });
    // The next diagonal block lies in tile (0, 0), final now.
    if (ti == 0 && tj == 0) {
      m.team_barrier();
      factor_diagonal(m, pr, i, first, pi);
    }
  }
};

// write_transposed: the factor mirrored into the strict upper triangle of the
// matrices that succeeded.
template <class ExecSpace, class T>
struct Mirror {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Problem<T> pr;
  std::int64_t offset;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    const std::int64_t i = offset + m.league_rank();
    if (info_of(pr, i) == 0) team_mirror(m, matrix_of(pr, i), pr.n);
  }
};

// teams_per_matrix teams of at most `team` threads (one on a host) for each
// matrix: generic::launch_league.
template <class ExecSpace, class Make>
void launch(const ExecSpace& exec, const char* name, std::int64_t batch, int teams_per_matrix,
            int team, std::size_t scratch_bytes, const Make& make) {
  generic::launch_league(
      exec, name, batch, teams_per_matrix, scratch_bytes,
      [&](int max) { return generic::is_host_exec_v<ExecSpace> ? 1 : std::min(team, max); }, make);
}

template <class ExecSpace, class T>
void factor(const ExecSpace& exec, const Problem<T>& pr) {
  using D = Diagonal<ExecSpace, T>;
  using P = Panel<ExecSpace, T>;
  using U = Update<ExecSpace, T>;
  const int n = pr.n;
  launch(exec, "batchol::blocked::diagonal", pr.batch, 1, NB,
         D::work_view::shmem_size(D::scratch_count),
         [&](std::int64_t offset, std::int64_t, int level) {
           return D{pr, offset, level};
         });
  for (int k0 = 0; k0 + NB < n; k0 += NB) {
    const int rest = n - k0 - NB, blocks = (rest + RT - 1) / RT;
    launch(exec, "batchol::blocked::panel", pr.batch, blocks, RT,
           P::work_view::shmem_size(P::scratch_count),
           [&](std::int64_t offset, std::int64_t, int level) {
             return P{pr, k0, blocks, offset, level};
           });
    const int t = (rest + TB - 1) / TB, tiles = t * (t + 1) / 2;
    launch(exec, "batchol::blocked::update", pr.batch, tiles, TT * TT,
           U::work_view::shmem_size(U::scratch_count),
           [&](std::int64_t offset, std::int64_t count, int level) {
             return U{pr, k0, offset, count, level};
           });
  }
  if (pr.mirror)
    launch(exec, "batchol::blocked::mirror", pr.batch, 1, ((std::min(n, 256) + 31) / 32) * 32, 0,
           [&](std::int64_t offset, std::int64_t, int) {
             return Mirror<ExecSpace, T>{pr, offset};
           });
}

// Whether Auto takes the Blocked path above the Cuda tables (else Generic).
// Measured on an H200: on matrices stored contiguously (LayoutRight) it is
// the faster from n = 129 (1.0-2.9x Generic up to n = 512); on interleaved
// batches (LayoutLeft), where each team's accesses are strided anyway,
// from n = 160 in double and 384 in float.
template <class T>
bool preferred(const Problem<T>& pr) {
  auto mag = [](std::ptrdiff_t s) { return s < 0 ? -s : s; };
  const bool interleaved = mag(pr.a_bs) < mag(pr.a_rs) && mag(pr.a_bs) < mag(pr.a_cs);
  return !interleaved || pr.n >= (sizeof(T) == sizeof(double) ? 160 : 384);
}

// Whether Auto takes the Blocked path instead of the Host path on a host
// backend: one or two matrices from n = 512. The Host path holds a pack of
// matrices in the SIMD lanes (8 double, 16 float with AVX-512), so a lone
// matrix costs it a whole pack, while the Blocked path spreads each matrix
// over its teams. Measured on a 2-core Xeon (AVX-512, one thread), Host's
// time ÷ Blocked's at n = 512 / 1024: potrf of one matrix 2.0-3.2 /
// 2.3-2.5, of four 0.4 / 0.9-1.4; potrs with one right-hand side, one
// matrix 1.8-2.5 / 8.0-9.7, four 1.2-1.5 / 2.6-3.6; at n = 256 the Host
// path's potrf is the faster from one matrix on.
template <class T>
bool preferred_on_host(const Problem<T>& pr) {
  return pr.batch <= 2 && pr.n >= 512;
}

// The Blocked path's entry: operation OP on every matrix of pr, on exec.
template <Op OP, class ExecSpace, class T>
void run(const ExecSpace& exec, const Problem<T>& pr) {
  static_assert(specialized(OP), "an operation the Blocked path does not implement");
  if (pr.n == 0) {
    generic::run<OP>(exec, pr);
    return;
  }
  Problem<T> solve = pr;
  if constexpr (factors(OP)) {
    factor(exec, pr);
    solve.skip_failed = true;
  }
  if constexpr (has_rhs(OP)) {
    using S = Solve<ExecSpace, T>;
    const int chunks = (pr.nrhs + QC - 1) / QC;
    if (chunks == 0) return;
    launch(exec, "batchol::blocked::solve", pr.batch, chunks, 256,
           S::work_view::shmem_size(S::scratch_count),
           [&](std::int64_t offset, std::int64_t, int level) {
             return S{solve, solves_forward(OP), solves_backward(OP), chunks, offset, level};
           });
  }
}

}  // namespace batchol::detail::blocked

#endif
