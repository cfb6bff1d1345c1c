// Probe (twelfth session): the tile kernel's potrf, its register-tile posv
// (PosvSolve::Registers) and the strided potrs, double n = 64 (the sm_90
// rows: B = 8, MINB = 2 on LayoutRight, MINB = 1 on LayoutLeft, one matrix
// per block), timed with events; run under ncu for the posv kernel's stalls.
// Build from the repository root:
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc
//   perf_tests/results/h100-2026-11-23-regsweep/ncu/probe_reg.cu
#include <cstdio>
#include <vector>
#include "cuda/Batchol_CudaStridedSolve.cuh"
#include "cuda/Batchol_CudaTileKernel.cuh"
using namespace batchol::cuda;

__global__ void fill(double* a, double* b, long long batch, int n, bool left) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long e = t; e < batch * n * n; e += step) {
    // e runs over (matrix, r, c) in the layout's order.
    const long long m = left ? e % batch : e / (n * n);
    const long long rc = left ? e / batch : e % (n * n);
    const int r = int(rc / n), c = int(rc % n);
    a[e] = (r == c ? 2.0 * n : 1.0 / (1 + r + c)) + 1e-9 * double(m % 7);
  }
  for (long long e = t; e < batch * n; e += step) b[e] = 1.0;
}

int main() {
  const int n = 64;
  const long long batch = 10000;
  double *a, *b;
  int* info;
  if (cudaMalloc(&a, batch * n * n * 8) != cudaSuccess ||
      cudaMalloc(&b, batch * n * 8) != cudaSuccess || cudaMalloc(&info, batch * 4) != cudaSuccess)
    return 2;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int left = 0; left < 2; ++left) {
    Batch<double> p;
    p.batch = batch;
    p.n = n;
    p.a = a;
    p.a_bs = left ? 1 : n * n;
    p.a_rs = left ? batch : n;
    p.a_cs = left ? batch * n : 1;
    p.b = b;
    p.b_bs = left ? 1 : n;
    p.b_rs = left ? batch : 1;
    p.b_cs = batch * n;
    p.nrhs = 1;
    p.info = info;
    p.info_s = 1;
    const char* names[3] = {"potrf", "posv_reg", "strided_potrs"};
    for (int rep = 0; rep < 3; ++rep)
      for (int k = 0; k < 3; ++k) {
        fill<<<1024, 256>>>(a, b, batch, n, left);
        if (k == 2) {
          if (left)
            launch_tile<double, 8, 8, 1, Mode::Potrf>(p, 0, 1);
          else
            launch_tile<double, 8, 8, 2, Mode::Potrf>(p, 0, 1);
        }
        cudaEventRecord(e0);
        if (k == 0) {
          if (left)
            launch_tile<double, 8, 8, 1, Mode::Potrf>(p, 0, 1);
          else
            launch_tile<double, 8, 8, 2, Mode::Potrf>(p, 0, 1);
        }
        if (k == 1) {
          if (left)
            launch_tile<double, 8, 8, 1, Mode::Posv, true>(p, 0, 1);
          else
            launch_tile<double, 8, 8, 2, Mode::Posv, true>(p, 0, 1);
        }
        if (k == 2) launch_strided_tuned<Mode::Potrs>(p, 0, true);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        std::printf("%s %s: %.1f ns/matrix\n", left ? "left " : "right", names[k],
                    ms * 1e6 / batch);
      }
    std::vector<int> h(batch);
    std::vector<double> x(n);
    cudaMemcpy(h.data(), info, batch * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int v : h) bad += v != 0;
    std::printf("%s: %d nonzero info, last error %s\n", left ? "left" : "right", bad,
                cudaGetErrorString(cudaGetLastError()));
  }
  return 0;
}
