// The kernel table itself (launch_tuned, every mode, both precisions) as two
// candidates of the sweep: "table" for n <= 64 (all modes) and
// "table_factor" for 64 < n <= 128 (potrf and posv; the solve-only modes
// take the strided warp solve there, which the unit tests check and
// tune_solve.cu times). Checking them checks the table's routing.
// -DTUNE_PART=0 builds the double table, 1 the float one (in parallel).
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
  }
} init;

}  // namespace
}  // namespace tune
