// The candidate kernels of the tuning sweep. Compiled TUNE_NPARTS times with
// -DTUNE_PART=0..TUNE_NPARTS-1; each build instantiates every TUNE_NPARTS-th
// candidate only (if constexpr keeps the others from being instantiated).
#include "tune_common.cuh"

namespace tune {
namespace {

// -DTUNE_GROUP_MIN_NP=24 builds only the larger group kernels (a sweep of
// the middle sizes, where the tile kernels compete with them).
#ifndef TUNE_GROUP_MIN_NP
#define TUNE_GROUP_MIN_NP 0
#endif

template <int IDX, class T, int NP, int G, int W>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART && NP >= TUNE_GROUP_MIN_NP)
    registry<T>().push_back(make_cand<T, NP, G, W>());
}

// Thread per matrix (G = 1) for the exact order; groups of lanes beyond. Every
// candidate has every mode: the table runs posv with potrf's kernel.
template <class T, int FIRST>
void add_all() {
  constexpr int I = FIRST;
  add<I + 0, T, 1, 1, 4>();
  add<I + 1, T, 2, 1, 4>();
  add<I + 2, T, 3, 1, 4>();
  add<I + 3, T, 4, 1, 4>();
  add<I + 4, T, 5, 1, 4>();
  add<I + 5, T, 6, 1, 4>();
  add<I + 6, T, 7, 1, 4>();
  add<I + 7, T, 8, 1, 4>();
  add<I + 8, T, 9, 1, 4>();
  add<I + 9, T, 10, 1, 4>();
  add<I + 10, T, 12, 1, 4>();
  add<I + 11, T, 8, 2, 4>();
  add<I + 12, T, 12, 4, 4>();
  add<I + 13, T, 16, 4, 4>();
  add<I + 14, T, 16, 8, 4>();
  add<I + 15, T, 24, 8, 4>();
  add<I + 16, T, 32, 8, 4>();
  add<I + 17, T, 24, 4, 4>();
  add<I + 18, T, 32, 16, 4>();
  add<I + 19, T, 32, 16, 2>();
  add<I + 20, T, 48, 16, 4>();
  add<I + 21, T, 64, 32, 4>();
  add<I + 22, T, 64, 32, 2>();
  add<I + 23, T, 48, 8, 4>();
  add<I + 24, T, 40, 8, 4>();
  add<I + 25, T, 64, 16, 4>();
  add<I + 26, T, 48, 16, 2>();
}

struct Init {
  Init() {
    add_all<double, 0>();
    add_all<float, 27>();
  }
} init;

}  // namespace
}  // namespace tune
