// batchol_dx_smoke: checks generated cuSolverDx kernels on the GPU in seconds,
// without Kokkos. For each manifest given, every candidate (kernel and block
// size) runs on a batch of random SPD matrices stored like the benchmark's
// LayoutRight data (each matrix contiguous, row-major, both triangles), and
// the result is compared on the host: potrf with ||A - L L^T|| / ||A||, potrs
// and posv with ||A x - b|| / (||A|| ||x|| + ||b||), both against 64 n eps,
// and info == 0. One matrix in the batch is then made indefinite at
// row j to show the info cuSolverDx reports (LAPACK's would be j + 1). Also
// prints a rough time per matrix (input restored by a device copy before each
// launch, so partly in L2: the benchmark's numbers are the ones to quote).
//
//   batchol_dx_smoke [--batch N] DIR/potrf_double_n8.txt [more manifests...]
//
// Exit status 1 if any candidate gives a wrong result.
#include "dx_driver.hpp"
#include "dx_manifest.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace batchol_dx;

// Device buffer.
class Buffer {
 public:
  explicit Buffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) check(cuMemAlloc(&p_, bytes), "cuMemAlloc");
  }
  ~Buffer() {
    if (p_) cuMemFree(p_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* ptr() const { return reinterpret_cast<void*>(p_); }
  CUdeviceptr get() const { return p_; }
  template <class T>
  void upload(const std::vector<T>& h) {
    if (bytes_) check(cuMemcpyHtoD(p_, h.data(), bytes_), "cuMemcpyHtoD");
  }
  template <class T>
  void download(std::vector<T>& h) const {
    if (bytes_) check(cuMemcpyDtoH(h.data(), p_, bytes_), "cuMemcpyDtoH");
  }

 private:
  CUdeviceptr p_ = 0;
  std::size_t bytes_;
};

// Row-major SPD matrices (diagonally dominant, as the benchmark's), their
// lower Cholesky factors mirrored into both triangles, right-hand sides.
template <class T>
struct Data {
  int n, nrhs;
  long long batch;
  std::vector<T> A, F, B;

  Data(int n_, int nrhs_, long long batch_) : n(n_), nrhs(nrhs_), batch(batch_) {
    std::mt19937_64 gen(12345);
    std::uniform_real_distribution<double> u(0, 1);
    A.resize(std::size_t(batch) * n * n);
    B.resize(std::size_t(batch) * n * nrhs);
    for (long long b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
          const T v = i == j ? T(n + u(gen)) : T(2 * u(gen) - 1);
          a(A, b, i, j) = v;
          a(A, b, j, i) = v;
        }
    for (auto& x : B) x = T(u(gen) - 0.5);
    F = A;
    for (long long b = 0; b < batch; ++b) factor(F, b);
  }
  T& a(std::vector<T>& M, long long b, int i, int j) const {
    return M[(std::size_t(b) * n + i) * n + j];
  }
  double at(const std::vector<T>& M, long long b, int i, int j) const {
    return M[(std::size_t(b) * n + i) * n + j];
  }
  void factor(std::vector<T>& M, long long b) const {
    for (int j = 0; j < n; ++j) {
      double d = at(M, b, j, j);
      for (int k = 0; k < j; ++k) d -= at(M, b, j, k) * at(M, b, j, k);
      const double s = std::sqrt(d);
      a(M, b, j, j) = T(s);
      for (int i = j + 1; i < n; ++i) {
        double v = at(M, b, i, j);
        for (int k = 0; k < j; ++k) v -= at(M, b, i, k) * at(M, b, j, k);
        a(M, b, i, j) = T(v / s);
        a(M, b, j, i) = T(v / s);
      }
    }
  }
  // ||A - L L^T|| / ||A||, L the row-major lower triangle of R.
  double factor_error(const std::vector<T>& R, long long b) const {
    double err = 0, norm = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        double s = 0;
        for (int k = 0; k <= j; ++k) s += at(R, b, i, k) * at(R, b, j, k);
        err = std::max(err, std::abs(s - at(A, b, i, j)));
        norm = std::max(norm, std::abs(at(A, b, i, j)));
      }
    return std::isfinite(err) ? err / norm : HUGE_VAL;
  }
  double solve_error(const std::vector<T>& X, long long b) const {
    double worst = 0;
    for (int q = 0; q < nrhs; ++q) {
      double r = 0, an = 0, xn = 0, bn = 0;
      for (int i = 0; i < n; ++i) {
        double s = 0, row = 0;
        for (int j = 0; j < n; ++j) {
          s += at(A, b, i, j) * X[(std::size_t(b) * n + j) * nrhs + q];
          row += std::abs(at(A, b, i, j));
        }
        const double bi = B[(std::size_t(b) * n + i) * nrhs + q];
        r = std::max(r, std::abs(s - bi));
        an = std::max(an, row);
        xn = std::max(xn, std::abs(double(X[(std::size_t(b) * n + i) * nrhs + q])));
        bn = std::max(bn, std::abs(bi));
      }
      const double e = r / (an * xn + bn);
      worst = std::max(worst, std::isfinite(e) ? e : HUGE_VAL);
    }
    return worst;
  }
};

struct Tally {
  int ran = 0, failed = 0;
};

