// The strided warp solve's and the staged solve's candidates of the tuning
// sweep (potrs and trsv), split into parts like tune_kernels.cu:
// -DTUNE_PART=0..TUNE_NPARTS-1 builds every TUNE_NPARTS-th configuration. Per
// rows per lane (MW = 1..4, orders up to 32 MW): steps of L read ahead (U) and
// right-hand sides per warp (NR), the shapes tune_solve.cu explored; systems
// per block of the staged solve (MPB).
#include "tune_common.cuh"

namespace tune {
namespace {

template <int IDX, class T, int MW, int U, int NR>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_strided_cand<T, MW, U, NR>());
}

template <int IDX, class T, int MW, int MPB>
void add_staged() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_staged_cand<T, MW, MPB>());
}

template <class T, int MW, int FIRST>
void add_shapes() {
  add<FIRST + 0, T, MW, 1, 1>();
  add<FIRST + 1, T, MW, 4, 1>();
  add<FIRST + 2, T, MW, 1, 2>();
  add<FIRST + 3, T, MW, 1, 4>();
  add<FIRST + 4, T, MW, 2, 4>();
  add<FIRST + 5, T, MW, 1, 8>();
  add_staged<FIRST + 6, T, MW, 1>();
  add_staged<FIRST + 7, T, MW, 2>();
  add_staged<FIRST + 8, T, MW, 4>();
}

struct Init {
  Init() {
    add_shapes<double, 1, 0>();
    add_shapes<double, 2, 9>();
    add_shapes<double, 3, 18>();
    add_shapes<double, 4, 27>();
    add_shapes<float, 1, 36>();
    add_shapes<float, 2, 45>();
    add_shapes<float, 3, 54>();
    add_shapes<float, 4, 63>();
  }
} init;

}  // namespace
}  // namespace tune
