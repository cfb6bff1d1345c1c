// Archived probe (not built by CMake). Build from this folder:
// g++ -O3 -march=native -std=c++17 -fopenmp -I../../../../src -I$KOKKOS_INCLUDE -DPREC=double
// blk.cpp Probe: Blocked potrf / forward+backward alone, one pack in L1, TSC cycles per matrix.
#include <x86intrin.h>
#include <Batchol_HostBlocked.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace batchol::detail::host;
using T = PREC;
using V = vec_t<T>;
using M = mask_t<T>;
constexpr int W = width_v<T>;
template <class F>
double med(F&& f, int reps) {
  std::vector<double> r;
  for (int t = 0; t < 9; ++t) {
    auto t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) f();
    r.push_back(double(__rdtsc() - t0) / (double(reps) * W));
  }
  std::sort(r.begin(), r.end());
  return r[4];
}
int main() {
  for (int N : {17, 24, 32, 48, 64}) {
    const std::ptrdiff_t E = tri(N, 0);
    std::vector<V> src(E), l(E), rd(N), x(N);
    for (int j = 0; j < N; ++j)
      for (int i = j; i < N; ++i)
        src[tri(i, j)] = splat<T>(i == j ? T(N + 1) : T(0.5) / T(1 + i + j));
    const int reps = 2000000 / (N * N) + 100;
    double copy = med(
        [&] {
          std::memcpy(l.data(), src.data(), E * sizeof(V));
          asm volatile("" ::"r"(l.data()) : "memory");
        },
        reps);
    double k = med(
        [&] {
          std::memcpy(l.data(), src.data(), E * sizeof(V));
          M info = splat_mask<T>(0);
          Blocked<T>::template potrf<false>(N, l.data(), rd.data(), &info);
          asm volatile("" ::"r"(l.data()), "r"(&info) : "memory");
        },
        reps);
    Blocked<T>::template potrf<false>(N, l.data(), rd.data(),
                                      nullptr ? nullptr : new M(splat_mask<T>(0)));
    double s = med(
        [&] {
          for (int i = 0; i < N; ++i) x[i] = splat<T>(T(1));
          Blocked<T>::template forward<false>(N, l.data(), rd.data(), x.data());
          Blocked<T>::template backward<false>(N, l.data(), rd.data(), x.data());
          asm volatile("" ::"r"(x.data()) : "memory");
        },
        reps);
    const double fl = double(N) * N * N / 6;  // FMAs of potrf per matrix
    printf("n=%d potrf %.0f cycles/matrix (FMA bound %.0f), solve %.0f (FMA bound %.0f)\n", N,
           k - copy, fl / 2 / W, s, double(N) * N / 2 / W);
  }
}
