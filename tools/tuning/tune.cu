// Standalone tuning and benchmark tool for Batchol's Cuda path (plain CUDA +
// cuSOLVER, no Kokkos). For each precision, order n and layout it
//   1. checks every candidate kernel and mode against a CPU reference on a
//      batch with planted failures (non-positive pivot, NaN): info, factor,
//      untouched entries, posv leaving B alone for failed matrices;
//   2. times each candidate and cuSOLVER potrfBatched on the same data, with
//      fresh input and the L2 evicted (a >= 256 MB scratch write) before each
//      repetition, median of the repetitions, at batch 10000 and at a batch of
//      >= 256 MB;
//   3. prints a table and writes JSON, with the roofline taken from a large
//      device-to-device copy measured in the same run (bytes read + written).
// --solve sweeps the solve-only modes instead: every candidate that has potrs
// (group kernels, strided warp solves, the tables) is checked with 3
// right-hand sides and timed for potrs with 1 and with 8 (records carry
// "nrhs"), from which make_table.py writes the solve tables; --trsv adds trsv
// (lower, forward, one vector; op "trsv") to that timing, --trsv-only times
// trsv alone, for the trsv table.
// Usage: tune [--json FILE] [--quick] [--solve | --trsv | --trsv-only] [--prec d|f|df]
//             [--sizes 4,8,...] [--reps R]
#include "tune_common.cuh"

#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace tune {

template <class T>
std::vector<Cand<T>>& registry() {
  static std::vector<Cand<T>> r;
  return r;
}
template std::vector<Cand<double>>& registry<double>();
template std::vector<Cand<float>>& registry<float>();

