// Probe (tenth session): fused posv (shared copy) against potrf and the split on
// the four LayoutLeft rows that run it; built once against the tree before
// and once with compact_solve.patch (nvcc -arch=sm_90 -std=c++17 -O3 -Isrc).
#include <cstdio>
#include "cuda/Batchol_CudaStridedSolve.cuh"
#include "cuda/Batchol_CudaTileKernel.cuh"
using namespace batchol::cuda;
template <class T>
__global__ void fill(T* a, T* b, long long batch, int n) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  for (long long e = t; e < batch * n * n; e += (long long)gridDim.x * blockDim.x) {
    long long rc = e / batch;
    int r = rc % n, c = rc / n;
    a[e] = r == c ? T(2 * n) : T(1) / T(1 + r + c);
  }
  for (long long e = t; e < batch * n; e += (long long)gridDim.x * blockDim.x) b[e] = T(1);
}
template <class T, int B, int M, int MINB>
void run(int n, int mpb_f, int mpb_v) {
  const long long batch = 10000;
  T *a, *b;
  int* info;
  cudaMalloc(&a, batch * n * n * sizeof(T));
  cudaMalloc(&b, batch * n * sizeof(T));
  cudaMalloc(&info, batch * 4);
  Batch<T> p;
  p.batch = batch;
  p.n = n;
  p.a = a;
  p.a_bs = 1;
  p.a_rs = batch;
  p.a_cs = batch * n;
  p.b = b;
  p.b_bs = 1;
  p.b_rs = batch;
  p.b_cs = batch * n;
  p.nrhs = 1;
  p.info = info;
  p.info_s = 1;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  float best[3] = {1e9, 1e9, 1e9};
  for (int rep = 0; rep < 5; ++rep)
    for (int k = 0; k < 3; ++k) {
      fill<<<1024, 256>>>(a, b, batch, n);
      cudaEventRecord(e0);
      if (k == 0) launch_tile<T, B, M, MINB, Mode::Potrf>(p, 0, mpb_f);
      if (k == 1) launch_tile<T, B, M, MINB, Mode::Posv>(p, 0, mpb_v);
      if (k == 2) {
        launch_tile<T, B, M, MINB, Mode::Potrf>(p, 0, mpb_v);
        launch_strided_tuned<Mode::Potrs>(p, 0, true);
      }
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best[k] = ms < best[k] ? ms : best[k];
    }
  std::printf("%s n=%d left: potrf %.1f  posv fused %.1f  split %.1f ns/matrix (%s)\n",
              sizeof(T) == 8 ? "double" : "float", n, best[0] * 1e6 / batch, best[1] * 1e6 / batch,
              best[2] * 1e6 / batch, cudaGetErrorString(cudaGetLastError()));
  cudaFree(a);
  cudaFree(b);
  cudaFree(info);
}
int main() {
  run<double, 8, 10, 1>(80, 1, 4);
  run<double, 8, 11, 1>(88, 1, 4);
  run<float, 8, 9, 2>(72, 4, 4);
  run<float, 8, 10, 2>(80, 4, 4);
}
