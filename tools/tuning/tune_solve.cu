// Tuning sweep of the strided warp solve (src/detail/cuda/Batchol_CudaStridedSolve.cuh):
// how many steps' reads each warp issues ahead (U) and how many right-hand
// sides it solves at once (NR), and of the staged solve
// (Batchol_CudaStagedSolve.cuh: systems per block), per order, layout,
// precision and number of right-hand sides, timed on the GPU against a copy
// measured in the same run. Each timed result is checked (residual of sampled
// systems, printed, "WRONG" past 4 n eps). Plain CUDA, no Kokkos: it compiles on the GPU
// machine in well under a minute.
//   nvcc -arch=sm_90 -std=c++17 -O3 -Isrc tools/tuning/tune_solve.cu -o tune_solve
//   ./tune_solve [batch [n]]  (default 10000, the paper's protocol; every n)
// At n <= 64 it also times the group kernel the table would otherwise take
// (Batchol_CudaGroupKernel.cuh), so the table's boundary between the two can
// be read off the output.
// Prints one line per case: precision layout n nrhs U [NR] ns/system %roofline,
// with the roofline = (triangle read + right-hand sides read and written) /
// copy bandwidth, as batchol_bench counts it.
#include "detail/cuda/Batchol_CudaGroupKernel.cuh"
#include "detail/cuda/Batchol_CudaStagedSolve.cuh"
#include "detail/cuda/Batchol_CudaStridedSolve.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using batchol::cuda::check;
using batchol::detail::Op;
using batchol::detail::Problem;

// A well-conditioned lower factor: diagonal in [1, 2), off-diagonal entries
// of size 1/n, every entry of the square set (the solve reads one triangle).
template <class T>
__global__ void fill(T* a, std::int64_t count, int n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const unsigned h = unsigned(i) * 2654435761u;
    a[i] = T(1.0 + (h >> 8) * (1.0 / 16777216.0)) / T(n);
  }
}
template <class T>
__global__ void set_diagonal(T* a, std::int64_t batch, int n, std::int64_t bs, std::int64_t rs,
                             std::int64_t cs) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < batch * n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t m = i / n, r = i % n;
    a[m * bs + r * (rs + cs)] = T(1.0 + double(r % 7) / 7.0);
  }
}

