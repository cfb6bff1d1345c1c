// The strided warp solve's candidates of the tuning sweep (potrs and trsv),
// split into parts like tune_kernels.cu: -DTUNE_PART=0..TUNE_NPARTS-1 builds
// every TUNE_NPARTS-th configuration. Per rows per lane (MW = 1..4, orders up
// to 32 MW): steps of L read ahead (U) and right-hand sides per warp (NR), the
// shapes tune_solve.cu explored.
#include "tune_common.cuh"

namespace tune {
namespace {

template <int IDX, class T, int MW, int U, int NR>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_strided_cand<T, MW, U, NR>());
}

template <class T, int MW, int FIRST>
void add_shapes() {
  add<FIRST + 0, T, MW, 1, 1>();
  add<FIRST + 1, T, MW, 4, 1>();
  add<FIRST + 2, T, MW, 1, 2>();
  add<FIRST + 3, T, MW, 1, 4>();
  add<FIRST + 4, T, MW, 2, 4>();
  add<FIRST + 5, T, MW, 1, 8>();
}

struct Init {
  Init() {
    add_shapes<double, 1, 0>();
    add_shapes<double, 2, 6>();
    add_shapes<double, 3, 12>();
    add_shapes<double, 4, 18>();
    add_shapes<float, 1, 24>();
    add_shapes<float, 2, 30>();
    add_shapes<float, 3, 36>();
    add_shapes<float, 4, 42>();
  }
} init;

}  // namespace
}  // namespace tune
