// The tile-kernel candidates of the tuning sweep (potrf and posv), split into
// parts like tune_kernels.cu: -DTUNE_PART=0..TUNE_NPARTS-1 builds every
// TUNE_NPARTS-th configuration. Each configuration (precision, B, M, MINB) is
// one kernel per mode, registered with one and with several matrices per
// block, each with its posv solving inside the kernel (from a shared copy of
// the factor, and from the register tiles) and split into potrf and the
// strided solve.
#include "tune_common.cuh"

namespace tune {
namespace {

constexpr auto Split = batchol::cuda::PosvSolve::Split;
constexpr auto Registers = batchol::cuda::PosvSolve::Registers;

template <int IDX, class T, int B, int M, int MINB, int MPB2>
void add() {
  if constexpr (IDX % TUNE_NPARTS == TUNE_PART) {
    constexpr int MPB1 = B == 4 ? 2 : 1;
    auto& r = registry<T>();
    r.push_back(make_tile_cand<T, B, M, MINB, MPB1>());
    r.push_back(make_tile_posv_twin<T, B, M, MINB, MPB1, Split>());
    r.push_back(make_tile_posv_twin<T, B, M, MINB, MPB1, Registers>());
    if constexpr (MPB2 != MPB1) {
      r.push_back(make_tile_cand<T, B, M, MINB, MPB2>());
      r.push_back(make_tile_posv_twin<T, B, M, MINB, MPB2, Split>());
      r.push_back(make_tile_posv_twin<T, B, M, MINB, MPB2, Registers>());
    }
  }
}

// B = 4 (16 threads per matrix) for small orders, B = 8 up to the register
// limit, B = 16 (256 threads) beyond; MINB = 2 caps registers at 128 per
// thread for 256-thread blocks (and for 64-thread blocks, 8 blocks per SM).
void add_all() {
  add<0, double, 4, 7, 1, 8>();
  add<1, double, 4, 8, 1, 8>();
  add<2, double, 4, 10, 1, 8>();
  add<3, double, 8, 4, 2, 4>();
  add<4, double, 8, 5, 2, 4>();
  add<5, double, 8, 6, 2, 4>();
  add<6, double, 8, 6, 3, 4>();
  add<7, double, 8, 7, 2, 4>();
  add<8, double, 8, 8, 2, 4>();
  add<9, double, 8, 8, 1, 4>();
  add<10, double, 8, 9, 1, 4>();
  add<11, double, 8, 10, 1, 4>();
  add<12, double, 8, 11, 1, 4>();
  add<13, double, 8, 12, 1, 4>();
  add<14, double, 8, 13, 1, 4>();
  add<15, double, 16, 5, 2, 1>();
  add<16, double, 16, 6, 2, 1>();
  add<17, double, 16, 7, 2, 1>();
  add<18, double, 16, 8, 2, 1>();
  add<19, float, 4, 8, 1, 8>();
  add<20, float, 4, 10, 1, 8>();
  add<21, float, 8, 4, 2, 4>();
  add<22, float, 8, 5, 2, 4>();
  add<23, float, 8, 6, 2, 4>();
  add<24, float, 8, 6, 3, 4>();
  add<25, float, 8, 7, 2, 4>();
  add<26, float, 8, 8, 2, 4>();
  add<27, float, 8, 9, 2, 4>();
  add<28, float, 8, 10, 2, 4>();
  add<29, float, 8, 10, 1, 4>();
  add<30, float, 8, 11, 1, 4>();
  add<31, float, 8, 12, 1, 4>();
  add<32, float, 8, 13, 1, 4>();
  add<33, float, 8, 14, 1, 4>();
  add<34, float, 8, 16, 1, 4>();
  add<35, float, 16, 5, 2, 1>();
  add<36, float, 16, 6, 2, 1>();
  add<37, float, 16, 7, 2, 1>();
  add<38, float, 16, 8, 2, 1>();
  // One more tile row each where the next B = 8 shape still fits: double
  // NP = 112 (255 registers, some spilled) and float NP = 120.
  add<39, double, 8, 14, 1, 4>();
  add<40, float, 8, 15, 1, 4>();
}

struct Init {
  Init() { add_all(); }
} init;

}  // namespace
}  // namespace tune