double copy_bandwidth() {
  const std::size_t bytes = std::size_t(256) << 20;
  void *s, *d;
  check(cudaMalloc(&s, bytes), "malloc");
  check(cudaMalloc(&d, bytes), "malloc");
  check(cudaMemset(s, 0, bytes), "memset");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  std::vector<float> ms;
  for (int r = 0; r < 8; ++r) {
    check(cudaEventRecord(e0), "record");
    check(cudaMemcpy(d, s, bytes, cudaMemcpyDeviceToDevice), "copy");
    check(cudaEventRecord(e1), "record");
    check(cudaEventSynchronize(e1), "sync");
    float t = 0;
    check(cudaEventElapsedTime(&t, e0, e1), "elapsed");
    if (r > 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  check(cudaFree(s), "free");
  check(cudaFree(d), "free");
  check(cudaEventDestroy(e0), "event");
  check(cudaEventDestroy(e1), "event");
  return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3);
}

template <class T, int MW, int U, int NR>
struct Strided {
  static void launch(const Problem<T>& p) {
    batchol::cuda::launch_strided_solve<T, MW, Op::Potrs, U, NR>(p, nullptr);
  }
};

// The factor staged in shared memory (Batchol_CudaStagedSolve.cuh), MPB
// systems per block, by bulk copies where the rows allow them (BULK).
template <class T, int MW, int MPB, bool BULK = false>
struct Staged {
  static void launch(const Problem<T>& p) {
    batchol::cuda::launch_staged_solve<T, MW, Op::Potrs>(p, nullptr, MPB, BULK);
  }
};

// The group kernel's shapes of the table at 32 < n <= 64 (G lanes per matrix,
// WARPS per block; float LayoutLeft takes groups of 16 at n > 48).
template <class T, int NP, int G, int WARPS>
struct Group {
  static void launch(const Problem<T>& p) {
    batchol::cuda::launch_group<T, NP, G, WARPS, Op::Potrs>(p, nullptr);
  }
};

// Median time of one potrs over the batch, in ms (b restored before each run).
template <class K, class T>
float time_potrs(const Problem<T>& p, const T* b0, std::size_t b_bytes) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  std::vector<float> ms;
  for (int r = 0; r < 8; ++r) {
    check(cudaMemcpy(p.b, b0, b_bytes, cudaMemcpyDeviceToDevice), "restore b");
    check(cudaEventRecord(e0), "record");
    K::launch(p);
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(e1), "record");
    check(cudaEventSynchronize(e1), "sync");
    float t = 0;
    check(cudaEventElapsedTime(&t, e0, e1), "elapsed");
    if (r > 0) ms.push_back(t);
  }
  check(cudaEventDestroy(e0), "event");
  check(cudaEventDestroy(e1), "event");
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Largest residual |L L^T x - b| over sampled systems, relative to
// |L| |L^T| |x| + |b| (entrywise, row by row): a wrong kernel is not timed
// unnoticed. b0 the right-hand sides, p.b the solution.
template <class T>
double potrs_error(const Problem<T>& p, const std::vector<T>& a, const T* b0, std::size_t b_count) {
  std::vector<T> x(b_count), b(b_count);
  check(cudaMemcpy(x.data(), p.b, b_count * sizeof(T), cudaMemcpyDeviceToHost), "copy x");
  check(cudaMemcpy(b.data(), b0, b_count * sizeof(T), cudaMemcpyDeviceToHost), "copy b");
  const int n = p.n;
  double worst = 0;
  for (std::int64_t s : {std::int64_t(0), std::int64_t(1), p.batch / 2, p.batch - 1}) {
    auto L = [&](int r, int c) { return double(a[s * p.a_bs + r * p.a_rs + c * p.a_cs]); };
    for (int q = 0; q < p.nrhs; ++q) {
      auto X = [&](int r) { return double(x[s * p.b_bs + r * p.b_rs + q * p.b_cs]); };
      std::vector<double> t(n), ta(n);  // L^T x and |L^T| |x|
      for (int r = 0; r < n; ++r)
        for (int k = r; k < n; ++k) {
          t[r] += L(k, r) * X(k);
          ta[r] += std::abs(L(k, r) * X(k));
        }
      for (int r = 0; r < n; ++r) {
        double lt = 0, la = 0;
        for (int k = 0; k <= r; ++k) {
          lt += L(r, k) * t[k];
          la += std::abs(L(r, k)) * ta[k];
        }
        const double bb = b[s * p.b_bs + r * p.b_rs + q * p.b_cs];
        worst = std::max(worst, std::abs(lt - bb) / (la + std::abs(bb)));
      }
    }
  }
  return worst;
}

