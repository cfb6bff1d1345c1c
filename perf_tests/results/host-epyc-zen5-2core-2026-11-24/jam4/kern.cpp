// Archived probe (not built by CMake): the unwound potrf kernel alone, data in L1,
// J = 1..4 packs per call, TSC cycles per matrix (the copy of a pristine pack
// timed alone and subtracted). Build from this folder:
// g++ -O3 -march=native -std=c++17 -I../../../../src -I$KOKKOS_INCLUDE -DPREC=double \
//   '-DNS=all<9>();all<10>();' kern.cpp
#include <x86intrin.h>
#include <Batchol_HostUnwound.hpp>
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
double med(F&& f, int reps, int per) {
  std::vector<double> r;
  for (int t = 0; t < 9; ++t) {
    auto t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) f();
    r.push_back(double(__rdtsc() - t0) / (double(reps) * W * per));
  }
  std::sort(r.begin(), r.end());
  return r[4];
}
template <int N, int J>
void run() {
  const std::ptrdiff_t E = tri(N, 0);
  std::vector<V> src(J * E), l(J * E), rd(J * N);
  for (int q = 0; q < J; ++q)
    for (int j = 0; j < N; ++j)
      for (int i = j; i < N; ++i)
        src[q * E + tri(i, j)] = splat<T>(i == j ? T(N + 1) : T(0.5) / T(1 + i + j));
  const int reps = 200000 / (N * N) + 100;
  double copy = med(
      [&] {
        std::memcpy(l.data(), src.data(), J * E * sizeof(V));
        asm volatile("" ::"r"(l.data()) : "memory");
      },
      reps, J);
  double k = med(
      [&] {
        std::memcpy(l.data(), src.data(), J * E * sizeof(V));
        M info[J];
        for (int q = 0; q < J; ++q) info[q] = splat_mask<T>(0);
        Unwound<T, N, J>::template potrf<false>(N, l.data(), rd.data(), info);
        asm volatile("" ::"r"(l.data()), "r"(info) : "memory");
      },
      reps, J);
  std::printf("n=%2d J=%d kernel %6.1f TSC cyc/matrix (%5.2f ns)\n", N, J, k - copy,
              (k - copy) / 2.596);
}
template <int N>
void all() {
  run<N, 1>();
  run<N, 2>();
  run<N, 3>();
  run<N, 4>();
}
int main() {
  NS
}
