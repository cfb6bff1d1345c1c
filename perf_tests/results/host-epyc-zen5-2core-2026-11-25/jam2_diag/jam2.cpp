// Archived probe (not built by CMake). Build from this folder:
// g++ -O3 -march=native -std=c++17 -fopenmp -I../../../../src -I$KOKKOS_INCLUDE -DPREC=double
// jam2.cpp Probe: Blocked potrf with the diagonal tiles of two packs interleaved, against two
// single-pack calls; one pair of packs in L1, TSC cycles per matrix.
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
using B = Blocked<T>;
constexpr int NB = 4, RB = 4;

template <int C, bool Fast>
inline __attribute__((always_inline)) void diag_tile2(V* const (&L)[2], int j0, V (&ld)[2][NB][NB],
                                                      V (&s)[2][NB], V (&r)[2][NB],
                                                      V* const (&RD)[2], M (&info)[2]) {
  V acc[2][C][C];
  const V* row[2][C];
  for (int p = 0; p < 2; ++p)
    for (int a = 0; a < C; ++a) row[p][a] = L[p] + tri(j0 + a, 0);
  for (int p = 0; p < 2; ++p)
    for (int a = 0; a < C; ++a)
      for (int c = 0; c < C; ++c)
        if (c <= a) acc[p][a][c] = row[p][a][j0 + c];
  for (int k = 0; k < j0; ++k)
    for (int a = 0; a < C; ++a)
      for (int c = 0; c < C; ++c)
        if (c <= a)
          for (int p = 0; p < 2; ++p) acc[p][a][c] -= row[p][a][k] * row[p][c][k];
  for (int c = 0; c < C; ++c) {
    V d[2];
    for (int p = 0; p < 2; ++p) {
      d[p] = acc[p][c][c];
      for (int e = 0; e < C; ++e)
        if (e < c) d[p] -= acc[p][c][e] * acc[p][c][e];
    }
    for (int p = 0; p < 2; ++p) d[p] = checked_pivot<T, Fast>(d[p], j0 + c + 1, info[p]);
    for (int p = 0; p < 2; ++p) s[p][c] = vsqrt(d[p]);
    for (int p = 0; p < 2; ++p) r[p][c] = splat<T>(T(1)) / s[p][c];
    for (int p = 0; p < 2; ++p) {
      RD[p][j0 + c] = r[p][c];
      acc[p][c][c] = s[p][c];
    }
    for (int a = 0; a < C; ++a) {
      if (a <= c) continue;
      for (int p = 0; p < 2; ++p) {
        V v = acc[p][a][c];
        for (int e = 0; e < C; ++e)
          if (e < c) v -= acc[p][a][e] * acc[p][c][e];
        acc[p][a][c] = v * r[p][c];
      }
    }
  }
  for (int p = 0; p < 2; ++p)
    for (int a = 0; a < C; ++a)
      for (int c = 0; c < C; ++c)
        if (c <= a) {
          L[p][tri(j0 + a, j0 + c)] = acc[p][a][c];
          ld[p][a][c] = acc[p][a][c];
        }
}

template <int C, bool Fast>
inline __attribute__((always_inline)) void panel2(V* const (&L)[2], int n, int j0,
                                                  V* const (&RD)[2], M (&info)[2]) {
  V ld[2][NB][NB], s[2][NB], r[2][NB];
  diag_tile2<C, Fast>(L, j0, ld, s, r, RD, info);
  for (int p = 0; p < 2; ++p) {
    int i0 = j0 + C;
    for (; i0 + RB <= n; i0 += RB) B::template panel_tile<RB, C>(L[p], i0, j0, ld[p], r[p]);
    switch (n - i0) {
      case 3:
        B::template panel_tile<3, C>(L[p], i0, j0, ld[p], r[p]);
        break;
      case 2:
        B::template panel_tile<2, C>(L[p], i0, j0, ld[p], r[p]);
        break;
      case 1:
        B::template panel_tile<1, C>(L[p], i0, j0, ld[p], r[p]);
        break;
      default:
        break;
    }
  }
}

template <bool Fast>
__attribute__((noinline)) void potrf2(int n, V* l, V* rdiag, M* info) {
  const std::ptrdiff_t E = tri(n, 0);
  V* const L[2] = {l, l + E};
  V* const RD[2] = {rdiag, rdiag + n};
  M(&in)[2] = *reinterpret_cast<M(*)[2]>(info);
  int j0 = 0;
  for (; j0 + NB <= n; j0 += NB) panel2<NB, Fast>(L, n, j0, RD, in);
  switch (n - j0) {
    case 3:
      panel2<3, Fast>(L, n, j0, RD, in);
      break;
    case 2:
      panel2<2, Fast>(L, n, j0, RD, in);
      break;
    case 1:
      panel2<1, Fast>(L, n, j0, RD, in);
      break;
    default:
      break;
  }
}

template <class F>
double med(F&& f, int reps, int mats) {
  std::vector<double> r;
  for (int t = 0; t < 11; ++t) {
    auto t0 = __rdtsc();
    for (int k = 0; k < reps; ++k) f();
    r.push_back(double(__rdtsc() - t0) / (double(reps) * mats));
  }
  std::sort(r.begin(), r.end());
  return r[5];
}
int main() {
  for (int N : {17, 20, 24, 28, 32, 48, 64}) {
    const std::ptrdiff_t E = tri(N, 0);
    std::vector<V> src(2 * E), l(2 * E), rd(2 * N);
    for (int q = 0; q < 2; ++q)
      for (int j = 0; j < N; ++j)
        for (int i = j; i < N; ++i)
          src[q * E + tri(i, j)] = splat<T>(i == j ? T(N + 1 + q) : T(0.5) / T(1 + i + j + q));
    const int reps = 1000000 / (N * N) + 50;
    double copy = med(
        [&] {
          std::memcpy(l.data(), src.data(), 2 * E * sizeof(V));
          asm volatile("" ::"r"(l.data()) : "memory");
        },
        reps, 2 * W);
    double one = med(
        [&] {
          std::memcpy(l.data(), src.data(), 2 * E * sizeof(V));
          M info[2] = {splat_mask<T>(0), splat_mask<T>(0)};
          B::template potrf<false>(N, l.data(), rd.data(), &info[0]);
          B::template potrf<false>(N, l.data() + E, rd.data() + N, &info[1]);
          asm volatile("" ::"r"(l.data()), "r"(info) : "memory");
        },
        reps, 2 * W);
    std::vector<V> ref(l);
    double two = med(
        [&] {
          std::memcpy(l.data(), src.data(), 2 * E * sizeof(V));
          M info[2] = {splat_mask<T>(0), splat_mask<T>(0)};
          potrf2<false>(N, l.data(), rd.data(), info);
          asm volatile("" ::"r"(l.data()), "r"(info) : "memory");
        },
        reps, 2 * W);
    const bool same = std::memcmp(ref.data(), l.data(), 2 * E * sizeof(V)) == 0;
    const double fl = double(N) * N * N / 6;
    printf(
        "n=%d  one pack per call %.0f  two diag tiles jammed %.0f cycles/matrix  ratio %.3f  (FMA "
        "bound %.0f)  bits %s\n",
        N, one - copy, two - copy, (two - copy) / (one - copy), fl / 2 / W,
        same ? "same" : "DIFFER");
  }
}
