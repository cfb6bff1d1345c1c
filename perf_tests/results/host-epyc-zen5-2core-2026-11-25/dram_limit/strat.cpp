// Archived probe (not built by CMake). Build: g++ -O2 -march=native -fopenmp strat.cpp -o strat
// Run: OMP_NUM_THREADS=2 OMP_PROC_BIND=spread ./strat N PACKS_PER_CHUNK REPS 0 RW
// Probe: how fast can two cores read a LayoutLeft batch's triangles (n x n x
// batch doubles, batch fastest) chunk by chunk into a pack-major buffer (the
// stage's copy_in), by read strategy. One process, strategies alternated,
// median of reps. GB/s of triangle bytes.
#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using V = __m512d;
static int n, G = 8, RW = 0;
static long C, batch, np, E;
static double* a;
static std::vector<long> off;

template <int S>
static void chunk(long p0, long cnt, long pnext, V* buf, int D) {
  for (long e0 = 0; e0 < E; e0 += G) {
    int g = std::min<long>(G, E - e0);
    // S4: prefetch the group D groups ahead (wrapping into the next chunk)
    long ea = e0 + long(D) * G;
    for (long q = 0; q < cnt; ++q)
      for (int s = 0; s < g; ++s) {
        const double* src = a + off[e0 + s] + (p0 + q) * 8;
        if constexpr (S == 1)
          if (pnext >= 0)
            _mm_prefetch((const char*)(a + off[e0 + s] + (pnext + q) * 8), _MM_HINT_T1);
        if constexpr (S == 2)
          if (pnext >= 0)
            _mm_prefetch((const char*)(a + off[e0 + s] + (pnext + q) * 8), _MM_HINT_T0);
        if constexpr (S == 3)
          if (pnext >= 0)
            _mm_prefetch((const char*)(a + off[e0 + s] + (pnext + C + q) * 8), _MM_HINT_T1);
        if constexpr (S == 4) {
          long e = ea + s, pp = p0;
          if (e >= E) {
            e -= E;
            pp = pnext;
          }
          if (pp >= 0 && e < E) _mm_prefetch((const char*)(a + off[e] + (pp + q) * 8), _MM_HINT_T0);
        }
        buf[q * E + e0 + s] = _mm512_load_pd(src);
      }
  }
}

template <int S>
static double run(int D) {
  auto t0 = std::chrono::steady_clock::now();
  long nchunks = (np + C - 1) / C;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), T = omp_get_num_threads();
    static thread_local std::vector<V> buf;
    buf.resize(C * E);
    long c0 = t * nchunks / T, c1 = (t + 1) * nchunks / T;
    for (long c = c0; c < c1; ++c) {
      long p0 = c * C, cnt = std::min(C, np - p0);
      long pnext = (c + 1 < c1 && (c + 2) * C <= np) ? (c + 1) * C : -1;
      if (S == 3 && !(c + 2 < c1 && (c + 3) * C <= np)) pnext = -1;
      chunk<S>(p0, cnt, pnext, buf.data(), D);
      if (RW)  // write the chunk back, as a staged potrf does
        for (long e0 = 0; e0 < E; e0 += G) {
          int g = std::min<long>(G, E - e0);
          for (long q = 0; q < cnt; ++q)
            for (int s = 0; s < g; ++s)
              _mm512_storeu_pd(a + off[e0 + s] + (p0 + q) * 8, buf[q * E + e0 + s]);
        }
    }
  }
  double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return (RW ? 16.0 : 8.0) * E * batch / dt / 1e9;
}

int main(int argc, char** argv) {
  n = atoi(argv[1]);
  C = atol(argv[2]);
  int reps = argc > 3 ? atoi(argv[3]) : 7;
  batch = (256l << 20) / (8l * n * (n + 1) / 2) / 8 * 8;
  if (argc > 4 && atol(argv[4]) > 0) batch = atol(argv[4]);
  if (argc > 5) RW = atoi(argv[5]);
  np = batch / 8;
  long bytes = (8l * n * n * batch + (2 << 20) - 1) / (2 << 20) * (2 << 20);
  a = (double*)aligned_alloc(2 << 20, bytes);
  if (getenv("HUGE")) madvise(a, bytes, MADV_HUGEPAGE);
  memset(a, 1, bytes);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) off.push_back((long)(i + j * n) * batch);
  E = off.size();
  const char* names[] = {"plain",      "next T1",    "next T0",   "2 ahead T1",
                         "group+2 T0", "group+4 T0", "group+8 T0"};
  std::vector<std::vector<double>> r(7);
  for (int rep = 0; rep < reps; ++rep) {
    r[0].push_back(run<0>(0));
    r[1].push_back(run<1>(0));
    r[2].push_back(run<2>(0));
    r[3].push_back(run<3>(0));
    r[4].push_back(run<4>(2));
    r[5].push_back(run<4>(4));
    r[6].push_back(run<4>(8));
  }
  printf("n=%d C=%ld batch=%ld %s:", n, C, batch, RW ? "read+write-back, r+w bytes" : "read");
  for (int s = 0; s < 7; ++s) {
    std::sort(r[s].begin(), r[s].end());
    printf("  %s %.1f", names[s], r[s][r[s].size() / 2]);
  }
  printf("\n");
}
