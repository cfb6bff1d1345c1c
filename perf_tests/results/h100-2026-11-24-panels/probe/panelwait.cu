// Probe: how long does the forward substitution wait for each column panel
// of the bulk copies by panels (the staged kernel's bulk branch with one
// system per block, as in Batchol_CudaStagedSolve.cuh), and when does it
// reach each panel? clock64 stamps per block: copies issued, per panel P
// the cycle the solve reached it and the cycles it waited there, and the end.
// Double, LayoutRight, nrhs 1, batch 132 (about one block per SM) and 10000.
// Variants: ONE_FENCE (one fence.mbarrier_init after all inits instead of
// one per barrier: no difference, panelwait_2.txt) and SKIP0 (the solving
// warp issues no copies, so it reaches panel 0 early: panel 0 arrives no
// sooner under load, panelwait_3.txt). panelwait_1.txt: the first form.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc panelwait.cu -o panelwait && ./panelwait
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <cstdio>
#include <vector>

using namespace batchol::cuda;

constexpr int kStamps = 11;  // issued, reach[4], waited[4], end, synced

template <int MW, bool ONE_FENCE, bool SKIP0 = false>
__global__ void __launch_bounds__(128) probe(const Batch<double> p, long long* st) {
  constexpr int E = 2;
  const long long c0 = clock64();
  extern __shared__ __align__(16) unsigned char bytes[];
  double* const tri = reinterpret_cast<double*>(bytes);
  __shared__ __align__(8) unsigned long long bars[4];
  const auto bar0 = static_cast<unsigned>(__cvta_generic_to_shared(bars));
  const int n = p.n, t = threadIdx.x, warp = t / 32, lane = t % 32, np = (n + 31) / 32;
  const std::int64_t s0 = blockIdx.x;
  if (t == 0)
    for (int P = 0; P < np; ++P) {
      const int m = n - 32 * P < 31 ? n - 32 * P : 31, q = m / E, rm = m % E;
      const int part = m * (m + 1) / 2 - q * E * (E - 1) / 2 - rm * (rm + 1) / 2;
      const int full = n - 32 * P - 31 > 0 ? n - 32 * P - 31 : 0;
      staged_detail::init(bar0 + 8 * P, 129);
      if (!ONE_FENCE) staged_detail::fence_init();
      staged_detail::arrive_expect(bar0 + 8 * P, unsigned((32 * full + part) * 8));
    }
  if (ONE_FENCE && t == 0) staged_detail::fence_init();
  __syncthreads();
  const long long synced = clock64();
  for (int P = 0; P < np; ++P) {
    // SKIP0: the solving warp issues none (rows over threads 32..127)
    for (int r = SKIP0 ? t - 32 : t; r < n; r += SKIP0 ? 96 : 128) {
      if (r < 0) break;
      const int c0c = 32 * P;
      if (r < c0c) continue;
      const int len = r + 1 - c0c < 32 ? r + 1 - c0c : 32, whole = len / E * E;
      if (whole > 0)
        staged_detail::bulk_copy(tri + solve_detail::row_start<E>(r) + c0c,
                                 p.a + s0 * p.a_bs + r * p.a_rs + c0c, unsigned(whole * 8),
                                 bar0 + 8 * P);
      for (int c = c0c + whole; c < c0c + len; ++c)
        __pipeline_memcpy_async(tri + solve_detail::row_start<E>(r) + c,
                                p.a + s0 * p.a_bs + r * p.a_rs + c, 8);
    }
    staged_detail::arrive_after_copies(bar0 + 8 * P);
  }
  __pipeline_commit();
  const long long issued = clock64();
  if (warp > 0) {
    __pipeline_wait_prior(0);
    return;
  }
  long long reach[4] = {0, 0, 0, 0}, waited[4] = {0, 0, 0, 0};
  WarpSolve<double, 32 * MW>::template solve_all<true, true, E>(
      tri, n, lane, p.b + s0 * p.b_bs, p.b_rs, p.b_cs, 1, [&](int P) {
        if (P >= np) return;
        const long long a = clock64();
        staged_detail::wait_phase0(bar0 + 8 * P);
        const long long b = clock64();
        if (reach[P] == 0) reach[P] = a - c0, waited[P] = b - a;
      });
  const long long end = clock64();
  if (lane == 0) {
    long long* o = st + s0 * kStamps;
    o[0] = issued - c0;
    for (int P = 0; P < 4; ++P) o[1 + P] = reach[P], o[5 + P] = waited[P];
    o[9] = end - c0;
    o[10] = synced - c0;
  }
}

