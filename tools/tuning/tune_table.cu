// The kernel tables themselves (cuda::run, every operation, both precisions) as
// candidates of the sweep: "table" for n <= 64 and "table_factor" for
// 64 < n <= 128 (checking them checks the tables' routing), and
// "default_table", every mode through the rows other architectures use
// (DefaultTable, DefaultSolveTable), so an sm_90 run checks them too.
// -DTUNE_PART=0..19 builds one mode of one precision of one of the two
// (Init below), so that the twenty compile in parallel; in one part per
// precision the sm_90 table took about four minutes of nvcc. The potrs parts
// of the sm_90 table (2 and 7) also hold the candidates' split_solve
// (tune_common.cuh).
#include "tune_common.cuh"

#include "detail/cuda/Batchol_CudaRun.cuh"

#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace tune {
namespace {

template <class T, Op OP>
void table_launch(const Problem<T>& p, cudaStream_t s) {
  if (!batchol::cuda::has_kernel(p.n)) {
    std::fprintf(stderr, "cuda::run: no kernel for n = %d\n", p.n);
    std::exit(3);
  }
  batchol::cuda::run<OP>(p, s);
}

// The rows other architectures use: the factorization table for potrf and
// posv, the default solve rows for the solves (as the library dispatches them).
// A posv row that splits solves as the library's does (cuda::run): potrs
// through the device's solve tables.
template <class T, Op OP>
void default_launch(const Problem<T>& p, cudaStream_t s) {
  using namespace batchol::cuda;
  Launch launched;
  if constexpr (batchol::detail::factors(OP))
    launched = launch_table<OP, T, DefaultTable>(p, s);
  else
    launched = launch_default_solve<OP>(p, s);
  if (launched == Launch::NoKernel) {
    std::fprintf(stderr, "default table: no kernel for n = %d\n", p.n);
    std::exit(3);
  }
  if (launched == Launch::SolveNext) {
    Problem<T> q = p;
    q.skip_failed = true;
    launch_tuned<Op::Potrs>(q, s);
  }
}

// The table candidates are registered one mode per part: the part that
// compiles a mode adds its launch to the candidate of that name, whichever
// part created it (static initialization runs in no fixed order).
template <class T>
void add_mode(const char* name, int np, int lo, int mode, typename Cand<T>::Fn fn) {
  for (Cand<T>& c : registry<T>())
    if (c.name == name) {
      c.fn[mode] = fn;
      return;
    }
  Cand<T> c;
  c.name = name;
  c.np = np;
  c.lo = lo;
  c.table = true;
  c.fn[mode] = fn;
  registry<T>().push_back(c);
}

template <class T, Op OP>
void add_table() {
  add_mode<T>("table", 64, 0, int(OP), &table_launch<T, OP>);
  add_mode<T>("table_factor", batchol::cuda::tuned_max_n, 64, int(OP), &table_launch<T, OP>);
}

template <class T, Op OP>
void add_default() {
  add_mode<T>("default_table", batchol::cuda::tuned_max_n, 0, int(OP), &default_launch<T, OP>);
}

#ifndef TUNE_PART
#define TUNE_PART 0
#endif
// Part = 10 x (0: the sm_90 table, 1: the default rows) + 5 x (0: double,
// 1: float) + the mode.
constexpr Op kPartMode = Op(TUNE_PART % 5);
using PartT = std::conditional_t<TUNE_PART / 5 % 2 == 0, double, float>;

struct Init {
  Init() {
#if TUNE_PART < 10
    add_table<PartT, kPartMode>();
#else
    add_default<PartT, kPartMode>();
#endif
  }
} init;

}  // namespace

template <class T>
void split_solve(const Problem<T>& p, cudaStream_t s) {
  Problem<T> q = p;
  q.skip_failed = true;
  table_launch<T, Op::Potrs>(q, s);
}
#if TUNE_PART == 2
template void split_solve<double>(const Problem<double>&, cudaStream_t);
#elif TUNE_PART == 7
template void split_solve<float>(const Problem<float>&, cudaStream_t);
#endif

}  // namespace tune
