// A/B of tile-kernel sources: TAG names the variant, -Dbatchol=... keeps symbols apart.
#include "tune_common.cuh"
namespace tune {
namespace {
#define STR2(x) #x
#define STR(x) STR2(x)
const char* const kTag = STR(TAG);
template <class T, int B, int M, int MINB, int MPB, Mode MODE>
void launch(const Batch<T>& p, cudaStream_t s) {
  batchol::cuda::launch_tile<T, B, M, MINB, MODE, false>(p, s, MPB);
}
template <class T, int B, int M, int MINB, int MPB>
void add() {
  Cand<T> c;
  c.name = std::string(kTag) + "tile<NP=" + std::to_string(B * M) + ",B=" + std::to_string(B) +
           ",MINB=" + std::to_string(MINB) + ",MPB=" + std::to_string(MPB) + ">";
  c.np = B * M;
  c.g = B;
  c.warps = (B * B * MPB + 31) / 32;
  c.tile = true;
  c.mpb = MPB;
  c.fn[int(Mode::Potrf)] = &launch<T, B, M, MINB, MPB, Mode::Potrf>;
  registry<T>().push_back(c);
}
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
struct CAT(Init, CAT(TAG, PART)) {
  CAT(Init, CAT(TAG, PART))() {
#if PART == 0
    add<double, 8, 7, 2, 1>();
    add<double, 8, 10, 1, 1>();
    add<double, 8, 11, 1, 1>();
#elif PART == 1
    add<double, 8, 12, 1, 1>();
    add<double, 8, 13, 1, 1>();
#elif PART == 2
    add<double, 16, 7, 2, 1>();
    add<float, 8, 11, 1, 1>();
    add<float, 8, 11, 1, 4>();
#else
    add<float, 8, 13, 1, 1>();
    add<float, 8, 14, 1, 1>();
#endif
  }
} CAT(init, CAT(TAG, PART));
}  // namespace
}  // namespace tune
