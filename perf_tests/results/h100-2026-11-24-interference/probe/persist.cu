// Probe: are a staged-solve SM's blocks in lockstep (all copying, then all
// solving), and does breaking the lockstep pay? The library's staged body
// (copy rows into shared memory, WarpSolve::solve_all by warp 0, one system
// per block, LayoutRight) run by
//   launch:  the library's launcher (a block per system);
//   persist: as many blocks as fit at once, each looping over systems
//            b, b + grid, ..., after a first wait of a pseudo-random
//            0 .. W ns (W = 0: no wait), so that the blocks of an SM reach
//            their copies at different times.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc persist.cu -o persist && ./persist
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace batchol::cuda;

template <class T, int MW>
__global__ void __launch_bounds__(128) persist(const Batch<T> p, unsigned wait_ns) {
  extern __shared__ __align__(16) unsigned char bytes[];
  T* const tri = reinterpret_cast<T*>(bytes);
  const int n = p.n;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  if (wait_ns) {
    const unsigned h = (blockIdx.x * 2654435761u) >> 8;
    const unsigned w = unsigned((unsigned long long)(h % 4096) * wait_ns / 4096);
    for (unsigned left = w; left > 0;) {  // __nanosleep takes at most ~1 ms
      const unsigned d = left > 100000 ? 100000 : left;
      __nanosleep(d);
      left -= d;
    }
  }
  for (std::int64_t s = blockIdx.x; s < p.batch; s += gridDim.x) {
    const T* const a = p.a + s * p.a_bs;
    for (int r = warp; r < n; r += 4)
      for (int c = lane; c <= r; c += 32)
        __pipeline_memcpy_async(tri + solve_detail::packed(r, c), a + r * p.a_rs + c, sizeof(T));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (warp == 0)
      WarpSolve<T, 32 * MW>::template solve_all<true, true>(tri, n, lane, p.b + s * p.b_bs, p.b_rs,
                                                            p.b_cs, 1);
    __syncthreads();
  }
}

template <class F>
float time_ms(F&& f) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "ev");
  check(cudaEventCreate(&e1), "ev");
  std::vector<float> ms;
  for (int r = 0; r < 8; ++r) {
    check(cudaEventRecord(e0), "rec");
    f();
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(e1), "rec");
    check(cudaEventSynchronize(e1), "sync");
    float x;
    check(cudaEventElapsedTime(&x, e0, e1), "el");
    if (r) ms.push_back(x);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T, int MW>
void run(int n, std::int64_t batch) {
  const std::int64_t nn = std::int64_t(n) * n;
  T *a, *b;
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
  const double bytes = double(n) * (n + 1) / 2 * sizeof(T);
  const float base = time_ms([&] { launch_staged_solve<T, MW, Mode::Potrs>(p, nullptr, 1); });
  std::printf("%-6s n=%3d batch=%6lld launch           %7.2f ns/system (%.2f TB/s of triangle)\n",
              sizeof(T) == 8 ? "double" : "float", n, (long long)batch, 1e6 * base / batch,
              bytes * batch / (base * 1e-3) / 1e12);
  const int shm = int((solve_detail::packed_size(n) + 32) * sizeof(T));
  check(cudaFuncSetAttribute(persist<T, MW>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm),
        "attr");
  int per_sm = 0, sms = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persist<T, MW>, 128, shm), "occ");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "sms");
  const unsigned grid = unsigned(std::min<std::int64_t>(batch, std::int64_t(per_sm) * sms));
  for (unsigned w : {0u, 4000u, 8000u, 16000u}) {
    const float ms = time_ms([&] { persist<T, MW><<<grid, 128, shm>>>(p, w); });
    std::printf("%-6s n=%3d batch=%6lld persist W=%5u %7.2f ns/system (%.2f TB/s) %d blocks/SM\n",
                sizeof(T) == 8 ? "double" : "float", n, (long long)batch, w, 1e6 * ms / batch,
                bytes * batch / (ms * 1e-3) / 1e12, per_sm);
  }
  check(cudaFree(a), "a");
  check(cudaFree(b), "b");
}

int main() {
  for (std::int64_t batch : {10000, 50000}) {
    run<double, 4>(100, batch);
    run<double, 3>(72, batch);
    run<double, 2>(56, batch);
    run<float, 4>(100, batch);
  }
  return 0;
}