template <class T, int MW>
void sweep_n(int n, std::int64_t batch, double bw) {
  const std::int64_t nn = std::int64_t(n) * n;
  T *a, *b, *b0;
  check(cudaMalloc(&a, batch * nn * sizeof(T)), "malloc a");
  for (int nrhs : {1, 8}) {
    const std::size_t b_bytes = std::size_t(batch) * n * nrhs * sizeof(T);
    check(cudaMalloc(&b, b_bytes), "malloc b");
    check(cudaMalloc(&b0, b_bytes), "malloc b0");
    fill<<<1024, 256>>>(b0, std::int64_t(b_bytes / sizeof(T)), 1);
    for (const bool left : {false, true}) {
      Problem<T> p;
      p.batch = batch;
      p.n = n;
      p.a = a;
      // LayoutRight: matrix-major, rows contiguous. LayoutLeft: batch index
      // fastest, then row, then column. The same for b (n x nrhs).
      p.a_bs = left ? 1 : nn;
      p.a_rs = left ? batch : n;
      p.a_cs = left ? batch * n : 1;
      p.b = b;
      p.b_bs = left ? 1 : std::int64_t(n) * nrhs;
      p.b_rs = left ? batch : nrhs;
      p.b_cs = left ? batch * n : 1;
      p.nrhs = nrhs;
      fill<<<1024, 256>>>(a, batch * nn, n);
      set_diagonal<<<1024, 256>>>(a, batch, n, p.a_bs, p.a_rs, p.a_cs);
      check(cudaGetLastError(), "fill");
      std::vector<T> ah(batch * nn);  // for potrs_error
      check(cudaMemcpy(ah.data(), a, ah.size() * sizeof(T), cudaMemcpyDeviceToHost), "copy a");
      const double bytes = (double(n) * (n + 1) / 2 + 2.0 * n * nrhs) * sizeof(T);
      const double roof_ns = bytes / bw * 1e9;
      auto report = [&](const char* kernel, float ms) {
        const double ns = ms * 1e6 / double(batch);
        const double err = potrs_error(p, ah, b0, b_bytes / sizeof(T));
        const double eps = sizeof(T) == 4 ? 1.2e-7 : 2.3e-16;
        std::printf("%-6s %-11s n=%3d nrhs=%d %-13s %9.2f ns/system %5.1f %%roofline  err %.1e%s\n",
                    sizeof(T) == 4 ? "float" : "double", left ? "LayoutLeft" : "LayoutRight", n,
                    nrhs, kernel, ns, 100.0 * roof_ns / ns, err,
                    err < 4.0 * n * eps ? "" : "  WRONG");
      };
      if constexpr (MW == 2) {
        if (n <= 48) {
          report("group", time_potrs<Group<T, 48, 16, 4>>(p, b0, b_bytes));
        } else if (sizeof(T) == 4 && left) {
          report("group", time_potrs<Group<T, 64, 16, 4>>(p, b0, b_bytes));
        } else {
          report("group", time_potrs<Group<T, 64, 32, 2>>(p, b0, b_bytes));
        }
      }
      report("U=1", time_potrs<Strided<T, MW, 1, 1>>(p, b0, b_bytes));
      report("U=4", time_potrs<Strided<T, MW, 4, 1>>(p, b0, b_bytes));
      if (nrhs == 1) {
        report("staged1", time_potrs<Staged<T, MW, 1>>(p, b0, b_bytes));
        report("staged2", time_potrs<Staged<T, MW, 2>>(p, b0, b_bytes));
        report("staged4", time_potrs<Staged<T, MW, 4>>(p, b0, b_bytes));
        report("bulk1", time_potrs<Staged<T, MW, 1, true>>(p, b0, b_bytes));
        report("bulk2", time_potrs<Staged<T, MW, 2, true>>(p, b0, b_bytes));
        report("bulk4", time_potrs<Staged<T, MW, 4, true>>(p, b0, b_bytes));
      }
      if (nrhs > 1) {
        report("U=1 NR=2", time_potrs<Strided<T, MW, 1, 2>>(p, b0, b_bytes));
        report("U=1 NR=4", time_potrs<Strided<T, MW, 1, 4>>(p, b0, b_bytes));
        report("U=2 NR=4", time_potrs<Strided<T, MW, 2, 4>>(p, b0, b_bytes));
        report("U=1 NR=8", time_potrs<Strided<T, MW, 1, 8>>(p, b0, b_bytes));
      }
      std::fflush(stdout);
    }
    check(cudaFree(b), "free");
    check(cudaFree(b0), "free");
  }
  check(cudaFree(a), "free");
}

// only: run this order alone (0: all of them).
template <class T>
void sweep(std::int64_t batch, double bw, int only) {
  for (int n : {40, 48, 52, 56, 60, 64})
    if (only == 0 || only == n) sweep_n<T, 2>(n, batch, bw);
  for (int n : {65, 72, 80, 96})
    if (only == 0 || only == n) sweep_n<T, 3>(n, batch, bw);
  for (int n : {100, 112, 127, 128})
    if (only == 0 || only == n) sweep_n<T, 4>(n, batch, bw);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t batch = argc > 1 ? std::atoll(argv[1]) : 10000;
  const int only = argc > 2 ? std::atoi(argv[2]) : 0;
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const double bw = copy_bandwidth();
  std::printf("device: %s, copy bandwidth %.1f GB/s, batch %lld, potrs\n", prop.name, bw * 1e-9,
              static_cast<long long>(batch));
  sweep<double>(batch, bw, only);
  sweep<float>(batch, bw, only);
  return 0;
}
