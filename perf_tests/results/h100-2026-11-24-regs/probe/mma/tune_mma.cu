// A/B of the tensor-core kernel against the tile kernel (not part of the repository).
#include "cuda/Batchol_CudaMmaKernel.cuh"
#include "tune_common.cuh"
namespace tune {
namespace {
template <int T, int MINB, bool ROLL>
void launch(const Batch<double>& p, cudaStream_t s) {
  batchol::cuda::launch_mma<T, MINB, ROLL>(p, s);
}
template <int T, int MINB, bool ROLL = true>
void add() {
  Cand<double> c;
  c.name = "mma<NP=" + std::to_string(8 * T) + ",MINB=" + std::to_string(MINB) +
           (ROLL ? "" : ",U") + ">";
  c.np = 8 * T;
  c.g = 8;
  c.warps = 4;
  c.tile = true;
  c.mpb = 1;
  c.fn[int(Mode::Potrf)] = &launch<T, MINB, ROLL>;
  registry<double>().push_back(c);
}
template <int B, int M, int MINB>
void tile() {
  registry<double>().push_back(make_tile_cand<double, B, M, MINB, 1>());
}
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
struct CAT(Init, PART) {
  CAT(Init, PART)() {
#if PART == 0
    add<9, 3>();
    add<9, 4>();
    add<10, 3>();
    add<10, 4>();
    add<11, 2>();
    add<11, 3>();
    add<9, 4, false>();
#elif PART == 1
    add<12, 2>();
    add<12, 3>();
    add<13, 2>();
    add<13, 3>();
#elif PART == 2
    add<14, 2>();
    add<14, 3>();
    add<16, 1>();
    add<16, 2>();
    add<15, 2>();
#elif PART == 3
    tile<8, 9, 1>();
    tile<8, 10, 1>();
    tile<8, 11, 1>();
    tile<8, 12, 1>();
#else
    tile<8, 13, 1>();
    tile<16, 7, 2>();
    tile<16, 8, 2>();
#endif
  }
} CAT(init, PART);
}  // namespace
}  // namespace tune
