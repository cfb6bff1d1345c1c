// Probe (tenth session): the tile kernel's potrf, fused posv and the split solve for
// double LayoutRight n = 104, timed and profiled with ncu. Build from the
// repository root: nvcc -arch=sm_90 -std=c++17 -O3 -Isrc probe_drv.cu
#include <cstdio>
#include <vector>
#include "cuda/Batchol_CudaStridedSolve.cuh"
#include "cuda/Batchol_CudaTileKernel.cuh"
using namespace batchol::cuda;
__global__ void fill(double* a, double* b, long long batch, int n) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long tot = batch * n * n;
  for (long long e = t; e < tot; e += (long long)gridDim.x * blockDim.x) {
    int r = (e / n) % n, c = e % n;
    a[e] = r == c ? 2.0 * n : 1.0 / (1 + r + c);
  }
  for (long long e = t; e < batch * n; e += (long long)gridDim.x * blockDim.x) b[e] = 1.0;
}
int main(int argc, char** argv) {
  const int n = 104;
  const long long batch = 10000;
  double *a, *b;
  int* info;
  cudaMalloc(&a, batch * n * n * 8);
  cudaMalloc(&b, batch * n * 8);
  cudaMalloc(&info, batch * 4);
  Batch<double> p;
  p.batch = batch;
  p.n = n;
  p.a = a;
  p.a_bs = n * n;
  p.a_rs = n;
  p.a_cs = 1;
  p.b = b;
  p.b_bs = n;
  p.b_rs = 1;
  p.b_cs = n;
  p.nrhs = 1;
  p.info = info;
  p.info_s = 1;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const char* names[3] = {"potrf", "posv_fused", "strided_potrs"};
  for (int rep = 0; rep < 3; ++rep)
    for (int k = 0; k < 3; ++k) {
      fill<<<1024, 256>>>(a, b, batch, n);
      if (k == 2) launch_tile<double, 8, 13, 1, Mode::Potrf>(p, 0, 1);
      cudaEventRecord(e0);
      if (k == 0) launch_tile<double, 8, 13, 1, Mode::Potrf>(p, 0, 1);
      if (k == 1) launch_tile<double, 8, 13, 1, Mode::Posv>(p, 0, 1);
      if (k == 2) launch_strided_tuned<Mode::Potrs>(p, 0, true);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      std::printf("%s: %.1f ns/matrix\n", names[k], ms * 1e6 / batch);
    }
  std::vector<int> h(batch);
  cudaMemcpy(h.data(), info, batch * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int x : h) bad += x != 0;
  std::printf("nonzero info: %d, last error: %s\n", bad, cudaGetErrorString(cudaGetLastError()));
}