template <int MW, bool ONE_FENCE, bool SKIP0 = false>
void run(int n, long long batch) {
  const int size = solve_detail::row_start<2>(n);
  Batch<double> p{};
  p.n = n;
  p.batch = batch;
  p.nrhs = 1;
  p.a_bs = std::int64_t(n) * n, p.a_rs = n, p.a_cs = 1;
  p.b_bs = n, p.b_rs = 1, p.b_cs = n;
  std::vector<double> a(std::size_t(batch) * n * n, 0.0), b(std::size_t(batch) * n, 1.0);
  for (long long s = 0; s < batch; ++s)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c <= r; ++c) a[s * n * n + r * n + c] = r == c ? 2.0 : 1.0 / (4.0 * n);
  double *da, *db;
  long long* dst;
  check(cudaMalloc(&da, a.size() * 8), "malloc");
  check(cudaMalloc(&db, b.size() * 8), "malloc");
  check(cudaMalloc(&dst, batch * kStamps * 8), "malloc");
  check(cudaMemcpy(da, a.data(), a.size() * 8, cudaMemcpyHostToDevice), "copy");
  p.a = da, p.b = db;
  const std::size_t shm = (std::size_t(size) + solve_detail::packed_slack) * 8;
  check(cudaFuncSetAttribute((probe<MW, ONE_FENCE, SKIP0>),
                             cudaFuncAttributeMaxDynamicSharedMemorySize, int(shm)),
        "attr");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "ev");
  check(cudaEventCreate(&e1), "ev");
  float ms = 0;
  for (int rep = 0; rep < 3; ++rep) {
    check(cudaMemcpy(db, b.data(), b.size() * 8, cudaMemcpyHostToDevice), "copy");
    check(cudaEventRecord(e0), "rec");
    (probe<MW, ONE_FENCE, SKIP0>)<<<unsigned(batch), 128, shm>>>(p, dst);
    check(cudaEventRecord(e1), "rec");
    check(cudaEventSynchronize(e1), "sync");
    check(cudaEventElapsedTime(&ms, e0, e1), "el");
  }
  std::vector<long long> st(batch * kStamps);
  check(cudaMemcpy(st.data(), dst, st.size() * 8, cudaMemcpyDeviceToHost), "copy");
  double avg[kStamps] = {};
  for (long long s = 0; s < batch; ++s)
    for (int k = 0; k < kStamps; ++k) avg[k] += double(st[s * kStamps + k]) / batch;
  std::printf(
      "%s n=%3d batch=%6lld %7.2f ns/system | synced %5.0f | issued %6.0f | reach P0..3 %6.0f "
      "%6.0f %6.0f %6.0f"
      " | waited %6.0f %6.0f %6.0f %6.0f | end %6.0f cycles (block means)\n",
      SKIP0       ? "skip warp0"
      : ONE_FENCE ? "one fence "
                  : "per fence ",
      n, batch, ms * 1e6 / batch, avg[10], avg[0], avg[1], avg[2], avg[3], avg[4], avg[5], avg[6],
      avg[7], avg[8], avg[9]);
  cudaFree(da), cudaFree(db), cudaFree(dst);
}

int main() {
  for (long long batch : {132LL, 10000LL}) {
    for (int rep = 0; rep < 2; ++rep) {
      run<2, false>(56, batch);
      run<2, false, true>(56, batch);
      run<4, false>(100, batch);
      run<4, false, true>(100, batch);
      run<4, false>(128, batch);
      run<4, false, true>(128, batch);
    }
  }
}
