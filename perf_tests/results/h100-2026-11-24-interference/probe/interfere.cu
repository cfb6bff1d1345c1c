// Probe: does a staged-solve warp's step time depend on what the other blocks
// of its SM do? The library's staged kernel body (copy, then
// WarpSolve::forward_packed / backward_packed) with clock64 stamps, run
//   copy:  as the library (asynchronous copies from global memory), or
//   fill:  the same triangle written into shared memory from registers
//          (no global reads, so no asynchronous copies in flight anywhere),
// at batch 132 (about one block per SM: nothing else on the SM), 660 and
// 10000. Plus the bare chain of one step (multiply, shuffle, FMA) timed
// alone by one warp.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc interfere.cu -o interfere && ./interfere
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace batchol::cuda;

template <class T, int MW, bool COPY>
__global__ void __launch_bounds__(128) stamped(const Batch<T> p, long long* st) {
  const long long c0 = clock64();
  extern __shared__ __align__(16) unsigned char bytes[];
  T* const tri = reinterpret_cast<T*>(bytes);
  const int n = p.n, size = solve_detail::packed_size(n);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s0 = blockIdx.x;
  if constexpr (COPY) {
    const T* const a = p.a + s0 * p.a_bs;
    int r = 0, c = t;
    for (int e = t; e < size; e += 128) {
      while (c > r) c -= ++r;
      __pipeline_memcpy_async(tri + e, a + r * p.a_rs + c * p.a_cs, sizeof(T));
      c += 128;
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else {
    int r = 0, c = t;
    for (int e = t; e < size; e += 128) {
      while (c > r) c -= ++r;
      tri[e] = r == c ? T(2) : T(0.5) / T(n);
      c += 128;
    }
  }
  __syncthreads();
  const long long c1 = clock64();
  if (warp != 0) return;
  using W = WarpSolve<T, 32 * MW>;
  T dl[MW];
  W::diag_inv(solve_detail::Packed<T>{tri}, n, lane, dl);
  T* const b = p.b + s0 * p.b_bs;
  T y[MW];
#pragma unroll
  for (int m = 0; m < MW; ++m) {
    const int r = lane + 32 * m;
    y[m] = r < n ? b[r * p.b_rs] : T(0);
  }
  W::forward_packed(tri, n, lane, dl, y);
  const long long c2 = clock64();
  W::backward_packed(tri, n, lane, dl, y);
  const long long c3 = clock64();
#pragma unroll
  for (int m = 0; m < MW; ++m) {
    const int r = lane + 32 * m;
    if (r < n) b[r * p.b_rs] = y[m];
  }
  if (lane == 0) {
    st[4 * blockIdx.x + 0] = c1 - c0;
    st[4 * blockIdx.x + 1] = c2 - c1;
    st[4 * blockIdx.x + 2] = c3 - c2;
  }
}

template <class T, int MW, bool COPY>
void run(int n, std::int64_t batch) {
  const std::int64_t nn = std::int64_t(n) * n;
  T *a, *b;
  long long* st;
  check(cudaMalloc(&a, batch * nn * sizeof(T)), "a");
  check(cudaMalloc(&b, batch * n * sizeof(T)), "b");
  std::vector<T> h(batch * nn);
  for (std::int64_t i = 0; i < batch; ++i)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) h[i * nn + r * n + c] = r == c ? T(2) : T(0.5) / T(n);
  check(cudaMemcpy(a, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "a");
  check(cudaMemset(b, 0, batch * n * sizeof(T)), "b");
  Batch<T> p;
  p.a = a;
  p.n = n;
  p.batch = batch;
  p.a_bs = nn;
  p.a_rs = n;
  p.a_cs = 1;
  p.b = b;
  p.b_bs = n;
  p.b_rs = 1;
  p.b_cs = batch * n;
  p.nrhs = 1;
  check(cudaMalloc(&st, batch * 4 * sizeof(long long)), "st");
  const int shm = int((solve_detail::packed_size(n) + 32) * sizeof(T));
  check(
      cudaFuncSetAttribute(stamped<T, MW, COPY>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm),
      "attr");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "ev");
  check(cudaEventCreate(&e1), "ev");
  std::vector<float> ms;
  for (int rep = 0; rep < 5; ++rep) {
    check(cudaEventRecord(e0), "rec");
    stamped<T, MW, COPY><<<unsigned(batch), 128, shm>>>(p, st);
    check(cudaEventRecord(e1), "rec");
    check(cudaEventSynchronize(e1), "run");
    float x;
    check(cudaEventElapsedTime(&x, e0, e1), "el");
    ms.push_back(x);
  }
  std::sort(ms.begin(), ms.end());
  std::vector<long long> hs(batch * 4);
  check(cudaMemcpy(hs.data(), st, hs.size() * 8, cudaMemcpyDeviceToHost), "st");
  double cp = 0, fw = 0, bw = 0;
  for (std::int64_t i = 0; i < batch; ++i) {
    cp += double(hs[4 * i]);
    fw += double(hs[4 * i + 1]);
    bw += double(hs[4 * i + 2]);
  }
  std::printf(
      "%-6s n=%3d %-4s batch=%6lld  %8.2f ns/system  cycles per block: copy %7.0f  "
      "forward %7.0f (%5.1f/step)  backward %7.0f (%5.1f/step)\n",
      sizeof(T) == 8 ? "double" : "float", n, COPY ? "copy" : "fill", (long long)batch,
      1e6 * ms[2] / batch, cp / batch, fw / batch, fw / batch / n, bw / batch, bw / batch / n);
  check(cudaFree(a), "a");
  check(cudaFree(b), "b");
  check(cudaFree(st), "st");
}

// One warp, the chain of one forward step: y_s scaled (MUL), shuffled from
// lane s (SHFL), subtracted (FMA); MUL = false drops the multiply.
template <class T, bool MUL>
__global__ void chain(T* out, T d, T l, int steps, long long* cyc) {
  T y = T(threadIdx.x) * T(1e-3);
  const long long c0 = clock64();
#pragma unroll 32
  for (int s = 0; s < steps; ++s) {
    const T v = MUL ? y * d : y;
    const T yk = __shfl_sync(0xffffffffu, v, s & 31);
    y -= l * yk;
  }
  const long long c1 = clock64();
  out[threadIdx.x] = y;
  if (threadIdx.x == 0) *cyc = c1 - c0;
}

template <class T, bool MUL>
void run_chain() {
  T* out;
  long long *cyc, h = 0;
  check(cudaMalloc(&out, 32 * sizeof(T)), "out");
  check(cudaMalloc(&cyc, sizeof(long long)), "cyc");
  for (int rep = 0; rep < 3; ++rep) chain<T, MUL><<<1, 32>>>(out, T(0.5), T(1e-3), 3200, cyc);
  check(cudaDeviceSynchronize(), "chain");
  check(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost), "cyc");
  std::printf("chain %-6s %s: %.1f cycles per step\n", sizeof(T) == 8 ? "double" : "float",
              MUL ? "mul+shfl+fma" : "shfl+fma    ", double(h) / 3200);
  check(cudaFree(out), "out");
  check(cudaFree(cyc), "cyc");
}

int main(int argc, char** argv) {
  if (argc > 1) {  // one configuration, for ncu: double n = 100, no copy
    run<double, 4, false>(100, std::atoll(argv[1]));
    return 0;
  }
  run_chain<double, true>();
  run_chain<double, false>();
  run_chain<float, true>();
  run_chain<float, false>();
  for (std::int64_t batch : {132, 660, 10000}) {
    run<double, 4, true>(100, batch);
    run<double, 4, false>(100, batch);
    run<double, 2, true>(56, batch);
    run<double, 2, false>(56, batch);
    run<float, 4, true>(100, batch);
    run<float, 4, false>(100, batch);
  }
  return 0;
}
