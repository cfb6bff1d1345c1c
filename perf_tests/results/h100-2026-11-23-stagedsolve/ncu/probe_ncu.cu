// Archived probe (not built by CMake): one strided-solve potrs launch per
// variant, double, n = 100, LayoutRight, batch 10^4, for ncu. Built against
// HEAD's header (plain) and against probe_blocked/blocked_cap.patch applied
// (-DWITH_CAP: the blocked forward, launched uncapped and at 8 warps per SM).
#include "cuda/Batchol_CudaStridedSolve.cuh"

#include <vector>

using batchol::cuda::Batch;
using batchol::cuda::check;
using batchol::cuda::Mode;

int main() {
  const int n = 100;
  const std::int64_t batch = 10000, nn = std::int64_t(n) * n;
  std::vector<double> ha(batch * nn), hb(batch * n, 1.0);
  for (std::int64_t s = 0; s < batch; ++s)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) ha[s * nn + r * n + c] = r == c ? 2.0 : 1.0 / n;
  double *a, *b;
  check(cudaMalloc(&a, ha.size() * 8), "malloc");
  check(cudaMalloc(&b, hb.size() * 8), "malloc");
  check(cudaMemcpy(a, ha.data(), ha.size() * 8, cudaMemcpyHostToDevice), "copy");
  Batch<double> p;
  p.batch = batch;
  p.n = n;
  p.a = a;
  p.a_bs = nn;
  p.a_rs = n;
  p.a_cs = 1;
  p.b = b;
  p.b_bs = n;
  p.b_rs = 1;
  p.b_cs = n;
  p.nrhs = 1;
#if defined(WITH_CAP)
  for (int cap : {0, 8}) {
    check(cudaMemcpy(b, hb.data(), hb.size() * 8, cudaMemcpyHostToDevice), "copy");
    batchol::cuda::launch_strided_solve<double, 4, Mode::Potrs, 4, 1>(p, nullptr, cap);
    check(cudaDeviceSynchronize(), "sync");
  }
#else
  check(cudaMemcpy(b, hb.data(), hb.size() * 8, cudaMemcpyHostToDevice), "copy");
  batchol::cuda::launch_strided_solve<double, 4, Mode::Potrs, 4, 1>(p, nullptr);
  check(cudaDeviceSynchronize(), "sync");
#endif
  check(cudaFree(a), "free");
  check(cudaFree(b), "free");
  return 0;
}
