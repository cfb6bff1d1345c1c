// Which series the harness registers: every implementation (Batchol's paths
// and the competitors of this build) for every routine variant, size and batch
// of the grid. Series are named routine/implementation/precision/layout/n:N/batch:B.
#ifndef BATCHOL_BENCH_REGISTER_HPP
#define BATCHOL_BENCH_REGISTER_HPP

#include <bench_grid.hpp>
#include <bench_protocol.hpp>
#include <comp_batchol.hpp>
#include <comp_naive.hpp>
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
#include <comp_lapack.hpp>
#endif
#if defined(BATCHOL_BENCH_HAVE_EIGEN)
#include <comp_eigen.hpp>
#endif
#if defined(BATCHOL_BENCH_HAVE_MKL)
#include <comp_mkl.hpp>
#endif
#if defined(BATCHOL_BENCH_HAVE_KOKKOSBATCHED)
#include <comp_kokkosbatched.hpp>
#endif
#if defined(BATCHOL_BENCH_HAVE_CUBLAS) && defined(KOKKOS_ENABLE_CUDA)
#define BATCHOL_BENCH_RUN_CUDA_LIBS 1
#include <comp_cuda.hpp>
#include <comp_cuda_gemm.hpp>
#include <comp_cuda_xpotrf.hpp>
#endif
#if defined(BATCHOL_BENCH_HAVE_CUSOLVERDX) && defined(KOKKOS_ENABLE_CUDA)
#define BATCHOL_BENCH_RUN_CUSOLVERDX 1
#include <comp_cusolverdx.hpp>
#endif

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {

inline std::vector<PathSupport>& batchol_paths() {
  static std::vector<PathSupport> paths;
  return paths;
}

template <class T, class Layout>
ImplList<T, Layout> implementations() {
  ImplList<T, Layout> list;
  for (const auto p : batchol_paths()) list.push_back(std::make_shared<BatcholImpl<T, Layout>>(p));
  if (!batchol_paths().empty())  // Auto comes last
    for (const auto v : {Variant::Fast, Variant::Upper})
      list.push_back(std::make_shared<BatcholImpl<T, Layout>>(batchol_paths().back(), v));
  list.push_back(std::make_shared<NaiveImpl<T, Layout>>());
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
  list.push_back(std::make_shared<LapackImpl<T, Layout>>());
#endif
#if defined(BATCHOL_BENCH_HAVE_EIGEN)
  list.push_back(std::make_shared<EigenImpl<T, Layout>>());
#endif
#if defined(BATCHOL_BENCH_HAVE_MKL)
  for (const bool pack : {false, true})
    list.push_back(std::make_shared<MklCompactImpl<T, Layout>>(pack));
#endif
#if defined(BATCHOL_BENCH_HAVE_KOKKOSBATCHED)
  for (const bool lu : {true, false}) {
    list.push_back(std::make_shared<KbSerialImpl<T, Layout>>(lu));
    list.push_back(std::make_shared<KbTeamImpl<T, Layout>>(lu));
  }
#if defined(BATCHOL_BENCH_HAVE_PBTRF)
  list.push_back(std::make_shared<KbPbtrfImpl<T, Layout>>());
#endif
#endif
#if defined(BATCHOL_BENCH_RUN_CUDA_LIBS)
  using K = typename CudaLibImpl<T, Layout>::Kind;
  for (const auto k : {K::Cusolver, K::CusolverUpper, K::Trsm, K::Getrf, K::PotriTrsm})
    list.push_back(std::make_shared<CudaLibImpl<T, Layout>>(k));
  list.push_back(std::make_shared<CusolverXpotrfImpl<T, Layout>>(false));
  list.push_back(std::make_shared<CusolverXpotrfImpl<T, Layout>>(true));
  list.push_back(std::make_shared<CublasGemmImpl<T, Layout>>());
#endif
#if defined(BATCHOL_BENCH_RUN_CUSOLVERDX)
  list.push_back(std::make_shared<CusolverDxImpl<T, Layout>>());
#endif
  return list;
}

// The routine variants measured, with n and batch still to be set.
inline std::vector<Case> shapes(const Grid& g) {
  std::vector<Case> out;
  Case c;
  if (g.has_routine("potrf")) {
    c.routine = Routine::Potrf;
    out.push_back(c);
  }
  if (g.has_routine("potrs"))
    for (const int nrhs : g.potrs_nrhs) {
      c.routine = Routine::Potrs;
      c.nrhs = nrhs;
      out.push_back(c);
    }
  c.nrhs = 1;
  if (g.has_routine("trsv"))
    for (const auto u : {batchol::Uplo::Lower, batchol::Uplo::Upper})
      for (const auto t : {batchol::Trans::NoTranspose, batchol::Trans::Transpose}) {
        c.routine = Routine::Trsv;
        c.uplo = u;
        c.trans = t;
        out.push_back(c);
      }
  c.uplo = batchol::Uplo::Lower;
  c.trans = batchol::Trans::NoTranspose;
  if (g.has_routine("posv"))
    for (const int nrhs : g.posv_nrhs) {
      c.routine = Routine::Posv;
      c.nrhs = nrhs;
      out.push_back(c);
    }
  // Not in the default list: measured only when --batchol_routines names them.
  c.nrhs = 1;
  for (const auto& [name, r] :
       {std::pair{"potri", Routine::Potri}, std::pair{"logdet", Routine::Logdet},
        std::pair{"posv_mixed", Routine::PosvMixed},
        std::pair{"potrf_shifted", Routine::PotrfShifted}})
    if (g.has_routine(name)) {
      c.routine = r;
      out.push_back(c);
    }
  if (g.has_routine("posv_mixed_fallback")) {
    c.routine = Routine::PosvMixed;
    c.float_fails = true;
    out.push_back(c);
  }
  return out;
}

template <class T, class Layout>
int register_all(const Grid& g, std::size_t free_bytes) {
  const auto impls = implementations<T, Layout>();
  int count = 0;
  for (const Case& shape : shapes(g)) {
    // posv_mixed solves double systems (through a float factor).
    if (shape.routine == Routine::PosvMixed && !std::is_same_v<T, double>) continue;
    for (const int n : g.n) {
      if (shape.float_fails && n < 2) continue;  // its data needs a 2 x 2 block
      Case c = shape;
      c.n = n;
      for (const auto batch : batches_for(g, c, sizeof(T), free_bytes))
        for (const bool warm : {false, true}) {
          if ((warm && !g.warm) || (!warm && !g.cold)) continue;
          c.batch = batch;
          c.warm_cache = warm;
          for (const auto& impl : impls) {
            if (!impl->supports(c)) continue;
            const std::string name = c.routine_name() + "/" + impl->name() + "/" +
                                     precision_name<T>() + "/" + layout_name<Layout>() +
                                     "/n:" + std::to_string(n) + "/batch:" + std::to_string(batch) +
                                     (warm ? "/cache:warm" : "");
            benchmark::RegisterBenchmark(name.c_str(),
                                         [c, impl, name](benchmark::State& st) {
                                           run_series<T, Layout>(st, c, *impl, name);
                                         })
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
            ++count;
          }
        }
    }
  }
  return count;
}

// Registers every series of precision T; instantiated in its own
// translation unit (bench_register_<T>.cpp) to spread the compile.
template <class T>
int register_precision(const Grid& g, std::size_t free_bytes) {
  int count = 0;
  if (g.do_left) count += register_all<T, Kokkos::LayoutLeft>(g, free_bytes);
  if (g.do_right) count += register_all<T, Kokkos::LayoutRight>(g, free_bytes);
  return count;
}

inline bool has_flag(const std::vector<std::string>& args, const char* prefix) {
  for (const auto& a : args)
    if (a.rfind(prefix, 0) == 0) return true;
  return false;
}

inline std::string competitors() {
  std::string s = "naive_loop";
#if defined(BATCHOL_BENCH_HAVE_LAPACK)
  s += ", lapack_omp";
#endif
#if defined(BATCHOL_BENCH_HAVE_EIGEN)
  s += ", eigen_llt (Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
       std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION) + ")";
#endif
#if defined(BATCHOL_BENCH_HAVE_MKL)
  s += ", mkl_compact, mkl_compact_pack (MKL " + mkl::version() + ", " +
       mkl::format_name(mkl_get_format_compact()) + ")";
#endif
#if defined(BATCHOL_BENCH_HAVE_KOKKOSBATCHED)
  s += ", kb_serial_lu, kb_team_lu, kb_serial_trsv, kb_team_trsv";
#if defined(BATCHOL_BENCH_HAVE_PBTRF)
  s += ", kb_serial_pbtrf";
#endif
#if defined(KOKKOSKERNELS_VERSION)
  s += " (Kokkos Kernels " + std::to_string(KOKKOSKERNELS_VERSION) + ")";
#else
  s += " (Kokkos Kernels 3.x)";
#endif
#endif
#if defined(BATCHOL_BENCH_RUN_CUDA_LIBS)
  s += ", cusolver, cusolver_upper, cublas_trsm, cublas_getrf, cusolver_xpotrf, cublas_gemm, "
       "cusolver_trsm";
#endif
#if defined(BATCHOL_BENCH_RUN_CUSOLVERDX)
  s += ", cusolverdx";
#endif
  return s;
}

}  // namespace bench

namespace bench {
extern template int register_precision<float>(const Grid&, std::size_t);
extern template int register_precision<double>(const Grid&, std::size_t);
extern template std::vector<PathSupport> available_paths<double>();
}  // namespace bench

#endif
