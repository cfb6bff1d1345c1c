// A/B of the tile kernel's steps per barrier (not part of the repository).
#include "tune_common.cuh"
namespace tune {
namespace {
template <class T, int B, int M, int MINB, int MPB, Mode MODE, int S>
void launch(const Batch<T>& p, cudaStream_t s) {
  batchol::cuda::launch_tile<T, B, M, MINB, MODE, false, S>(p, s, MPB);
}
template <class T, int B, int M, int MINB, int MPB, int S>
void add() {
  Cand<T> c;
  c.name = "tile<NP=" + std::to_string(B * M) + ",B=" + std::to_string(B) +
           ",MINB=" + std::to_string(MINB) + ",MPB=" + std::to_string(MPB) +
           ",S=" + std::to_string(S) + ">";
  c.np = B * M;
  c.g = B;
  c.warps = (B * B * MPB + 31) / 32;
  c.tile = true;
  c.mpb = MPB;
  c.fn[int(Mode::Potrf)] = &launch<T, B, M, MINB, MPB, Mode::Potrf, S>;
  c.fn[int(Mode::Posv)] = &launch<T, B, M, MINB, MPB, Mode::Posv, S>;
  registry<T>().push_back(c);
}
template <class T, int B, int M, int MINB>
void both() {
  add<T, B, M, MINB, 1, 1>();
  add<T, B, M, MINB, 1, 2>();
}
struct Init {
  Init() {
#if PART == 0
    both<double, 8, 9, 1>();
    both<double, 8, 10, 1>();
    both<double, 8, 11, 1>();
#elif PART == 1
    both<double, 8, 12, 1>();
    both<double, 8, 13, 1>();
#elif PART == 2
    both<double, 16, 7, 2>();
    both<double, 16, 8, 2>();
    both<double, 8, 6, 2>();
#elif PART == 3
    both<float, 8, 10, 1>();
    both<float, 8, 12, 1>();
    both<float, 8, 13, 1>();
#else
    both<float, 16, 7, 2>();
    both<float, 8, 6, 2>();
    both<float, 4, 8, 1>();
#endif
  }
} init;
}  // namespace
}  // namespace tune
