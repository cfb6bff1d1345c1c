// Archived probe (not built by CMake): the same transfers as dense.cpp by AVX-512 gathers (in)
// and scatters (out) of the lower triangle, TSC cycles per matrix. g++ -O3 -march=native gath.cpp
#include <immintrin.h>
#include <x86intrin.h>
#include <algorithm>
#include <cstdio>
#include <vector>
template <class F>
double med(F&& f, int reps) {
  std::vector<double> r;
  for (int t = 0; t < 9; ++t) {
    auto t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) f();
    r.push_back(double(__rdtsc() - t0) / (double(reps) * 8));
  }
  std::sort(r.begin(), r.end());
  return r[4];
}
template <int N>
void run() {
  std::vector<double> a(8 * N * N, 1.0);
  alignas(64) __m512d l[N * (N + 1) / 2];
  const __m512i idx =
      _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(N * N));
  double in = med(
      [&] {
        int e = 0;
        for (int i = 0; i < N; ++i)
          for (int j = 0; j <= i; ++j) l[e++] = _mm512_i64gather_pd(idx, a.data() + i * N + j, 8);
        asm volatile("" ::"r"(l) : "memory");
      },
      20000);
  double out = med(
      [&] {
        int e = 0;
        for (int i = 0; i < N; ++i)
          for (int j = 0; j <= i; ++j) _mm512_i64scatter_pd(a.data() + i * N + j, idx, l[e++], 8);
        asm volatile("" ::"r"(a.data()) : "memory");
      },
      20000);
  std::printf("n=%d gather in %.1f scatter out %.1f TSC cycles per matrix\n", N, in, out);
}
int main() {
  run<4>();
  run<5>();
  run<6>();
  run<7>();
}
