// Probe: the staged solve's copy phase alone (LayoutRight double, lower
// triangle into shared memory, 128 threads, one system per block), three
// forms: 8-byte asynchronous copies along the rows (the library's form after
// this session), 16-byte ones (rows at even offsets), and one bulk (TMA)
// copy per row completing on an mbarrier. Cycles of the copy phase per block
// and ns per system, at batch 132 (one block per SM), 660 and 10000.
//   nvcc -arch=sm_90 -std=c++17 -O3 copyforms.cu -o copyforms && ./copyforms
#include <cuda_pipeline_primitives.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

__device__ __forceinline__ int padded_row(int r) {  // even offsets: pairs of rows below r
  int o = 0;
  for (int i = 0; i < r; ++i) o += 2 * ((i + 2) / 2);
  return o;
}

template <int FORM>
__global__ void __launch_bounds__(128)
    copy_phase(const double* a, int n, long long* cyc, double* sink) {
  const long long c0 = clock64();
  extern __shared__ __align__(16) unsigned char bytes[];
  double* const tri = reinterpret_cast<double*>(bytes);
  __shared__ __align__(8) unsigned long long bar;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const double* const as = a + std::int64_t(blockIdx.x) * n * n;
  if constexpr (FORM == 0) {
    for (int r = warp; r < n; r += 4)
      for (int c = lane; c <= r; c += 32)
        __pipeline_memcpy_async(tri + r * (r + 1) / 2 + c, as + r * n + c, 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else if constexpr (FORM == 1) {
    for (int r = warp; r < n; r += 4) {
      const int o = padded_row(r);
      for (int c = 2 * lane; c <= r; c += 64)
        __pipeline_memcpy_async(tri + o + c, as + r * n + c, 16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else {
    const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
    if (t == 0) {
      unsigned total = 0;
      for (int r = 0; r < n; ++r) total += 16 * ((r + 2) / 2);
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
      asm volatile("fence.mbarrier_init.release.cluster;");
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(total));
    }
    __syncthreads();
    for (int r = t; r < n; r += 128) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tri + padded_row(r)));
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
          "[%3];" ::"r"(dst),
          "l"(as + r * n), "r"(16 * ((r + 2) / 2)), "r"(b)
          : "memory");
    }
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
          : "=r"(done)
          : "r"(b)
          : "memory");
  }
  __syncthreads();
  const long long c1 = clock64();
  if (t == 0) cyc[blockIdx.x] = c1 - c0;
  if (t == 0 && tri[n] == 12345.0) sink[0] = tri[1];
}

template <int FORM>
void run(const double* a, int n, int batch, long long* cyc, double* sink) {
  const int shm = (n * (n + 1) / 2 + n + 32) * 8;
  check(cudaFuncSetAttribute(copy_phase<FORM>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm),
        "attr");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "ev");
  check(cudaEventCreate(&e1), "ev");
  std::vector<float> ms;
  for (int r = 0; r < 7; ++r) {
    check(cudaEventRecord(e0), "rec");
    copy_phase<FORM><<<batch, 128, shm>>>(a, n, cyc, sink);
    check(cudaEventRecord(e1), "rec");
    check(cudaEventSynchronize(e1), "run");
    float x;
    check(cudaEventElapsedTime(&x, e0, e1), "el");
    if (r) ms.push_back(x);
  }
  std::sort(ms.begin(), ms.end());
  std::vector<long long> h(batch);
  check(cudaMemcpy(h.data(), cyc, batch * 8, cudaMemcpyDeviceToHost), "cyc");
  double mean = 0;
  for (long long x : h) mean += double(x);
  mean /= batch;
  const double tb = double(n) * (n + 1) / 2 * 8 * batch / (ms[ms.size() / 2] * 1e-3) / 1e12;
  std::printf(
      "form %-12s n=%3d batch=%6d  copy phase %7.0f cycles/block  %8.2f ns/system  %.2f TB/s\n",
      FORM == 0   ? "8B-rows"
      : FORM == 1 ? "16B-rows"
                  : "bulk-rows",
      n, batch, mean, 1e6 * ms[ms.size() / 2] / batch, tb);
}

int main() {
  const int maxb = 10000, maxn = 100;
  double *a, *sink;
  long long* cyc;
  check(cudaMalloc(&a, std::size_t(maxb) * maxn * maxn * 8), "a");
  check(cudaMemset(a, 0, std::size_t(maxb) * maxn * maxn * 8), "a");
  check(cudaMalloc(&sink, 8), "s");
  check(cudaMalloc(&cyc, maxb * 8), "c");
  for (int n : {56, 100})
    for (int batch : {132, 660, 10000}) {
      run<0>(a, n, batch, cyc, sink);
      run<1>(a, n, batch, cyc, sink);
      run<2>(a, n, batch, cyc, sink);
    }
  return 0;
}
