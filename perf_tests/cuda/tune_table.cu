// The kernel tables themselves (launch_tuned, every mode, both precisions) as
// candidates of the sweep: "table" for n <= 64 and "table_factor" for
// 64 < n <= 128 (checking them checks the tables' routing), and
// "default_table", every mode through the rows other architectures use
// (DefaultTable, DefaultSolveTable), so an sm_90 run checks them too.
// -DTUNE_PART=0 builds the double table, 1 the float one, 2 and 3 the default
// rows in double and float (in parallel). Parts 0 and 1 also hold the
// candidates' split_solve (tune_common.cuh).
#include "tune_common.cuh"

#include "cuda/Batchol_CudaTable.cuh"

#include <cstdio>
#include <cstdlib>

namespace tune {
namespace {

template <class T, Mode MODE>
void table_launch(const Batch<T>& p, cudaStream_t s) {
  if (!batchol::cuda::launch_tuned<MODE>(p, s)) {
    std::fprintf(stderr, "launch_tuned: no kernel for n = %d\n", p.n);
    std::exit(3);
  }
}

// The rows other architectures use: the factorization table for potrf and
// posv, the solve tables for one or several right-hand sides.
template <class T, Mode MODE>
void default_launch(const Batch<T>& p, cudaStream_t s) {
  using namespace batchol::cuda;
  bool ok;
  if constexpr (MODE == Mode::Potrf || MODE == Mode::Posv)
    ok = launch_table<MODE, T, DefaultTable>(p, s);
  else
    ok = p.nrhs > 1 ? launch_table<MODE, T, DefaultSolveTable<true>>(p, s)
                    : launch_table<MODE, T, DefaultSolveTable<false>>(p, s);
  if (!ok) {
    std::fprintf(stderr, "default table: no kernel for n = %d\n", p.n);
    std::exit(3);
  }
}

template <class T>
void add_default() {
  Cand<T> c;
  c.name = "default_table";
  c.np = BATCHOL_CUDA_MAX_N;
  c.table = true;
  c.fn[int(Mode::Potrf)] = &default_launch<T, Mode::Potrf>;
  c.fn[int(Mode::Posv)] = &default_launch<T, Mode::Posv>;
  c.fn[int(Mode::Potrs)] = &default_launch<T, Mode::Potrs>;
  c.fn[int(Mode::TrsvN)] = &default_launch<T, Mode::TrsvN>;
  c.fn[int(Mode::TrsvT)] = &default_launch<T, Mode::TrsvT>;
  registry<T>().push_back(c);
}

template <class T>
void add_table() {
  Cand<T> c;
  c.name = "table";
  c.np = 64;
  c.table = true;
  c.fn[int(Mode::Potrf)] = &table_launch<T, Mode::Potrf>;
  c.fn[int(Mode::Posv)] = &table_launch<T, Mode::Posv>;
  c.fn[int(Mode::Potrs)] = &table_launch<T, Mode::Potrs>;
  c.fn[int(Mode::TrsvN)] = &table_launch<T, Mode::TrsvN>;
  c.fn[int(Mode::TrsvT)] = &table_launch<T, Mode::TrsvT>;
  registry<T>().push_back(c);
  Cand<T> f;
  f.name = "table_factor";
  f.np = BATCHOL_CUDA_MAX_N;
  f.lo = 64;
  f.table = true;
  f.fn[int(Mode::Potrf)] = &table_launch<T, Mode::Potrf>;
  f.fn[int(Mode::Posv)] = &table_launch<T, Mode::Posv>;
  f.fn[int(Mode::Potrs)] = &table_launch<T, Mode::Potrs>;
  f.fn[int(Mode::TrsvN)] = &table_launch<T, Mode::TrsvN>;
  f.fn[int(Mode::TrsvT)] = &table_launch<T, Mode::TrsvT>;
  registry<T>().push_back(f);
}

#ifndef TUNE_PART
#define TUNE_PART 0
#endif

struct Init {
  Init() {
    if constexpr (TUNE_PART == 0) add_table<double>();
    if constexpr (TUNE_PART == 1) add_table<float>();
    if constexpr (TUNE_PART == 2) add_default<double>();
    if constexpr (TUNE_PART == 3) add_default<float>();
  }
} init;

}  // namespace

template <class T>
void split_solve(const Batch<T>& p, cudaStream_t s) {
  Batch<T> q = p;
  q.skip_failed = true;
  table_launch<T, Mode::Potrs>(q, s);
}
#if TUNE_PART == 0
template void split_solve<double>(const Batch<double>&, cudaStream_t);
#elif TUNE_PART == 1
template void split_solve<float>(const Batch<float>&, cudaStream_t);
#endif

}  // namespace tune