template <class T>
void check_manifest(const std::string& path, long long batch, Tally& tally) {
  const Manifest m = read_manifest(path);
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const Module module(dir + "/" + m.cubin);
  const auto cands = candidates(m, module);
  const bool potrf = m.routine == "potrf", potrs = m.routine == "potrs";
  const int n = m.n, nrhs = m.nrhs;
  Data<T> d(n, nrhs, batch);
  const std::vector<T>& input = potrs ? d.F : d.A;
  const std::size_t abytes = input.size() * sizeof(T), bbytes = d.B.size() * sizeof(T);
  Buffer A(abytes), B(potrf ? 0 : bbytes), A0(abytes), B0(potrf ? 0 : bbytes),
      info(std::size_t(batch) * sizeof(int));
  A0.upload(input);
  if (!potrf) B0.upload(d.B);
  const double bound = 64.0 * n * std::numeric_limits<T>::epsilon();
  std::printf("%s: %s, n %d, nrhs %d, %zu candidates, batch %lld, bound %.2e\n", path.c_str(),
              m.routine.c_str(), n, nrhs, cands.size(), batch, bound);

  CUevent start, stop;
  check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  for (const auto& c : cands) {
    const auto restore = [&] {
      check(cuMemcpyDtoD(A.get(), A0.get(), abytes), "cuMemcpyDtoD");
      if (!potrf) check(cuMemcpyDtoD(B.get(), B0.get(), bbytes), "cuMemcpyDtoD");
      check(cuMemsetD32(info.get(), 0x7fffffff, std::size_t(batch)), "cuMemsetD32");
    };
    restore();
    c.launch(nullptr, A.ptr(), potrf ? nullptr : B.ptr(), potrs ? nullptr : (int*)info.ptr(),
             batch);
    check(cuCtxSynchronize(), "kernel");
    std::vector<T> hA(input.size()), hB(d.B.size());
    std::vector<int> hinfo(batch, 0);
    A.download(hA);
    if (!potrf) B.download(hB);
    if (!potrs) info.download(hinfo);
    double worst = 0;
    long long bad_info = 0, over = 0;
    for (long long b = 0; b < batch; ++b) {
      const double e = potrf ? d.factor_error(hA, b) : d.solve_error(hB, b);
      worst = std::max(worst, e);
      over += !(e <= bound);
      bad_info += hinfo[b] != 0;
    }

    std::vector<float> ms;
    for (int r = 0; r < 5; ++r) {
      restore();
      check(cuEventRecord(start, nullptr), "cuEventRecord");
      c.launch(nullptr, A.ptr(), potrf ? nullptr : B.ptr(), potrs ? nullptr : (int*)info.ptr(),
               batch);
      check(cuEventRecord(stop, nullptr), "cuEventRecord");
      check(cuEventSynchronize(stop), "cuEventSynchronize");
      float t = 0;
      check(cuEventElapsedTime(&t, start, stop), "cuEventElapsedTime");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const bool ok = over == 0 && bad_info == 0;
    ++tally.ran;
    tally.failed += !ok;
    std::printf(
        "  %-4s %-34s %s: worst error %.2e, %lld over bound, %lld info != 0, %.3f ns/matrix\n",
        ok ? "ok" : "FAIL", c.kernel.name.c_str(), c.describe().c_str(), worst, over, bad_info,
        ms[ms.size() / 2] * 1e6 / double(batch));
  }
  check(cuEventDestroy(start), "cuEventDestroy");
  check(cuEventDestroy(stop), "cuEventDestroy");

  // One indefinite matrix (index 1): its diagonal at row j made negative.
  if (!potrs && !cands.empty() && batch > 1) {
    const int j = n / 2;
    std::vector<T> bad = d.A;
    d.a(bad, 1, j, j) = T(-1);
    A0.upload(bad);
    for (const auto& c : cands) {
      check(cuMemcpyDtoD(A.get(), A0.get(), abytes), "cuMemcpyDtoD");
      if (!potrf) check(cuMemcpyDtoD(B.get(), B0.get(), bbytes), "cuMemcpyDtoD");
      c.launch(nullptr, A.ptr(), potrf ? nullptr : B.ptr(), (int*)info.ptr(), batch);
      check(cuCtxSynchronize(), "kernel");
      std::vector<int> hinfo(batch, 0);
      info.download(hinfo);
      long long others = 0;
      for (long long b = 0; b < batch; ++b) others += b != 1 && hinfo[b] != 0;
      std::printf("  info %-34s indefinite at row %d: info %d (LAPACK: %d), %lld others != 0\n",
                  c.kernel.name.c_str(), j, hinfo[1], j + 1, others);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  long long batch = 3001;  // not a multiple of any block size: partial last blocks
  std::vector<std::string> manifests;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--batch" && i + 1 < argc)
      batch = std::atoll(argv[++i]);
    else
      manifests.push_back(a);
  }
  if (manifests.empty() || batch <= 0) {
    std::fprintf(stderr, "usage: batchol_dx_smoke [--batch N] MANIFEST.txt...\n");
    return 2;
  }
  Tally tally;
  try {
    ensure_context();
    for (const auto& path : manifests) {
      const Manifest m = read_manifest(path);
      if (m.precision == "double")
        check_manifest<double>(path, batch, tally);
      else
        check_manifest<float>(path, batch, tally);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "batchol_dx_smoke: %s\n", e.what());
    return 1;
  }
  std::printf("%d passed, %d failed\n", tally.ran - tally.failed, tally.failed);
  return tally.failed ? 1 : 0;
}
