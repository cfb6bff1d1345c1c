// Archived probe (not built by CMake): LayoutRight dense transfers of one pack at n < W
// (load_dense / store_dense: 8 x 8 transposes of whole matrices), data in L1/L2, TSC cycles per
// matrix. Build from this folder: g++ -O3 -march=native -std=c++17 -I../../../../src
// -I$KOKKOS_INCLUDE -DPREC=double dense.cpp
#include <x86intrin.h>
#include <Batchol_HostPack.hpp>
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
  std::vector<V> l(E);
  const Pack<T> pk(pr, 0);
  if (pk.a_access != Access::Dense) std::puts("not dense");
  const int reps = 20000;
  double in = med(
      [&] {
        pk.template load<N>(n, l.data());
        asm volatile("" ::"r"(l.data()) : "memory");
      },
      reps);
  double out = med(
      [&] {
        pk.template store<N>(n, l.data(), splat_mask<T>(-1), false);
        asm volatile("" ::"r"(a.data()) : "memory");
      },
      reps);
  std::printf("n=%d in %.1f out %.1f TSC cycles per matrix\n", n, in, out);
}
int main() {
  run<4>();
  run<5>();
  run<6>();
  run<7>();
}
