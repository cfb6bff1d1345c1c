// Archived probe (not built by CMake): throughput of the divider and square
// root on this core, scalar and 512-bit, double and float, and of the
// two-source shuffle of the in-register transposes, in TSC cycles per
// instruction (8 independent chains, so latency is hidden).
// Compile: g++ -O2 -march=native divider.cpp
#include <immintrin.h>
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr int kChains = 8, kIters = 1 << 16;

template <class F>
double cycles_per_op(F&& body, int ops_per_iter) {
  std::vector<double> r;
  for (int rep = 0; rep < 7; ++rep) {
    const unsigned long long t0 = __rdtsc();
    body();
    const unsigned long long t1 = __rdtsc();
    r.push_back(double(t1 - t0) / (double(kIters) * ops_per_iter));
  }
  std::sort(r.begin(), r.end());
  return r[r.size() / 2];
}

volatile double sink_d;
volatile float sink_f;

}  // namespace

int main() {
  // Scalar double: sqrt / div throughput (8 chains) and latency (1 chain).
  auto sqrtsd_tp = [] {
    __m128d x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = _mm_set_sd(2.0 + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm_sqrt_sd(x[c], x[c]);
    double s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm_cvtsd_f64(x[c]);
    sink_d = s;
  };
  auto divsd_tp = [] {
    __m128d x[kChains];
    const __m128d d = _mm_set_sd(1.0000001);
    for (int c = 0; c < kChains; ++c) x[c] = _mm_set_sd(2.0 + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm_div_sd(x[c], d);
    double s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm_cvtsd_f64(x[c]);
    sink_d = s;
  };
  auto sqrtpd_tp = [] {
    __m512d x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_set1_pd(2.0 + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm512_sqrt_pd(x[c]);
    double s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm512_reduce_add_pd(x[c]);
    sink_d = s;
  };
  auto divpd_tp = [] {
    __m512d x[kChains];
    const __m512d d = _mm512_set1_pd(1.0000001);
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_set1_pd(2.0 + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm512_div_pd(x[c], d);
    double s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm512_reduce_add_pd(x[c]);
    sink_d = s;
  };
  auto sqrtps_tp = [] {
    __m512 x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_set1_ps(2.0f + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm512_sqrt_ps(x[c]);
    float s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm512_reduce_add_ps(x[c]);
    sink_f = s;
  };
  auto divps_tp = [] {
    __m512 x[kChains];
    const __m512 d = _mm512_set1_ps(1.0000001f);
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_set1_ps(2.0f + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm512_div_ps(x[c], d);
    float s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm512_reduce_add_ps(x[c]);
    sink_f = s;
  };
  auto sqrtss_tp = [] {
    __m128 x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = _mm_set_ss(2.0f + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm_sqrt_ss(x[c]);
    float s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm_cvtss_f32(x[c]);
    sink_f = s;
  };
  auto divss_tp = [] {
    __m128 x[kChains];
    const __m128 d = _mm_set_ss(1.0000001f);
    for (int c = 0; c < kChains; ++c) x[c] = _mm_set_ss(2.0f + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] = _mm_div_ss(x[c], d);
    float s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm_cvtss_f32(x[c]);
    sink_f = s;
  };
  // The two-source shuffle of the in-register transposes (Batchol_HostSimd.hpp
  // transpose: W log2 W of them per W x W block).
  auto permt2pd_tp = [] {
    __m512d x[kChains];
    const __m512i idx = _mm512_set_epi64(15, 6, 13, 4, 11, 2, 9, 0);
    const __m512d y = _mm512_set1_pd(1.0);
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_set1_pd(2.0 + c);
    for (int i = 0; i < kIters; ++i)
      _Pragma("GCC unroll 8") for (int c = 0; c < kChains; ++c) x[c] =
          _mm512_permutex2var_pd(x[c], idx, y);
    double s = 0;
    for (int c = 0; c < kChains; ++c) s += _mm512_reduce_add_pd(x[c]);
    sink_d = s;
  };
  std::printf("TSC cycles per instruction, 8 independent chains (throughput):\n");
  std::printf("  double scalar sqrt %.2f  div %.2f\n", cycles_per_op(sqrtsd_tp, kChains),
              cycles_per_op(divsd_tp, kChains));
  std::printf("  double zmm    sqrt %.2f  div %.2f  (8 lanes)\n", cycles_per_op(sqrtpd_tp, kChains),
              cycles_per_op(divpd_tp, kChains));
  std::printf("  float  scalar sqrt %.2f  div %.2f\n", cycles_per_op(sqrtss_tp, kChains),
              cycles_per_op(divss_tp, kChains));
  std::printf("  float  zmm    sqrt %.2f  div %.2f  (16 lanes)\n",
              cycles_per_op(sqrtps_tp, kChains), cycles_per_op(divps_tp, kChains));
  std::printf("  zmm two-source shuffle (vpermt2pd) %.2f\n", cycles_per_op(permt2pd_tp, kChains));
  return 0;
}
