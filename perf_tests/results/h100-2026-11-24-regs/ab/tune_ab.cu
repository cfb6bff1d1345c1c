// A/B of two tile-kernel sources (not part of the repository): compiled once
// against HEAD's headers with -Dbatchol=batchol_head (names prefixed "H"),
// once against the working tree.
#include "tune_common.cuh"
namespace tune {
namespace {
#ifdef HEADSRC
const char* const kTag = "H";
#else
const char* const kTag = "N";
#endif
template <class T, int B, int M, int MINB, int MPB, Mode MODE, bool REG>
void launch(const Batch<T>& p, cudaStream_t s) {
  batchol::cuda::launch_tile<T, B, M, MINB, MODE, REG>(p, s, MPB);
}
template <class T, int B, int M, int MINB, int MPB, bool REG = false>
void add() {
  Cand<T> c;
  c.name = std::string(kTag) + "tile<NP=" + std::to_string(B * M) + ",B=" + std::to_string(B) +
           ",MINB=" + std::to_string(MINB) + ",MPB=" + std::to_string(MPB) + (REG ? ",reg" : "") +
           ">";
  c.np = B * M;
  c.g = B;
  c.warps = (B * B * MPB + 31) / 32;
  c.tile = true;
  c.mpb = MPB;
  if constexpr (!REG)
    c.fn[int(Mode::Potrf)] = &launch<T, B, M, MINB, MPB, Mode::Potrf, false>;
  else {
    c.fn[int(Mode::Posv)] = &launch<T, B, M, MINB, MPB, Mode::Posv, true>;
    c.posv_only = true;
  }
  registry<T>().push_back(c);
}
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
struct CAT(Init, PART) {
  CAT(Init, PART)() {
#if PART == 0
    add<double, 8, 10, 1, 1>();
    add<double, 8, 11, 1, 1>();
    add<double, 16, 7, 2, 1>();
#elif PART == 1
    add<double, 8, 12, 1, 1>();
    add<double, 8, 13, 1, 1>();
#elif PART == 2
    add<double, 8, 13, 1, 1, true>();
    add<float, 8, 13, 1, 1, true>();
#else
    add<float, 8, 11, 1, 1>();
    add<float, 8, 11, 1, 4>();
    add<float, 8, 13, 1, 1>();
    add<float, 8, 13, 1, 4>();
    add<float, 8, 14, 1, 1>();
#endif
  }
} CAT(init, PART);
}  // namespace
}  // namespace tune
