// Archived probe (not built by CMake). Build: g++ -O2 -march=native -fopenmp seq.cpp -o seq
// Probe: sequential read-only, copy, and write-only bandwidth, 256 MB, OpenMP.
#include <immintrin.h>
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
  long N = (256l << 20) / 8;
  double* a = (double*)aligned_alloc(64, 8 * N);
  double* b = (double*)aligned_alloc(64, 8 * N);
  memset(a, 1, 8 * N);
  memset(b, 1, 8 * N);
  for (int mode = 0; mode < 3; ++mode) {
    double best = 1e30;
    for (int rep = 0; rep < 6; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      __m512d acc = _mm512_setzero_pd();
#pragma omp parallel
      {
        __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
#pragma omp for schedule(static)
        for (long i = 0; i < N; i += 32) {
          if (mode == 0) {
            s0 = _mm512_add_pd(s0, _mm512_load_pd(a + i));
            s1 = _mm512_add_pd(s1, _mm512_load_pd(a + i + 8));
            s2 = _mm512_add_pd(s2, _mm512_load_pd(a + i + 16));
            s3 = _mm512_add_pd(s3, _mm512_load_pd(a + i + 24));
          } else if (mode == 1) {
            for (int k = 0; k < 32; k += 8) _mm512_store_pd(b + i + k, _mm512_load_pd(a + i + k));
          } else {
            for (int k = 0; k < 32; k += 8) _mm512_store_pd(b + i + k, s0);
          }
        }
        s0 = _mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3));
#pragma omp critical
        acc = _mm512_add_pd(acc, s0);
      }
      double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (dt < best) best = dt;
      if (_mm512_reduce_add_pd(acc) == 1.2345) printf("x");
    }
    const char* name[] = {"read", "copy (r+w counted)", "write"};
    double bytes = 8.0 * N * (mode == 1 ? 2 : 1);
    printf("%s: %.1f GB/s\n", name[mode], bytes / best / 1e9);
  }
}
