// Probe: how fast the staged solve's copy phase alone streams LayoutRight
// triangles into shared memory (no solve), per copy form: 8-byte
// asynchronous copies element by element (the kernel's), 16-byte ones by
// pairs of a row (n even, rows padded to even offsets), and 16-byte loads
// through registers. Same blocks, threads and shared memory as the kernel.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc copyonly.cu -o copyonly && ./copyonly
#include "cuda/Batchol_CudaStagedSolve.cuh"

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace batchol::cuda;

template <int FORM>
__global__ void __launch_bounds__(128)
    copy_only(const double* a, int n, std::int64_t batch, double* sink) {
  extern __shared__ __align__(16) unsigned char bytes[];
  double* const tri = reinterpret_cast<double*>(bytes);
  const int t = threadIdx.x;
  const std::int64_t s = blockIdx.x;
  const double* const as = a + s * std::int64_t(n) * n;
  const int size = n * (n + 1) / 2;
  if constexpr (FORM == 0) {
    int r = 0, c = t;
    for (int e = t; e < size; e += 128) {
      while (c > r) c -= ++r;
      __pipeline_memcpy_async(tri + e, as + r * n + c, 8);
      c += 128;
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else {
    // pairs: row r holds r / 2 + 1 pairs at even offset po(r) = 2 * (pairs of rows < r)
    const int pairs = [&] {
      int q = 0;
      for (int r = 0; r < n; ++r) q += r / 2 + 1;
      return q;
    }();
    int r = 0, j = t, po = 0;  // pair index j within row r, po = row r's first pair
    for (int e = t; e < pairs; e += 128) {
      while (j > r / 2) {
        j -= r / 2 + 1;
        po += r / 2 + 1;
        ++r;
      }
      if constexpr (FORM == 1) {
        __pipeline_memcpy_async(tri + 2 * (po + j), as + r * n + 2 * j, 16);
      } else {
        const double2 v = *reinterpret_cast<const double2*>(as + r * n + 2 * j);
        *reinterpret_cast<double2*>(tri + 2 * (po + j)) = v;
      }
      j += 128;
    }
    if constexpr (FORM == 1) {
      __pipeline_commit();
      __pipeline_wait_prior(0);
    }
  }
  __syncthreads();
  if (t == 0 && tri[size / 2] == 12345.0) sink[0] = tri[1];
}

template <int FORM>
float run(const double* a, int n, std::int64_t batch, double* sink) {
  const int shm = (n * (n + 1) / 2 + n + 32) * 8;
  check(cudaFuncSetAttribute(copy_only<FORM>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm),
        "attr");
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int r = 0; r < 6; ++r) {
    cudaEventRecord(e0);
    copy_only<FORM><<<unsigned(batch), 128, shm>>>(a, n, batch, sink);
    cudaEventRecord(e1);
    check(cudaEventSynchronize(e1), "run");
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (r) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main() {
  const std::int64_t batch = 10000;
  double *a, *sink;
  check(cudaMalloc(&a, batch * 128 * 128 * 8), "a");
  check(cudaMalloc(&sink, 8), "sink");
  check(cudaMemset(a, 0, batch * 128 * 128 * 8), "a");
  for (int n : {40, 56, 72, 100, 128}) {
    const double tri_bytes = double(n) * (n + 1) / 2 * 8;
    const char* names[] = {"8-byte async", "16-byte async", "16-byte regs"};
    float t[3] = {run<0>(a, n, batch, sink), run<1>(a, n, batch, sink), run<2>(a, n, batch, sink)};
    for (int f = 0; f < 3; ++f)
      std::printf("double LayoutRight n=%3d %-14s %7.2f ns/system  %6.0f GB/s of triangle\n", n,
                  names[f], t[f] * 1e6 / batch, tri_bytes * batch / (t[f] * 1e-3) / 1e9);
  }
  return 0;
}
