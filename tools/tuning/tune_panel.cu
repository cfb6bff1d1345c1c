// The panel-kernel candidates of the tuning sweep (Kurzak et al.'s
// left-looking kernel, Batchol_CudaPanelKernel.cuh), split into parts like
// tune_kernels.cu: -DTUNE_PART=0..TUNE_NPARTS-1 builds every TUNE_NPARTS-th
// configuration. After the paper's sweep (6.1): panel widths N/1, N/2, N/3,
// N/4 (rounded to the block's width; more of them where N has the divisors)
// and the thread-block shapes that won there (16x4 the all-round winner,
// 32x4, 16x8) with 32x8 and 16x16 for double at large N, each registered with
// one matrix per block and with four (64-thread blocks) or two (128-thread
// blocks; LayoutLeft interleaves them for fuller sectors).
#include "tune_common.cuh"

namespace tune {
namespace {

// A register cap (__launch_bounds__ minimum blocks of 256 threads) from an
// estimate of what a thread holds: its share of the panel, one step's column
// and row values, and about 24 for addresses and indices.
template <class T, int BX, int BY, int NB, int KP>
constexpr int panel_minb() {
  using Sh = batchol::cuda::panel_detail::Shape<BX, BY, NB, KP>;
  constexpr int w = int(sizeof(T) / 4);
  constexpr int regs = (Sh::MI * Sh::MJ + Sh::MI + Sh::MJ) * w + 24;
  constexpr int minb = 65536 / (batchol::cuda::panel_maxt_v<Sh::NT> * regs);
  return minb < 1 ? 1 : minb > 8 ? 8 : minb;
}

template <int IDX, class T, int BX, int BY, int NB, int KP>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART) {
    constexpr int MINB = panel_minb<T, BX, BY, NB, KP>();
    registry<T>().push_back(make_panel_cand<T, BX, BY, NB, KP, MINB, 1>());
    if constexpr (BX * BY == 64)
      registry<T>().push_back(make_panel_cand<T, BX, BY, NB, KP, MINB, 4>());
    if constexpr (BX * BY == 128)
      registry<T>().push_back(make_panel_cand<T, BX, BY, NB, KP, MINB, 2>());
  }
}

template <int IDX, class T>
void add_prec() {
  // NP = 32: panels of 16 and 8.
  add<IDX + 0, T, 16, 4, 16, 2>();
  add<IDX + 1, T, 16, 4, 8, 4>();
  // NP = 48: 24, 16, 12.
  add<IDX + 2, T, 16, 4, 24, 2>();
  add<IDX + 3, T, 16, 4, 16, 3>();
  add<IDX + 4, T, 16, 4, 12, 4>();
  // NP = 56: 28, 16 (14 is not a multiple of BY).
  add<IDX + 5, T, 16, 4, 28, 2>();
  add<IDX + 6, T, 16, 4, 8, 7>();
  // NP = 64: 32, 16.
  add<IDX + 7, T, 16, 4, 32, 2>();
  add<IDX + 8, T, 16, 4, 16, 4>();
  add<IDX + 9, T, 16, 8, 16, 4>();
  add<IDX + 10, T, 32, 4, 16, 4>();
  // NP = 72: 36, 24.
  add<IDX + 11, T, 16, 4, 36, 2>();
  add<IDX + 12, T, 16, 4, 24, 3>();
  add<IDX + 13, T, 16, 8, 24, 3>();
  // NP = 80: 40, 20, 16.
  add<IDX + 14, T, 16, 4, 40, 2>();
  add<IDX + 15, T, 16, 4, 20, 4>();
  add<IDX + 16, T, 16, 4, 16, 5>();
  add<IDX + 17, T, 16, 8, 16, 5>();
  // NP = 88: 44.
  add<IDX + 18, T, 16, 4, 44, 2>();
  add<IDX + 19, T, 16, 4, 8, 11>();
  // NP = 96: 48, 32, 24, 16.
  add<IDX + 20, T, 16, 4, 48, 2>();
  add<IDX + 21, T, 16, 4, 32, 3>();
  add<IDX + 22, T, 16, 4, 24, 4>();
  add<IDX + 23, T, 16, 4, 16, 6>();
  add<IDX + 24, T, 16, 8, 32, 3>();
  add<IDX + 25, T, 32, 4, 32, 3>();
  add<IDX + 26, T, 32, 4, 24, 4>();
  add<IDX + 27, T, 32, 8, 32, 3>();
  add<IDX + 28, T, 32, 8, 24, 4>();
  // NP = 104: 52, 8.
  add<IDX + 29, T, 16, 4, 52, 2>();
  add<IDX + 30, T, 16, 4, 8, 13>();
  // NP = 112: 56, 28, 16.
  add<IDX + 31, T, 16, 4, 56, 2>();
  add<IDX + 32, T, 16, 4, 28, 4>();
  add<IDX + 33, T, 16, 4, 16, 7>();
  add<IDX + 34, T, 32, 8, 16, 7>();
  // NP = 120: 40, 24, 20.
  add<IDX + 35, T, 16, 4, 40, 3>();
  add<IDX + 36, T, 16, 4, 24, 5>();
  add<IDX + 37, T, 16, 8, 40, 3>();
  add<IDX + 38, T, 32, 8, 40, 3>();
  add<IDX + 39, T, 32, 8, 24, 5>();
  // NP = 128: 64, 32, 16.
  add<IDX + 40, T, 16, 4, 64, 2>();
  add<IDX + 41, T, 16, 4, 32, 4>();
  add<IDX + 42, T, 16, 4, 16, 8>();
  add<IDX + 43, T, 16, 8, 32, 4>();
  add<IDX + 44, T, 32, 4, 32, 4>();
  add<IDX + 45, T, 32, 8, 32, 4>();
  add<IDX + 46, T, 32, 8, 16, 8>();
  add<IDX + 47, T, 16, 16, 32, 4>();
}

struct Init {
  Init() {
    add_prec<0, double>();
    add_prec<48, float>();
  }
} init;

}  // namespace
}  // namespace tune
