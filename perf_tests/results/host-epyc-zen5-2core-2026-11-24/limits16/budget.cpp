// Archived probe (not built by CMake): what a LayoutRight potrf pack costs in
// its parts, data in L1/L2, TSC cycles per matrix, double, n = 16, 24, 32:
// the line transfers in (load_out, the out-of-line copy the library calls above n = 8: row chunks +
// 8 x 8 transposes) and out (store_out: transposes + masked stores), and the kernel alone (Unwound
// at n = 16, Blocked above) on a pack copied from a pristine one (the copy
// timed alone and subtracted). To set beside the cache-resident benchmark.
// Compile: g++ -O3 -march=native -std=c++17 -I../../../../src (from this folder) -I$KOKKOS_INCLUDE
// budget.cpp
#include <x86intrin.h>
#include <Batchol_HostBlocked.hpp>
#include <Batchol_HostPack.hpp>
#include <Batchol_HostUnwound.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace batchol::detail::host;
using T = double;
using V = vec_t<T>;
using M = mask_t<T>;
constexpr int W = width_v<T>;

template <class F>
double median_cycles(F&& f, int reps) {
  std::vector<double> r;
  for (int t = 0; t < 9; ++t) {
    const unsigned long long t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) f();
    r.push_back(double(__rdtsc() - t0) / (double(reps) * W));
  }
  std::sort(r.begin(), r.end());
  return r[r.size() / 2];
}

template <int N>
void run() {
  const int n = N;
  std::vector<T> a(std::size_t(W) * n * n);
  for (int m = 0; m < W; ++m)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a[(std::size_t(m) * n + i) * n + j] = i == j ? T(n + m) : T(0.5) / T(1 + i + j);
  batchol::detail::Problem<T> pr;
  pr.batch = W, pr.n = n, pr.a = a.data(), pr.a_bs = n * n, pr.a_rs = n, pr.a_cs = 1;
  const std::ptrdiff_t E = tri(n, 0);
  std::vector<V> src(E), l(E), rd(n);
  const Pack<T> pk(pr, 0);
  if (pk.a_access != Access::Lines) std::puts("not the lines transfer");
  pk.load_lower(n, src.data());
  const int reps = 200000 / (n * n) + 100;
  const double in = median_cycles(
      [&] {
        pk.load_out(n, l.data());
        asm volatile("" ::"r"(l.data()) : "memory");
      },
      reps);
  const double out = median_cycles(
      [&] {
        pk.store_out(n, l.data(), splat_mask<T>(-1), false);
        asm volatile("" ::"r"(a.data()) : "memory");
      },
      reps);
  const double copy = median_cycles(
      [&] {
        std::memcpy(l.data(), src.data(), E * sizeof(V));
        asm volatile("" ::"r"(l.data()) : "memory");
      },
      reps);
  const double kern = median_cycles(
      [&] {
        std::memcpy(l.data(), src.data(), E * sizeof(V));
        M info = splat_mask<T>(0);
        if constexpr (N <= 16)
          Unwound<T, N, 1>::template potrf<false>(n, l.data(), rd.data(), &info);
        else
          Blocked<T>::template potrf<false>(n, l.data(), rd.data(), &info);
        asm volatile("" ::"r"(l.data()) : "memory");
      },
      reps);
  std::printf(
      "n=%2d  in %6.1f  out %6.1f  kernel %6.1f (with its copy %6.1f, copy %5.1f)  sum %6.1f TSC "
      "cycles per matrix\n",
      n, in, out, kern - copy, kern, copy, in + out + kern - copy);
}

int main() {
  std::printf("double, W = %d, TSC cycles per matrix, medians of 9\n", W);
  run<16>();
  run<24>();
  run<32>();
}
