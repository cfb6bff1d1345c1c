// The strided warp solve's and the staged solve's candidates of the tuning
// sweep (potrs and trsv), split into parts like tune_kernels.cu:
// -DTUNE_PART=0..TUNE_NPARTS-1 builds every TUNE_NPARTS-th configuration. Per
// rows per lane (MW = 1..4, orders up to 32 MW): steps of L read ahead (U) and
// right-hand sides per warp (NR), the shapes tune_solve.cu explored; systems
// per block of the staged solve (MPB), with element copies into packed rows
// or bulk copies into rows on 16 bytes (BULK); the lane solve's rows per
// block, right-hand sides per lane and lanes per system.
#include "tune_common.cuh"

namespace tune {
namespace {

template <int IDX, class T, int MW, int U, int NR>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_strided_cand<T, MW, U, NR>());
}

template <int IDX, class T, int MW, int MPB, bool BULK = false>
void add_staged() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_staged_cand<T, MW, MPB, BULK>());
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
  add_staged<FIRST + 9, T, MW, 1, true>();
  add_staged<FIRST + 10, T, MW, 2, true>();
  add_staged<FIRST + 11, T, MW, 4, true>();
}

template <int IDX, class T, int R, int NR, int G, int MINB>
void add_lane() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART)
    registry<T>().push_back(make_lane_cand<T, R, NR, G, MINB>());
}

// The lane solve's shapes (every order): rows per block R, right-hand sides
// per lane NR, lanes per system G (2 to 8: more warps for a batch of 10^4,
// and still whole 32-byte sectors per load on LayoutLeft), blocks per SM at
// least MINB (1: registers for more loads in flight; 16: at most 128).
template <class T, int FIRST>
void add_lanes() {
  add_lane<FIRST + 0, T, 8, 1, 1, 16>();
  add_lane<FIRST + 1, T, 8, 2, 1, 16>();
  add_lane<FIRST + 2, T, 8, 1, 2, 16>();
  add_lane<FIRST + 3, T, 8, 1, 4, 16>();
  add_lane<FIRST + 4, T, 8, 1, 8, 16>();
  add_lane<FIRST + 5, T, 8, 2, 4, 16>();
  add_lane<FIRST + 6, T, 8, 1, 4, 1>();
  add_lane<FIRST + 7, T, 16, 1, 4, 1>();
  add_lane<FIRST + 8, T, 16, 1, 8, 1>();
}

struct Init {
  Init() {
    add_shapes<double, 1, 0>();
    add_shapes<double, 2, 12>();
    add_shapes<double, 3, 24>();
    add_shapes<double, 4, 36>();
    add_shapes<float, 1, 48>();
    add_shapes<float, 2, 60>();
    add_shapes<float, 3, 72>();
    add_shapes<float, 4, 84>();
    add_lanes<double, 96>();
    add_lanes<float, 105>();
  }
} init;

}  // namespace
}  // namespace tune
