// The kernel table itself (launch_tuned, every mode, both precisions) as two
// candidates of the sweep: "table" for n <= 64 (all modes) and
// "table_factor" for 64 < n <= 128 (potrf and posv; the solve-only modes
// take the strided warp solve there, which the unit tests check and
// tune_solve.cu times). Checking them checks the table's routing.
// "default_table": potrf and posv through the rows other architectures use
// (DefaultTable in Batchol_CudaFactorTable.cuh), so an sm_90 run checks them
// too. -DTUNE_PART=0 builds the double table, 1 the float one, 2 and 3 the
// default rows in double and float (in parallel).
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

template <class T, Mode MODE>
void default_launch(const Batch<T>& p, cudaStream_t s) {
  using batchol::cuda::DefaultTable;
  using batchol::cuda::launch_rows;
  const bool left = p.a_bs == 1, ok = [&] {
    if constexpr (sizeof(T) == 8)
      return left ? launch_rows<MODE, T, DefaultTable::double_left>(p, s)
                  : launch_rows<MODE, T, DefaultTable::double_right>(p, s);
    else
      return left ? launch_rows<MODE, T, DefaultTable::float_left>(p, s)
                  : launch_rows<MODE, T, DefaultTable::float_right>(p, s);
  }();
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
}  // namespace tune
