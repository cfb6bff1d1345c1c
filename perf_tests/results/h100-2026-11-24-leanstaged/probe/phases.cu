// Probe: where a staged-solve block spends its time (copy into shared memory,
// then the substitutions), from %globaltimer stamps per block. The kernel is
// the library's staged kernel (Batchol_CudaStagedSolve.cuh) with stamps added.
// phases_walk.cu: the same with the first copy loop (a walk from row to row).
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc phases.cu -o phases && ./phases
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace batchol::cuda;

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class T, int MW, bool GROUPED>
__global__ void __launch_bounds__(128) stamped(const Batch<T> p, int mpb, unsigned long long* st) {
  const unsigned long long t0 = now();
  extern __shared__ __align__(16) unsigned char bytes[];
  T* const tri = reinterpret_cast<T*>(bytes);
  const int n = p.n, size = solve_detail::packed_size(n);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s0 = std::int64_t(blockIdx.x) * mpb;
  const int per = 128 / mpb;
  const bool left = p.a_bs == 1;
  const int sys = left ? t % mpb : t / per, k = left ? t / mpb : t % per;
  if (sys < mpb && s0 + sys < p.batch) {
    const T* const a = p.a + (s0 + sys) * p.a_bs;
    T* const dst = tri + sys * size;
#pragma unroll 4
    for (int e = k; e < size; e += per) {
      const int r = packed_row(e);
      const int c = e - r * (r + 1) / 2;
      __pipeline_memcpy_async(dst + e, a + r * p.a_rs + c * p.a_cs, sizeof(T));
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const unsigned long long t1 = now();
  const std::int64_t s = s0 + warp;
  if (warp >= mpb || s >= p.batch) return;
  using W = WarpSolve<T, 32 * MW>;
  T* const Lp = tri + warp * size;
  T dl[MW];
  W::diag_inv(solve_detail::Packed<T>{Lp}, n, lane, dl);
  if constexpr (GROUPED) {
    for (int m = 0; m < MW; ++m) {
      const int r = lane + 32 * m;
      if (r < n) Lp[solve_detail::packed(r, r)] = dl[m];
    }
    __syncwarp();
  }
  T* const b = p.b + s * p.b_bs;
  T y[MW];
  for (int m = 0; m < MW; ++m) {
    const int r = lane + 32 * m;
    y[m] = r < n ? b[r * p.b_rs] : T(0);
  }
  if constexpr (GROUPED) {
    W::forward_grouped(Lp, n, lane, y);
    const unsigned long long tf = now();
    W::backward_grouped(Lp, n, lane, y);
    if (lane == 0 && warp == 0) st[4 * blockIdx.x + 3] = tf;
  } else {
    W::forward_packed(Lp, n, lane, dl, y);
    const unsigned long long tf = now();
    W::backward_packed(Lp, n, lane, dl, y);
    if (lane == 0 && warp == 0) st[4 * blockIdx.x + 3] = tf;
  }
  for (int m = 0; m < MW; ++m) {
    const int r = lane + 32 * m;
    if (r < n) b[r * p.b_rs] = y[m];
  }
  if (lane == 0 && warp == 0) {
    st[4 * blockIdx.x + 0] = t0;
    st[4 * blockIdx.x + 1] = t1;
    st[4 * blockIdx.x + 2] = now();
  }
}

template <class T, int MW, bool GROUPED>
void run(int n, bool left, int mpb, std::int64_t batch) {
  const std::int64_t nn = std::int64_t(n) * n;
  T *a, *b;
  unsigned long long* st;
  check(cudaMalloc(&a, batch * nn * sizeof(T)), "a");
  check(cudaMalloc(&b, batch * n * sizeof(T)), "b");
  std::vector<T> h(batch * nn);
  for (std::int64_t i = 0; i < batch; ++i)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const std::int64_t at = left ? i + batch * (r + std::int64_t(n) * c) : i * nn + r * n + c;
        h[at] = r == c ? T(2) : T(0.5) / T(n);
      }
  check(cudaMemcpy(a, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "a");
  check(cudaMemset(b, 0, batch * n * sizeof(T)), "b");
  Batch<T> p;
  p.a = a;
  p.n = n;
  p.batch = batch;
  p.a_bs = left ? 1 : nn;
  p.a_rs = left ? batch : n;
  p.a_cs = left ? batch * n : 1;
  p.b = b;
  p.b_bs = left ? 1 : n;
  p.b_rs = left ? batch : 1;
  p.b_cs = batch * n;
  p.nrhs = 1;
  const std::int64_t blocks = (batch + mpb - 1) / mpb;
  check(cudaMalloc(&st, blocks * 4 * sizeof(unsigned long long)), "st");
  const int shm = int((std::size_t(mpb) * solve_detail::packed_size(n) + 32) * sizeof(T));
  check(cudaFuncSetAttribute(stamped<T, MW, GROUPED>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             shm),
        "attr");
  for (int rep = 0; rep < 3; ++rep)
    stamped<T, MW, GROUPED><<<unsigned(blocks), 128, shm>>>(p, mpb, st);
  check(cudaDeviceSynchronize(), "run");
  std::vector<unsigned long long> hs(blocks * 4);
  check(cudaMemcpy(hs.data(), st, hs.size() * 8, cudaMemcpyDeviceToHost), "st");
  unsigned long long lo = ~0ull, hi = 0;
  double copy = 0, fwd = 0, bwd = 0;
  for (std::int64_t i = 0; i < blocks; ++i) {
    lo = std::min(lo, hs[4 * i]);
    hi = std::max(hi, hs[4 * i + 2]);
    copy += double(hs[4 * i + 1] - hs[4 * i]);
    fwd += double(hs[4 * i + 3] - hs[4 * i + 1]);
    bwd += double(hs[4 * i + 2] - hs[4 * i + 3]);
  }
  const double span = double(hi - lo);
  // mean resident blocks = total block time / span
  std::printf(
      "%-6s %-5s n=%3d mpb=%d %-8s  %7.2f ns/system  per block: copy %6.0f ns  forward %6.0f ns  "
      "backward %6.0f ns  resident blocks %.1f (%.2f/SM)\n",
      sizeof(T) == 8 ? "double" : "float", left ? "left" : "right", n, mpb,
      GROUPED ? "grouped" : "seq", span / batch, copy / blocks, fwd / blocks, bwd / blocks,
      (copy + fwd + bwd) / span, (copy + fwd + bwd) / span / 132);
  check(cudaFree(a), "a");
  check(cudaFree(b), "b");
  check(cudaFree(st), "st");
}

int main() {
  const std::int64_t batch = 10000;
  run<double, 2, false>(56, false, 1, batch);
  run<double, 2, true>(56, false, 1, batch);
  run<double, 3, false>(72, false, 1, batch);
  run<double, 4, false>(100, false, 1, batch);
  run<double, 4, true>(100, false, 1, batch);
  run<double, 4, false>(100, true, 4, batch);
  run<double, 4, false>(100, true, 1, batch);
  run<float, 4, false>(100, false, 1, batch);
  run<float, 4, true>(100, false, 1, batch);
  run<double, 2, false>(40, false, 2, batch);
  return 0;
}
