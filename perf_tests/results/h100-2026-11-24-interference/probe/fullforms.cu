// Probe: the staged solve (LayoutRight, one system per block, warp 0 solves
// with WarpSolve::solve_all) with its copy made two ways:
//   ldgsts: 8- or 4-byte asynchronous copies along the rows (the library's);
//   bulk:   one bulk (TMA) copy per row into rows padded to 16 bytes,
//           completing on an mbarrier; the solve then reads the padded rows
//           as if packed (timing only: the values are the wrong ones, and
//           all finite).
// Why: a block's copy takes ~19.6 thousand cycles in the whole kernel, three
// times what one block alone takes, while the memory runs at half its rate.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc fullforms.cu -o fullforms && ./fullforms
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace batchol::cuda;

__constant__ int row_offset[129];  // padded rows: element offset of row r

template <class T, int MW, bool BULK>
__global__ void __launch_bounds__(128) staged(const Batch<T> p) {
  extern __shared__ __align__(16) unsigned char bytes[];
  T* const tri = reinterpret_cast<T*>(bytes);
  __shared__ __align__(8) unsigned long long bar;
  const int n = p.n;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const std::int64_t s = blockIdx.x;
  const T* const a = p.a + s * p.a_bs;
  if constexpr (!BULK) {
    for (int r = warp; r < n; r += 4)
      for (int c = lane; c <= r; c += 32)
        __pipeline_memcpy_async(tri + solve_detail::packed(r, c), a + r * p.a_rs + c, sizeof(T));
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else {
    const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
    if (t == 0) {
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
      asm volatile("fence.mbarrier_init.release.cluster;");
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b),
                   "r"(unsigned(row_offset[n] * sizeof(T))));
    }
    __syncthreads();
    if (t < n) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tri + row_offset[t]));
      const unsigned len = unsigned((row_offset[t + 1] - row_offset[t]) * sizeof(T));
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
          "[%3];" ::"r"(dst),
          "l"(a + t * p.a_rs), "r"(len), "r"(b)
          : "memory");
    }
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred q; mbarrier.try_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
          : "=r"(done)
          : "r"(b)
          : "memory");
  }
  __syncthreads();
  if (warp == 0)
    WarpSolve<T, 32 * MW>::template solve_all<true, true>(tri, n, lane, p.b + s * p.b_bs, p.b_rs,
                                                          p.b_cs, 1);
}

template <class T, int MW>
void run(int n, std::int64_t batch) {
  const std::int64_t nn = std::int64_t(n) * n;
  T *a, *b;
  check(cudaMalloc(&a, batch * nn * sizeof(T) + 256), "a");
  check(cudaMalloc(&b, batch * n * sizeof(T)), "b");
  std::vector<T> h(batch * nn);
  for (std::int64_t i = 0; i < batch; ++i)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) h[i * nn + r * n + c] = r == c ? T(2) : T(0.5) / T(n);
  check(cudaMemcpy(a, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "a");
  check(cudaMemset(b, 0, batch * n * sizeof(T)), "b");
  const int e = 16 / int(sizeof(T));
  int off[129] = {0};
  for (int r = 0; r < 128; ++r) off[r + 1] = off[r] + e * ((r + e) / e);
  check(cudaMemcpyToSymbol(row_offset, off, sizeof(off)), "offsets");
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
  const double bytes = double(n) * (n + 1) / 2 * sizeof(T);
  const int shm = int((off[n] + 64) * sizeof(T));
  auto time_it = [&](auto kern) {
    check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, shm), "attr");
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "ev");
    check(cudaEventCreate(&e1), "ev");
    std::vector<float> ms;
    for (int r = 0; r < 8; ++r) {
      check(cudaEventRecord(e0), "rec");
      kern<<<unsigned(batch), 128, shm>>>(p);
      check(cudaGetLastError(), "launch");
      check(cudaEventRecord(e1), "rec");
      check(cudaEventSynchronize(e1), "sync");
      float x;
      check(cudaEventElapsedTime(&x, e0, e1), "el");
      if (r) ms.push_back(x);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  const float m0 = time_it(staged<T, MW, false>);
  const float m1 = time_it(staged<T, MW, true>);
  std::printf(
      "%-6s n=%3d batch=%6lld  ldgsts %7.2f ns/system (%.2f TB/s)  bulk %7.2f ns/system (%.2f "
      "TB/s)\n",
      sizeof(T) == 8 ? "double" : "float", n, (long long)batch, 1e6 * m0 / batch,
      bytes * batch / (m0 * 1e-3) / 1e12, 1e6 * m1 / batch, bytes * batch / (m1 * 1e-3) / 1e12);
  check(cudaFree(a), "a");
  check(cudaFree(b), "b");
}

int main() {
  for (std::int64_t batch : {10000, 50000}) {
    run<double, 4>(100, batch);
    run<double, 3>(72, batch);
    run<double, 2>(56, batch);
    run<float, 4>(100, batch);
    run<float, 2>(56, batch);
  }
  return 0;
}
