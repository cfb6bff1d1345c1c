// Archived probe (not built by CMake): the unwound potrf kernel alone, its
// packs in L1, TSC cycles per matrix (n = 4 and 8, one or two packs per call,
// double and float), to set beside the divider's throughput (divider.cpp).
// Compile: g++ -O2 -march=native -I../../../../src -I$KOKKOS/include -fopenmp unwound.cpp
#include <x86intrin.h>
#include <Batchol_HostUnwound.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace batchol::detail::host;

template <class T, int N, int J>
double cycles_per_matrix() {
  using V = vec_t<T>;
  using M = mask_t<T>;
  constexpr int W = width_v<T>;
  const std::ptrdiff_t E = tri(N, 0);
  std::vector<V> src(J * E), l(J * E), rd(J * N);
  for (int q = 0; q < J; ++q)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j <= i; ++j)
        src[q * E + tri(i, j)] = splat<T>(i == j ? T(N) : T(0.5) / T(1 + i + j));
  constexpr int reps = 20000;
  std::vector<double> r;
  for (int rep = 0; rep < 7; ++rep) {
    const unsigned long long t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) {
      std::memcpy(l.data(), src.data(), J * E * sizeof(V));
      M info[J];
      for (int q = 0; q < J; ++q) info[q] = splat_mask<T>(0);
      Unwound<T, N, J>::template potrf<false>(N, l.data(), rd.data(), info);
      asm volatile("" ::"r"(l.data()) : "memory");
    }
    r.push_back(double(__rdtsc() - t0) / (double(reps) * J * W));
  }
  std::sort(r.begin(), r.end());
  return r[r.size() / 2];
}

int main() {
  std::printf("TSC cycles per matrix, unwound potrf in L1 (copy of the pack included)\n");
  std::printf("double n=4 J=3 %.2f  J=4 %.2f\n", cycles_per_matrix<double, 4, 3>(),
              cycles_per_matrix<double, 4, 4>());
  std::printf("double n=8 J=3 %.2f  J=4 %.2f\n", cycles_per_matrix<double, 8, 3>(),
              cycles_per_matrix<double, 8, 4>());
  std::printf("double n=4 J=1 %.2f  J=2 %.2f\n", cycles_per_matrix<double, 4, 1>(),
              cycles_per_matrix<double, 4, 2>());
  std::printf("double n=8 J=1 %.2f  J=2 %.2f\n", cycles_per_matrix<double, 8, 1>(),
              cycles_per_matrix<double, 8, 2>());
  std::printf("float  n=4 J=1 %.2f  J=2 %.2f\n", cycles_per_matrix<float, 4, 1>(),
              cycles_per_matrix<float, 4, 2>());
  std::printf("float  n=8 J=1 %.2f  J=2 %.2f\n", cycles_per_matrix<float, 8, 1>(),
              cycles_per_matrix<float, 8, 2>());
  return 0;
}
