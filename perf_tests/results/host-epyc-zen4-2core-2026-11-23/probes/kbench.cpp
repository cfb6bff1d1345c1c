#include <Batchol_HostBlocked.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace batchol::detail::host;
using T = double;
using V = vec_t<T>;
using M = mask_t<T>;
constexpr int W = width_v<T>;
template <class K>
double time_kernel(int n, int reps) {
  const std::ptrdiff_t E = tri(n, 0);
  std::vector<V> src(E), l(E), rd(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) src[tri(i, j)] = splat<T>(i == j ? T(n) : T(0.5) / (1 + i + j));
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k) {
      std::memcpy(l.data(), src.data(), E * sizeof(V));
      M info = splat_mask<T>(0);
      K::template potrf<false>(n, l.data(), rd.data(), &info);
      asm volatile("" ::"r"(l.data()) : "memory");
    }
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  }
  return best;
}
double time_copy(int n, int reps) {
  const std::ptrdiff_t E = tri(n, 0);
  std::vector<V> src(E), l(E);
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k) {
      std::memcpy(l.data(), src.data(), E * sizeof(V));
      asm volatile("" ::"r"(l.data()) : "memory");
    }
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  }
  return best;
}
template <int N>
void unw() {
  double t = time_kernel<Unwound<T, N, 1>>(N, 20000), c = time_copy(N, 20000);
  std::printf("unwound n=%d  %.1f ns/pack (copy %.1f)  %.2f ns/matrix  flop-floor %.2f ns/matrix\n",
              N, t, c, (t - c) / W, N * N * N / 6.0 / W / 2.6);
}
int main() {
  unw<8>();
  unw<12>();
  unw<16>();
  for (int n : {17, 20, 24, 28, 31, 32, 48, 64}) {
    double t = time_kernel<Blocked<T>>(n, 5000), c = time_copy(n, 5000);
    std::printf(
        "blocked n=%d  %.1f ns/pack (copy %.1f)  %.2f ns/matrix  flop-floor %.2f ns/matrix\n", n, t,
        c, (t - c) / W, n * n * n / 6.0 / W / 2.6);
  }
}
