// A/B of register caps on the tile kernel (MINB > 32 = register cap; experiment only).
#include "tune_common.cuh"
namespace tune {
namespace {
template <class T, int B, int M, int MINB>
void tile() {
  registry<T>().push_back(make_tile_cand<T, B, M, MINB, 1>());
}
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
struct CAT(Init, PART) {
  CAT(Init, PART)() {
#if PART == 0
    tile<double, 8, 9, 1>();
    tile<double, 8, 9, 144>();
    tile<double, 8, 9, 128>();
    tile<double, 8, 10, 1>();
    tile<double, 8, 10, 144>();
#elif PART == 1
    tile<double, 8, 11, 1>();
    tile<double, 8, 11, 168>();
    tile<double, 8, 12, 1>();
    tile<double, 8, 12, 200>();
#elif PART == 2
    tile<double, 8, 13, 1>();
    tile<double, 8, 13, 200>();
#elif PART == 3
    tile<float, 8, 10, 1>();
    tile<float, 8, 10, 80>();
    tile<float, 8, 12, 1>();
    tile<float, 8, 12, 112>();
#else
    tile<float, 8, 13, 1>();
    tile<float, 8, 13, 128>();
#endif
  }
} CAT(init, PART);
}  // namespace
}  // namespace tune