#define CK(x) batchol::cuda::check((x), #x)
#define CKS(x)                                                                            \
  do {                                                                                    \
    cusolverStatus_t st_ = (x);                                                           \
    if (st_ != CUSOLVER_STATUS_SUCCESS) {                                                 \
      std::fprintf(stderr, "cusolver error %d at %s:%d\n", int(st_), __FILE__, __LINE__); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

const char* mode_name(Op m) {
  return batchol::detail::op_name(m);
}

enum class Layout { Left, Right };
const char* layout_name(Layout l) {
  return l == Layout::Left ? "left" : "right";
}

// ---------------------------------------------------------------- data

__host__ __device__ inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__host__ __device__ inline double unit(std::uint64_t h) {  // [-1, 1)
  return double(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

// Symmetric, diagonally dominant (so SPD) matrices, both triangles written.
template <class T>
__global__ void gen_spd(T* a, int n, std::int64_t batch, std::int64_t bs, std::int64_t rs,
                        std::int64_t cs, std::uint64_t seed) {
  const std::int64_t total = batch * n * n;
  for (std::int64_t idx = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; idx < total;
       idx += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t i, r, c;
    if (bs == 1) {  // batch index fastest
      i = idx % batch;
      r = (idx / batch) % n;
      c = idx / (batch * n);
    } else {
      i = idx / (std::int64_t(n) * n);
      r = (idx / n) % n;
      c = idx % n;
    }
    const std::int64_t lo = r < c ? r : c, hi = r < c ? c : r;
    const double u = unit(mix(seed ^ mix(std::uint64_t(i) * 1315423911ull + hi * 4096 + lo)));
    a[i * bs + r * rs + c * cs] = T(r == c ? n + 1.0 + u : u);
  }
}

template <class T>
__global__ void gen_vec(T* b, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t idx = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; idx < count;
       idx += std::int64_t(gridDim.x) * blockDim.x)
    b[idx] = T(unit(mix(seed ^ mix(std::uint64_t(idx)))));
}

template <class T>
__global__ void fill_ptrs(T** ptrs, T* base, std::int64_t stride, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    ptrs[i] = base + i * stride;
}

// A batch in one layout: A0/B0 pristine, A/B worked on.
// B is n x nrhs per system, stored like A (LayoutRight: system-major, rows
// contiguous; LayoutLeft: batch index fastest, then row, then column).
template <class T>
struct Data {
  int n = 0;
  std::int64_t batch = 0;
  Layout lay = Layout::Right;
  int nrhs = 1;
  T *a0 = nullptr, *a = nullptr, *b0 = nullptr, *b = nullptr;
  int* info = nullptr;
  std::size_t a_bytes() const { return std::size_t(batch) * n * n * sizeof(T); }
  std::size_t b_bytes() const { return std::size_t(batch) * n * nrhs * sizeof(T); }

  Problem<T> desc(bool mirror = false) const {
    Problem<T> p;
    p.batch = batch;
    p.n = n;
    p.a = a;
    if (lay == Layout::Right) {
      p.a_bs = std::int64_t(n) * n, p.a_rs = n, p.a_cs = 1;
      p.b_bs = std::int64_t(n) * nrhs, p.b_rs = nrhs, p.b_cs = 1;
    } else {
      p.a_bs = 1, p.a_rs = batch, p.a_cs = batch * n;
      p.b_bs = 1, p.b_rs = batch, p.b_cs = batch * n;
    }
    p.b = b;
    p.nrhs = nrhs;
    p.info = info;
    p.info_s = 1;
    p.mirror = mirror;
    return p;
  }
  std::int64_t idx(std::int64_t i, int r, int c) const {
    const Problem<T> p = desc();
    return i * p.a_bs + r * p.a_rs + c * p.a_cs;
  }
  // The pristine A or B back into the worked-on copy, on stream s.
  void restore_a(cudaStream_t s) const {
    CK(cudaMemcpyAsync(a, a0, a_bytes(), cudaMemcpyDeviceToDevice, s));
  }
  void restore_b(cudaStream_t s) const {
    CK(cudaMemcpyAsync(b, b0, b_bytes(), cudaMemcpyDeviceToDevice, s));
  }
  std::int64_t bidx(std::int64_t i, int r, int q = 0) const {
    const Problem<T> p = desc();
    return i * p.b_bs + r * p.b_rs + q * p.b_cs;
  }

  Data(int n_, std::int64_t batch_, Layout lay_, std::uint64_t seed, int nrhs_ = 1)
      : n(n_), batch(batch_), lay(lay_), nrhs(nrhs_) {
    CK(cudaMalloc(&a0, a_bytes()));
    CK(cudaMalloc(&a, a_bytes()));
    CK(cudaMalloc(&b0, b_bytes()));
    CK(cudaMalloc(&b, b_bytes()));
    CK(cudaMalloc(&info, std::size_t(batch) * sizeof(int)));
    const Problem<T> p = desc();
    gen_spd<T><<<4096, 256>>>(a0, n, batch, p.a_bs, p.a_rs, p.a_cs, seed);
    CK(cudaGetLastError());
    gen_vec<T><<<1024, 256>>>(b0, std::int64_t(batch) * n * nrhs, seed + 17);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
  ~Data() {
    cudaFree(a0);
    cudaFree(a);
    cudaFree(b0);
    cudaFree(b);
    cudaFree(info);
  }
  Data(const Data&) = delete;
  Data& operator=(const Data&) = delete;
};

// ---------------------------------------------------------------- reference

// The serial reference's algorithm (left-looking, division by the pivot),
// in precision T, on a dense row-major copy.
template <class T>
bool pivot_ok_h(T d) {
  return d > T(0) && d <= std::numeric_limits<T>::max();
}
template <class T>
int ref_potrf(std::vector<T>& a, int n) {
  for (int j = 0; j < n; ++j) {
    T d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!pivot_ok_h(d)) return j + 1;
    const T s = std::sqrt(d);
    a[j * n + j] = s;
    for (int i = j + 1; i < n; ++i) {
      T v = a[i * n + j];
      for (int k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / s;
    }
  }
  return 0;
}
template <class T>
void ref_fwd(const std::vector<T>& l, int n, std::vector<T>& b) {
  for (int i = 0; i < n; ++i) {
    T v = b[i];
    for (int k = 0; k < i; ++k) v -= l[i * n + k] * b[k];
    b[i] = v / l[i * n + i];
  }
}
template <class T>
void ref_bwd(const std::vector<T>& l, int n, std::vector<T>& b) {
  for (int i = n - 1; i >= 0; --i) {
    T v = b[i];
    for (int k = n - 1; k > i; --k) v -= l[k * n + i] * b[k];
    b[i] = v / l[i * n + i];
  }
}

// ---------------------------------------------------------------- context

enum class SolveOps { Potrs, Trsv, Both };

struct Ctx {
  cudaStream_t s{};
  cudaEvent_t e0{}, e1{};
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
  double bw = 0;  // bytes/s, read + written
  cusolverDnHandle_t h{};
  int reps = 15;
  bool quick = false;
  bool solve = false;                    // --solve: the solve-only sweep
  SolveOps solve_ops = SolveOps::Potrs;  // what it times (--trsv, --trsv-only)
  std::vector<std::string> records;
  int failures = 0;
};

template <class F>
float time_once(Ctx& c, F&& f) {
  CK(cudaEventRecord(c.e0, c.s));
  f();
  CK(cudaEventRecord(c.e1, c.s));
  CK(cudaEventSynchronize(c.e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
  return ms;
}

// Median over reps of the kernel alone: before each, restore the input and
// evict the L2 by writing the scratch buffer.
template <class Restore, class F>
double time_median(Ctx& c, int reps, Restore&& restore, F&& f) {
  std::vector<float> t;
  for (int r = 0; r <= reps; ++r) {
    restore();
    CK(cudaMemsetAsync(c.scratch, r & 0xff, c.scratch_bytes, c.s));
    const float ms = time_once(c, f);
    if (r > 0) t.push_back(ms);  // the first is warm-up
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e-3;
}

void measure_bandwidth(Ctx& c) {
  const std::size_t bytes = std::size_t(1) << 30;
  void *x, *y;
  CK(cudaMalloc(&x, bytes));
  CK(cudaMalloc(&y, bytes));
  CK(cudaMemset(x, 1, bytes));
  std::vector<float> t;
  for (int r = 0; r < 11; ++r)
    t.push_back(
        time_once(c, [&] { CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, c.s)); }));
  std::sort(t.begin(), t.end());
  c.bw = 2.0 * bytes / (t[t.size() / 2] * 1e-3);
  CK(cudaFree(x));
  CK(cudaFree(y));
}

std::string jnum(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

template <class T>
const char* prec_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

// Fewest bytes per matrix (DESIGN.md): potrf reads + writes the triangle;
// solves read it once and b in and out; posv does both.
double op_bytes(Op m, int n, std::size_t s, int nrhs = 1) {
  const double tri = 0.5 * n * (n + 1) * s, vec = double(n) * nrhs * s;
  switch (m) {
    case Op::Potrf:
      return 2 * tri;
    case Op::Posv:
      return 2 * tri + 2 * vec;
    default:
      return tri + 2 * vec;
  }
}
double op_flops(Op m, int n, int nrhs = 1) {
  const double f = double(n) * n * n / 3 + double(n) * n / 2 + n / 6.0;
  const double sv = 2.0 * n * n * nrhs;  // two triangular solves
  switch (m) {
    case Op::Potrf:
      return f;
    case Op::Posv:
      return f + sv;
    case Op::Potrs:
      return sv;
    default:
      return sv / 2;
  }
}

// nrhs > 0: the record names its number of right-hand sides (solve sweep).
template <class T>
void record(Ctx& c, const char* op, int n, Layout lay, std::int64_t batch,
            const std::string& kernel, double seconds, Op m, int nrhs = 0) {
  const double per = seconds / batch;
  const double roof = op_bytes(m, n, sizeof(T), std::max(nrhs, 1)) / c.bw;
  std::ostringstream o;
  o << "{\"op\":\"" << op << "\",\"prec\":\"" << prec_name<T>() << "\",\"n\":" << n
    << ",\"layout\":\"" << layout_name(lay) << "\",\"batch\":" << batch << ",\"kernel\":\""
    << kernel << "\",\"ns_per_matrix\":" << jnum(per * 1e9)
    << ",\"roofline_ns\":" << jnum(roof * 1e9) << ",\"pct_roofline\":" << jnum(100 * roof / per)
    << ",\"gflops\":" << jnum(op_flops(m, n, std::max(nrhs, 1)) / per * 1e-9);
  if (nrhs > 0) o << ",\"nrhs\":" << nrhs;
  o << "}";
  c.records.push_back(o.str());
}

// ---------------------------------------------------------------- checks

template <class T>
std::vector<T> to_host(const T* d, std::size_t count) {
  std::vector<T> h(count);
  CK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Plants failures: every 7th matrix a negative pivot at a column that varies,
// every 11th a NaN below the diagonal.
template <class T>
void plant_failures(Data<T>& d) {
  std::vector<T> h = to_host(d.a0, d.a_bytes() / sizeof(T));
  for (std::int64_t i = 0; i < d.batch; ++i) {
    if (i % 7 == 3) h[d.idx(i, int(i % d.n), int(i % d.n))] = T(-1);
    if (i % 11 == 5 && d.n > 1) h[d.idx(i, d.n - 1, int(i % (d.n - 1)))] = T(NAN);
  }
  CK(cudaMemcpy(d.a0, h.data(), d.a_bytes(), cudaMemcpyHostToDevice));
}

template <class T>
std::vector<T> dense(const Data<T>& d, const std::vector<T>& h, std::int64_t i) {
  std::vector<T> m(std::size_t(d.n) * d.n);
  for (int r = 0; r < d.n; ++r)
    for (int c = 0; c < d.n; ++c) m[r * d.n + c] = h[d.idx(i, r, c)];
  return m;
}

template <class T>
bool same_bits(T x, T y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// The CPU reference of one checking batch, computed once for all candidates.
template <class T>
struct Ref {
  std::vector<T> in, bin;         // inputs as on the device
  std::vector<std::vector<T>> L;  // CPU factors (dense row-major)
  std::vector<int> rinfo;
  explicit Ref(const Data<T>& d)
      : in(to_host(d.a0, d.a_bytes() / sizeof(T))),
        bin(to_host(d.b0, d.b_bytes() / sizeof(T))),
        L(d.batch),
        rinfo(d.batch) {
    for (std::int64_t i = 0; i < d.batch; ++i) {
      L[i] = dense(d, in, i);
      rinfo[i] = ref_potrf(L[i], d.n);
    }
  }
};

// Checks one candidate in every mode it has; returns the worst relative error.
template <class T>
double check_cand(Ctx& c, const Cand<T>& k, Data<T>& d, const Ref<T>& ref, bool mirror,
                  std::string& why) {
  const int n = d.n;
  const double tol = 64.0 * n * std::numeric_limits<T>::epsilon();
  const std::vector<T>& in = ref.in;
  const std::vector<T>& bin = ref.bin;
  const std::vector<std::vector<T>>& L = ref.L;
  const std::vector<int>& rinfo = ref.rinfo;
  double worst = 0;
  auto err = [&](double x, double r, double scale) {
    if (std::isnan(x) && std::isnan(r)) return 0.0;  // a planted NaN, propagated by both
    const double e = std::fabs(x - r) / scale;
    return std::isnan(e) ? 1e300 : e;
  };
  for (int mi = 0; mi < 5; ++mi) {
    const Op m = Op(mi);
    if (!k.fn[mi] || (k.posv_only && m != Op::Posv)) continue;
    const bool factors = m == Op::Potrf || m == Op::Posv;
    std::vector<T> ain = in;
    if (!factors) {  // the solve modes read a factor: the CPU one (SPD matrices only)
      for (std::int64_t i = 0; i < d.batch; ++i)
        if (rinfo[i] == 0)
          for (int r = 0; r < n; ++r)
            for (int cc = 0; cc <= r; ++cc) ain[d.idx(i, r, cc)] = L[i][r * n + cc];
    }
    CK(cudaMemcpy(d.a, ain.data(), d.a_bytes(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d.b, d.b0, d.b_bytes(), cudaMemcpyDeviceToDevice));
    CK(cudaMemset(d.info, 0xff, d.batch * sizeof(int)));
    // trsv solves one vector: the first column of B.
    const bool trsv = m == Op::TrsvN || m == Op::TrsvT;
    Problem<T> p = d.desc(mirror && factors);
    if (trsv) p.nrhs = 1;
    k.fn[mi](p, c.s);
    CK(cudaStreamSynchronize(c.s));
    const std::vector<T> a = to_host(d.a, d.a_bytes() / sizeof(T));
    const std::vector<T> b = to_host(d.b, d.b_bytes() / sizeof(T));
    std::vector<int> info(d.batch);
    CK(cudaMemcpy(info.data(), d.info, d.batch * sizeof(int), cudaMemcpyDeviceToHost));
    for (std::int64_t i = 0; i < d.batch; ++i) {
      const std::vector<T>& l = L[i];
      if (factors) {
        if (info[i] != rinfo[i]) {
          why = std::string(mode_name(m)) + ": info " + std::to_string(info[i]) +
                " != " + std::to_string(rinfo[i]) + " at matrix " + std::to_string(i);
          return 1e300;
        }
        const int ncol = rinfo[i] ? rinfo[i] - 1 : n;
        double scale = 0;
        for (int r = 0; r < n; ++r) scale = std::max(scale, double(std::fabs(l[r * n + r])));
        for (int r = 0; r < n; ++r)
          for (int cc = 0; cc < n; ++cc) {
            const T got = a[d.idx(i, r, cc)], orig = in[d.idx(i, r, cc)];
            if (cc <= r && cc < ncol) {
              worst = std::max(worst, err(got, l[r * n + cc], scale));
            } else if (cc > r && mirror && rinfo[i] == 0) {
              if (!same_bits(got, a[d.idx(i, cc, r)])) {
                why = "mirror mismatch";
                return 1e300;
              }
            } else if (!same_bits(got, orig)) {
              why = std::string(mode_name(m)) + ": entry (" + std::to_string(r) + "," +
                    std::to_string(cc) + ") of matrix " + std::to_string(i) + " was changed";
              return 1e300;
            }
          }
      }
      if (m == Op::Potrf) continue;
      // Solves: reference on the CPU factor, per right-hand side.
      for (int q = 0; q < (trsv ? 1 : d.nrhs); ++q) {
        std::vector<T> x(n);
        for (int r = 0; r < n; ++r) x[r] = bin[d.bidx(i, r, q)];
        if (m == Op::Posv && rinfo[i] != 0) {
          for (int r = 0; r < n; ++r)
            if (!same_bits(b[d.bidx(i, r, q)], x[r])) {
              why = "posv changed B of a failed matrix";
              return 1e300;
            }
          continue;
        }
        if (rinfo[i] != 0) continue;  // solve-only modes on a garbage factor: no reference
        if (m == Op::Posv || m == Op::Potrs || m == Op::TrsvN) ref_fwd(l, n, x);
        if (m == Op::Posv || m == Op::Potrs || m == Op::TrsvT) ref_bwd(l, n, x);
        double scale = 0;
        for (int r = 0; r < n; ++r) scale = std::max(scale, double(std::fabs(x[r])));
        for (int r = 0; r < n; ++r) worst = std::max(worst, err(b[d.bidx(i, r, q)], x[r], scale));
      }
    }
    if (worst > tol) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s: error %.3g > tol %.3g", mode_name(m), worst, tol);
      why = buf;
      return worst;
    }
  }
  return worst;
}

// ---------------------------------------------------------------- sweep

template <class T>
bool admissible(const Cand<T>& k, int n) {
  if (k.np < n) return false;
  if (k.any_n) return true;
  if (k.table) return n > k.lo;
  if (k.mw) return k.np - n < 32;     // the fewest rows per lane
  if (k.nb) return k.np - n < k.nb;   // the fewest panels of that width
  if (k.tile) return k.np - n < k.g;  // the smallest padding for that B
  if (k.g == 1) return k.np == n;
  return k.np - n < 16 && (n > 8 || k.g <= 4);
}

template <class T>
double cusolver_potrf(Ctx& c, Data<T>& d) {
  if (d.lay != Layout::Right || d.batch > 0x7fffffff) return NAN;
  T** ptrs;
  CK(cudaMalloc(&ptrs, d.batch * sizeof(T*)));
  fill_ptrs<T><<<1024, 256, 0, c.s>>>(ptrs, d.a, std::int64_t(d.n) * d.n, int(d.batch));
  CK(cudaGetLastError());
  auto restore = [&] {
    CK(cudaMemcpyAsync(d.a, d.a0, d.a_bytes(), cudaMemcpyDeviceToDevice, c.s));
  };
  auto run = [&] {
    if constexpr (sizeof(T) == 8)
      CKS(cusolverDnDpotrfBatched(c.h, CUBLAS_FILL_MODE_LOWER, d.n, ptrs, d.n, d.info,
                                  int(d.batch)));
    else
      CKS(cusolverDnSpotrfBatched(c.h, CUBLAS_FILL_MODE_LOWER, d.n, ptrs, d.n, d.info,
                                  int(d.batch)));
  };
  const double t = time_median(c, std::max(3, c.reps / 3), restore, run);
  CK(cudaFree(ptrs));
  return t;
}

// Prints and records one candidate's check (why empty: passed).
template <class T>
void record_check(Ctx& c, const Cand<T>& k, int n, Layout lay, int nrhs, double e,
                  const std::string& why) {
  const bool ok = why.empty();
  if (!ok) ++c.failures;
  std::printf("check %s n=%d %s nrhs=%d %s: %s (err %.2e)\n", prec_name<T>(), n, layout_name(lay),
              nrhs, k.name.c_str(), ok ? "ok" : why.c_str(), e);
  std::ostringstream o;
  o << "{\"check\":\"" << k.name << "\",\"prec\":\"" << prec_name<T>() << "\",\"n\":" << n
    << ",\"layout\":\"" << layout_name(lay) << "\",\"nrhs\":" << nrhs
    << ",\"ok\":" << (ok ? "true" : "false") << ",\"err\":" << jnum(e) << "}";
  c.records.push_back(o.str());
}

// The timed batch sizes: 10^4 (the paper's protocol) and one of >= 256 MB of
// matrices, where that is larger (--quick: the large one only).
std::vector<std::int64_t> timing_batches(const Ctx& c, int n, std::size_t s) {
  const std::int64_t nn = std::int64_t(n) * n * std::int64_t(s);
  const std::int64_t big = std::max<std::int64_t>(10000, ((std::int64_t(256) << 20) + nn - 1) / nn);
  std::vector<std::int64_t> batches;
  if (!c.quick) batches.push_back(10000);
  if (big != 10000 || c.quick) batches.push_back(big);
  return batches;
}

template <class T, class AfterSize>
void sweep(Ctx& c, const std::vector<int>& sizes, std::vector<std::string>& table,
           AfterSize&& after_size) {
  std::vector<Cand<T>>& cands = registry<T>();
  for (int n : sizes) {
    std::vector<const Cand<T>*> ks;
    for (const auto& k : cands)
      if (k.fn[int(Op::Potrf)] && admissible(k, n)) ks.push_back(&k);
    if (ks.empty()) continue;
    // 1. correctness, both layouts, planted failures; mirror on the first.
    for (Layout lay : {Layout::Right, Layout::Left}) {
      Data<T> d(n, 1000, lay, 1234 + n);
      plant_failures(d);
      const Ref<T> ref(d);
      bool first_group = true, first_tile = true, first_panel = true;
      for (const Cand<T>* k : ks) {
        std::string why;
        // Mirror (write_transposed) on the first candidate of each kind.
        bool& first = k->nb ? first_panel : k->tile ? first_tile : first_group;
        const double e = check_cand(c, *k, d, ref, first, why);
        first = false;
        record_check<T>(c, *k, n, lay, 1, e, why);
      }
    }
    // 2. timing.
    for (std::int64_t batch : timing_batches(c, n, sizeof(T))) {
      for (Layout lay : {Layout::Right, Layout::Left}) {
        Data<T> d(n, batch, lay, 99 + n);
        auto restore_a = [&] { d.restore_a(c.s); };
        double best = 1e30;
        const Cand<T>* bk = nullptr;
        for (const Cand<T>* k : ks) {
          if (k->posv_only) continue;
          const Problem<T> p = d.desc();
          const double t = time_median(c, c.reps, restore_a, [&] { k->fn[0](p, c.s); });
          record<T>(c, "potrf", n, lay, batch, k->name, t, Op::Potrf);
          if (t < best) best = t, bk = k;
        }
        const double tc = cusolver_potrf(c, d);
        if (std::isfinite(tc))
          record<T>(c, "potrf", n, lay, batch, "cusolver_potrfBatched", tc, Op::Potrf);
        // Solves (factor = SPD input's lower triangle, fine for timing): posv
        // with every candidate that has it, the solve-only modes with the
        // fastest potrf candidate that has them (else the first that has).
        std::string solves;
        for (int mi = 1; mi < 5; ++mi) {
          std::vector<const Cand<T>*> sks;
          if (mi == 1) {
            for (const Cand<T>* k : ks)
              if (k->fn[mi]) sks.push_back(k);
          } else {
            const Cand<T>* sk = bk->fn[mi] ? bk : nullptr;
            for (const Cand<T>* k : ks)
              if (!sk && k->fn[mi]) sk = k;
            if (sk) sks.push_back(sk);
          }
          double sbest = 1e30;
          const Cand<T>* sbk = nullptr;
          for (const Cand<T>* sk : sks) {
            const Problem<T> p = d.desc();
            const double t = time_median(
                c, c.reps,
                [&] {
                  d.restore_a(c.s);
                  d.restore_b(c.s);
                },
                [&] { sk->fn[mi](p, c.s); });
            record<T>(c, mode_name(Op(mi)), n, lay, batch, sk->name, t, Op(mi));
            if (t < sbest) sbest = t, sbk = sk;
          }
          if (!sbk) continue;
          char buf[160];
          std::snprintf(buf, sizeof buf, " %s %.3g ns (%.0f%%%s%s)", mode_name(Op(mi)),
                        sbest / batch * 1e9,
                        100 * op_bytes(Op(mi), n, sizeof(T)) / c.bw / (sbest / batch),
                        mi == 1 ? " " : "", mi == 1 ? sbk->name.c_str() : "");
          solves += buf;
        }
        const double per = best / batch;
        const double roof = op_bytes(Op::Potrf, n, sizeof(T)) / c.bw;
        char line[1024];
        std::snprintf(
            line, sizeof line,
            "%-6s n=%3d %-5s batch=%9lld best=%-24s %8.3f ns %5.1f%% roof | cusolver %8.3f ns "
            "speedup %6.1fx |%s",
            prec_name<T>(), n, layout_name(lay), (long long)batch, bk->name.c_str(), per * 1e9,
            100 * roof / per, tc / batch * 1e9, tc / best, solves.c_str());
        std::printf("%s\n", line);
        std::fflush(stdout);
        table.push_back(line);
      }
    }
    after_size();
  }
}

// The solve-only sweep (--solve): every candidate with potrs, checked in
// every mode it has with 3 right-hand sides (planted failures: the solve
// modes read the CPU factor of the SPD systems), then potrs timed with one and
// with eight right-hand sides, and/or trsv, at batch 10^4 and >= 256 MB (of A).
template <class T, class AfterSize>
void sweep_solve(Ctx& c, const std::vector<int>& sizes, std::vector<std::string>& table,
                 AfterSize&& after_size) {
  const int potrs = int(Op::Potrs);
  for (int n : sizes) {
    std::vector<const Cand<T>*> ks;
    for (const auto& k : registry<T>())
      if (k.fn[potrs] && admissible(k, n)) ks.push_back(&k);
    if (ks.empty()) continue;
    for (Layout lay : {Layout::Right, Layout::Left}) {
      Data<T> d(n, 1000, lay, 1234 + n, 3);
      plant_failures(d);
      const Ref<T> ref(d);
      for (const Cand<T>* k : ks) {
        std::string why;
        const double e = check_cand(c, *k, d, ref, false, why);
        record_check<T>(c, *k, n, lay, 3, e, why);
      }
    }
    // What is timed: potrs with 1 and 8 right-hand sides, and/or trsv
    // (lower, not transposed: the forward substitution, one vector).
    std::vector<std::pair<Op, int>> ops;
    if (c.solve_ops != SolveOps::Trsv) ops = {{Op::Potrs, 1}, {Op::Potrs, 8}};
    if (c.solve_ops != SolveOps::Potrs) ops.push_back({Op::TrsvN, 1});
    for (std::int64_t batch : timing_batches(c, n, sizeof(T)))
      for (Layout lay : {Layout::Right, Layout::Left})
        for (const auto& [mode, nrhs] : ops) {
          const int mi = int(mode);
          const char* op = mode == Op::Potrs ? "potrs" : "trsv";
          Data<T> d(n, batch, lay, 99 + n, nrhs);
          d.restore_a(c.s);
          auto restore_b = [&] { d.restore_b(c.s); };
          double best = 1e30;
          const Cand<T>* bk = nullptr;
          for (const Cand<T>* k : ks) {
            // On LayoutLeft the rows are not contiguous and stagedbulk runs
            // the staged kernel (checked above, not timed twice).
            if (lay == Layout::Left && k->name.rfind("stagedbulk", 0) == 0) continue;
            if (!k->fn[mi]) continue;
            const Problem<T> p = d.desc();
            const double t = time_median(c, c.reps, restore_b, [&] { k->fn[mi](p, c.s); });
            record<T>(c, op, n, lay, batch, k->name, t, mode, nrhs);
            if (t < best && !k->table) best = t, bk = k;
          }
          char line[512];
          std::snprintf(line, sizeof line,
                        "%-6s n=%3d %-5s batch=%9lld nrhs=%d %-5s best=%-26s %9.3f ns %5.1f%% roof",
                        prec_name<T>(), n, layout_name(lay), (long long)batch, nrhs, op,
                        bk ? bk->name.c_str() : "-", best / batch * 1e9,
                        100 * op_bytes(mode, n, sizeof(T), nrhs) / c.bw / (best / batch));
          std::printf("%s\n", line);
          table.push_back(line);
        }
    after_size();
  }
}

}  // namespace tune

int main(int argc, char** argv) {
  using namespace tune;
  std::string json = "tune.json", prec = "df";
  std::vector<int> sizes = {2, 3, 4, 6, 8, 10, 12, 16, 24, 32, 40, 48, 64};
  Ctx c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc)
      json = argv[++i];
    else if (a == "--quick")
      c.quick = true;
    else if (a == "--solve")
      c.solve = true;
    else if (a == "--trsv")
      c.solve = true, c.solve_ops = SolveOps::Both;
    else if (a == "--trsv-only")
      c.solve = true, c.solve_ops = SolveOps::Trsv;
    else if (a == "--prec" && i + 1 < argc)
      prec = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      c.reps = std::atoi(argv[++i]);
    else if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      std::stringstream ss(argv[++i]);
      std::string tok;
      while (std::getline(ss, tok, ',')) sizes.push_back(std::atoi(tok.c_str()));
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaStreamCreate(&c.s));
  CK(cudaEventCreate(&c.e0));
  CK(cudaEventCreate(&c.e1));
  CKS(cusolverDnCreate(&c.h));
  CKS(cusolverDnSetStream(c.h, c.s));
  c.scratch_bytes =
      std::max<std::size_t>(std::size_t(256) << 20, 4 * std::size_t(prop.l2CacheSize));
  CK(cudaMalloc(&c.scratch, c.scratch_bytes));
  measure_bandwidth(c);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("device %s, %d SMs, L2 %d MB, copy bandwidth %.0f GB/s (read+write), %s\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, c.bw * 1e-9, date);
  std::vector<std::string> table;
  // The JSON is rewritten after each order, so a run cut short keeps what it measured.
  auto write_json = [&] {
    if (FILE* f = std::fopen(json.c_str(), "w")) {
      std::fprintf(
          f, "{\"device\":\"%s\",\"date\":\"%s\",\"sms\":%d,\"l2_bytes\":%d,\"copy_bw_Bps\":%s,",
          prop.name, date, prop.multiProcessorCount, prop.l2CacheSize, jnum(c.bw).c_str());
      std::fprintf(f, "\"check_failures\":%d,\"records\":[\n", c.failures);
      for (std::size_t i = 0; i < c.records.size(); ++i)
        std::fprintf(f, "%s%s\n", c.records[i].c_str(), i + 1 < c.records.size() ? "," : "");
      std::fprintf(f, "]}\n");
      std::fclose(f);
    }
  };
  if (prec.find('d') != std::string::npos)
    c.solve ? sweep_solve<double>(c, sizes, table, write_json)
            : sweep<double>(c, sizes, table, write_json);
  if (prec.find('f') != std::string::npos)
    c.solve ? sweep_solve<float>(c, sizes, table, write_json)
            : sweep<float>(c, sizes, table, write_json);

  std::printf("\n==== summary (%s, %.0f GB/s) ====\n", prop.name, c.bw * 1e-9);
  for (const auto& l : table) std::printf("%s\n", l.c_str());
  std::printf("check failures: %d\n", c.failures);
  return c.failures ? 1 : 0;
}
