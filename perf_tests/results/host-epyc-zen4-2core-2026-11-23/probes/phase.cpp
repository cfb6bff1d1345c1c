#include <x86intrin.h>
#include <Batchol_HostPath.hpp>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace batchol::detail;
using namespace batchol::detail::host;
using T = double;
using V = vec_t<T>;
using M = mask_t<T>;
constexpr int W = width_v<T>;
template <class K>
void run(int n, std::int64_t batch, std::int64_t kb, int pf) {
  const int R = 3;
  std::vector<std::vector<T>> raw(R, std::vector<T>(std::size_t(batch) * n * n + 8));
  std::vector<T*> bufs;
  for (auto& r : raw)
    bufs.push_back(reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(r.data()) + 63) &
                                        ~std::uintptr_t(63)));
  for (T* a : bufs)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (std::int64_t b = 0; b < batch; ++b)
          a[b + batch * (i + std::int64_t(n) * j)] = i == j ? n : 0.5 / (1 + i + j);
  const std::int64_t E = tri(n, 0);
  const std::int64_t ppc = std::max<std::int64_t>(8, (kb << 10) / (E * 64));
  const std::int64_t npacks = batch / W;
  double tin = 0, tk = 0, tout = 0, ttot = 0;
  int reps = 0;
  std::vector<V> rd(n);
  for (int rep = 0; rep < 6; ++rep) {
    Problem<T> pr;
    pr.batch = batch;
    pr.n = n;
    pr.a = bufs[rep % R];
    pr.a_bs = 1;
    pr.a_rs = batch;
    pr.a_cs = batch * n;
    std::vector<int> info(batch);
    pr.info = info.data();
    pr.info_s = 1;
    Stage<T> st;
    std::uint64_t c_in = 0, c_k = 0, c_out = 0;
    const std::uint64_t t0 = __rdtsc();
    for (std::int64_t p0 = 0; p0 < npacks; p0 += ppc) {
      const std::int64_t cnt = std::min(ppc, npacks - p0);
      const std::int64_t next = std::min(ppc, npacks - p0 - cnt);
      st.reserve(pr, cnt);
      std::uint64_t a = __rdtsc();
      st.in(pr, p0, cnt, false);
      std::uint64_t b = __rdtsc();
      for (std::int64_t q = 0; q < cnt; ++q) {
        if (pf && next > 0) st.prefetch(pr, p0 + cnt, next, false, q, cnt);
        M inf = splat_mask<T>(0);
        K::template potrf<false>(n, st.a(q), rd.data(), &inf);
        st.ok(q) = inf == splat_mask<T>(0);
      }
      std::uint64_t c = __rdtsc();
      st.out(pr, p0, cnt, true, false, getenv("NT") != nullptr);
      std::uint64_t d = __rdtsc();
      c_in += b - a;
      c_k += c - b;
      c_out += d - c;
    }
    const std::uint64_t t1 = __rdtsc();
    if (rep >= 2) {
      tin += c_in;
      tk += c_k;
      tout += c_out;
      ttot += t1 - t0;
      ++reps;
    }
  }
  const double m = double(reps) * npacks * W;
  std::printf(
      "n=%d batch=%lld kb=%lld pf=%d: cycles/matrix in %.0f kernel %.0f out %.0f total %.0f\n", n,
      (long long)batch, (long long)kb, pf, tin / m, tk / m, tout / m, ttot / m);
}
int main(int argc, char** argv) {
  int n = std::atoi(argv[1]);
  std::int64_t batch = std::atoll(argv[2]), kb = std::atoll(argv[3]);
  int pf = std::atoi(argv[4]);
  if (n == 12)
    run<Unwound<T, 12, 1>>(n, batch, kb, pf);
  else
    run<Blocked<T>>(n, batch, kb, pf);
}
