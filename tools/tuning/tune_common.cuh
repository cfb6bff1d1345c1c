// Shared between the tuning driver (tune.cu) and the kernel-instantiation
// parts (tune_kernels.cu, compiled several times so the fully unrolled kernels
// build in parallel).
#ifndef BATCHOL_TUNE_COMMON_CUH
#define BATCHOL_TUNE_COMMON_CUH

#include "detail/cuda/Batchol_CudaGroupKernel.cuh"
#include "detail/cuda/Batchol_CudaLaneSolve.cuh"
#include "detail/cuda/Batchol_CudaPanelKernel.cuh"
#include "detail/cuda/Batchol_CudaRows.cuh"
#include "detail/cuda/Batchol_CudaStagedSolve.cuh"
#include "detail/cuda/Batchol_CudaStridedSolve.cuh"
#include "detail/cuda/Batchol_CudaTileKernel.cuh"
#include "detail/cuda/Batchol_CudaTuning.cuh"

#include <string>
#include <vector>

// The candidate files are compiled TUNE_NPARTS times, part TUNE_PART each
// (build_tune.sh); a plain compile builds every candidate.
#ifndef TUNE_PART
#define TUNE_PART 0
#endif
#ifndef TUNE_NPARTS
#define TUNE_NPARTS 1
#endif

namespace tune {

using batchol::detail::Op;
using batchol::detail::Problem;

// One kernel configuration; fn[mode] is null where that mode was not built.
// Group kernels: g lanes per matrix; tile kernels (tile = true): g = B, a
// B x B thread block per matrix, mpb matrices per block; the kernel table
// (table = true): orders lo < n <= np; the strided warp solve (mw > 0):
// np = 32 mw, u steps read ahead, nr right-hand sides per warp; the lane
// solve (any_n): every order up to np, g lanes per system, nr right-hand
// sides per lane, blocks of nb rows.
template <class T>
struct Cand {
  std::string name;
  int np = 0, g = 0, warps = 0;
  bool tile = false, table = false;
  int mpb = 1, lo = 0;
  int nb = 0;  // panel kernel: columns per panel (g = BX)
  int mw = 0, u = 0, nr = 0;
  bool any_n = false;
  bool posv_only = false;  // another way of solving posv after a kernel timed already
  using Fn = void (*)(const Problem<T>&, cudaStream_t);
  Fn fn[5] = {};
};

// Defined in tune.cu; the parts append to it during static initialization.
template <class T>
std::vector<Cand<T>>& registry();

template <class T, int NP, int G, int W>
Cand<T> make_cand() {
  using namespace batchol::cuda;
  Cand<T> c;
  c.name = "group<NP=" + std::to_string(NP) + ",G=" + std::to_string(G) +
           ",W=" + std::to_string(W) + ">";
  c.np = NP;
  c.g = G;
  c.warps = W;
  c.fn[int(Op::Potrf)] = &launch_group<T, NP, G, W, Op::Potrf>;
  c.fn[int(Op::Posv)] = &launch_group<T, NP, G, W, Op::Posv>;
  c.fn[int(Op::Potrs)] = &launch_group<T, NP, G, W, Op::Potrs>;
  c.fn[int(Op::TrsvN)] = &launch_group<T, NP, G, W, Op::TrsvN>;
  c.fn[int(Op::TrsvT)] = &launch_group<T, NP, G, W, Op::TrsvT>;
  return c;
}

// posv's solve after a factorization candidate, as the library's split
// posv runs it: potrs through the solve tables, leaving the systems whose
// factorization failed alone. Defined in tune_table.cu, which compiles the
// tables (double in its part 0, float in part 1).
template <class T>
void split_solve(const Problem<T>& p, cudaStream_t s);

// The tile kernel with a fixed number of matrices per block (MPB), as a
// plain function pointer; SPLIT: posv as potrf, then split_solve.
template <class T, int B, int M, int MINB, int MPB, Op OP, bool SPLIT = false>
void launch_tile_fixed(const Problem<T>& p, cudaStream_t s) {
  using namespace batchol::cuda;
  launch_tile<T, B, M, MINB, SPLIT ? Op::Potrf : OP>(p, s, MPB);
  if constexpr (SPLIT) split_solve(p, s);
}

template <class T, int B, int M, int MINB, int MPB>
Cand<T> make_tile_cand() {
  Cand<T> c;
  c.name = "tile<NP=" + std::to_string(B * M) + ",B=" + std::to_string(B) +
           ",MINB=" + std::to_string(MINB) + ",MPB=" + std::to_string(MPB) + ">";
  c.np = B * M;
  c.g = B;
  c.warps = (B * B * MPB + 31) / 32;
  c.tile = true;
  c.mpb = MPB;
  c.fn[int(Op::Potrf)] = &launch_tile_fixed<T, B, M, MINB, MPB, Op::Potrf>;
  c.fn[int(Op::Posv)] = &launch_tile_fixed<T, B, M, MINB, MPB, Op::Posv>;
  return c;
}

// The same instantiation's posv solved another way (HOW: Split into potrf
// and split_solve, or Registers, from the register tiles), named
// "...,POSV=split>" or "...,POSV=reg>" and timed for posv only.
template <class T, int B, int M, int MINB, int MPB>
void launch_tile_reg(const Problem<T>& p, cudaStream_t s) {
  batchol::cuda::launch_tile<T, B, M, MINB, Op::Posv, true>(p, s, MPB);
}
template <class T, int B, int M, int MINB, int MPB, batchol::cuda::PosvSolve HOW>
Cand<T> make_tile_posv_twin() {
  using batchol::cuda::PosvSolve;
  static_assert(HOW == PosvSolve::Split || HOW == PosvSolve::Registers, "a twin of the fused posv");
  constexpr bool reg = HOW == PosvSolve::Registers;
  Cand<T> c = make_tile_cand<T, B, M, MINB, MPB>();
  c.name.back() = ',';
  c.name += reg ? "POSV=reg>" : "POSV=split>";
  c.posv_only = true;
  if constexpr (reg)
    c.fn[int(Op::Posv)] = &launch_tile_reg<T, B, M, MINB, MPB>;
  else
    c.fn[int(Op::Posv)] = &launch_tile_fixed<T, B, M, MINB, MPB, Op::Posv, true>;
  return c;
}

// The panel kernel (left-looking, NB-column panels; posv is it followed by
// split_solve, as in the table) with a fixed number of matrices per block.
template <class T, int BX, int BY, int NB, int KP, int MINB, int MPB, Op OP>
void launch_panel_fixed(const Problem<T>& p, cudaStream_t s) {
  batchol::cuda::launch_panel<T, BX, BY, NB, KP, MINB>(p, s, MPB);
  if constexpr (OP == Op::Posv) split_solve(p, s);
}

template <class T, int BX, int BY, int NB, int KP, int MINB, int MPB>
Cand<T> make_panel_cand() {
  Cand<T> c;
  c.name = "panel<NP=" + std::to_string(NB * KP) + ",NB=" + std::to_string(NB) +
           ",BX=" + std::to_string(BX) + ",BY=" + std::to_string(BY) +
           ",MINB=" + std::to_string(MINB) + ",MPB=" + std::to_string(MPB) + ">";
  c.np = NB * KP;
  c.g = BX;
  c.nb = NB;
  c.warps = (BX * BY * MPB + 31) / 32;
  c.tile = true;
  c.mpb = MPB;
  c.fn[int(Op::Potrf)] = &launch_panel_fixed<T, BX, BY, NB, KP, MINB, MPB, Op::Potrf>;
  c.fn[int(Op::Posv)] = &launch_panel_fixed<T, BX, BY, NB, KP, MINB, MPB, Op::Posv>;
  return c;
}

// The strided warp solve as the solve-only modes' candidate (potrs and trsv
// report no info; with Problem::skip_failed off they never read it).
template <class T, int MW, int U, int NR, Op OP>
void launch_strided_fixed(const Problem<T>& p, cudaStream_t s) {
  batchol::cuda::launch_strided_solve<T, MW, OP, U, NR>(p, s);
}

template <class T, int MW, int U, int NR>
Cand<T> make_strided_cand() {
  Cand<T> c;
  c.name = "strided<MW=" + std::to_string(MW) + ",U=" + std::to_string(U) +
           ",NR=" + std::to_string(NR) + ">";
  c.np = 32 * MW;
  c.g = 32;
  c.warps = batchol::cuda::strided_solve_warps;
  c.mw = MW;
  c.u = U;
  c.nr = NR;
  c.fn[int(Op::Potrs)] = &launch_strided_fixed<T, MW, U, NR, Op::Potrs>;
  c.fn[int(Op::TrsvN)] = &launch_strided_fixed<T, MW, U, NR, Op::TrsvN>;
  c.fn[int(Op::TrsvT)] = &launch_strided_fixed<T, MW, U, NR, Op::TrsvT>;
  return c;
}

// The staged solve (the factor copied into shared memory, then one warp per
// system) with MPB systems per block, by bulk copies where the rows allow
// them (BULK), as the solve tables launch it.
template <class T, int MW, int MPB, bool BULK, Op OP>
void launch_staged_fixed(const Problem<T>& p, cudaStream_t s) {
  batchol::cuda::launch_staged_solve<T, MW, OP>(p, s, MPB, BULK);
}

template <class T, int MW, int MPB, bool BULK = false>
Cand<T> make_staged_cand() {
  Cand<T> c;
  c.name = std::string(BULK ? "stagedbulk" : "staged") + "<MW=" + std::to_string(MW) +
           ",MPB=" + std::to_string(MPB) + ">";
  c.np = 32 * MW;
  c.g = 32;
  c.warps = MPB;
  c.mw = MW;
  c.mpb = MPB;
  c.fn[int(Op::Potrs)] = &launch_staged_fixed<T, MW, MPB, BULK, Op::Potrs>;
  c.fn[int(Op::TrsvN)] = &launch_staged_fixed<T, MW, MPB, BULK, Op::TrsvN>;
  c.fn[int(Op::TrsvT)] = &launch_staged_fixed<T, MW, MPB, BULK, Op::TrsvT>;
  return c;
}

// The lane solve (G lanes per system, Batchol_CudaLaneSolve.cuh): NR
// right-hand sides per lane, blocks of R rows, MINB blocks per SM.
template <class T, int R, int NR, int G, int MINB, Op OP>
void launch_lane_fixed(const Problem<T>& p, cudaStream_t s) {
  batchol::cuda::launch_lane_solve<T, NR, R, G, MINB, OP>(p, s);
}

template <class T, int R, int NR, int G, int MINB>
Cand<T> make_lane_cand() {
  Cand<T> c;
  c.name = "lane<R=" + std::to_string(R) + ",NR=" + std::to_string(NR) + ",G=" + std::to_string(G) +
           ",MINB=" + std::to_string(MINB) + ">";
  c.np = batchol::cuda::tuned_max_n;
  c.g = G;
  c.warps = 1;
  c.nb = R;
  c.nr = NR;
  c.any_n = true;
  c.fn[int(Op::Potrs)] = &launch_lane_fixed<T, R, NR, G, MINB, Op::Potrs>;
  c.fn[int(Op::TrsvN)] = &launch_lane_fixed<T, R, NR, G, MINB, Op::TrsvN>;
  c.fn[int(Op::TrsvT)] = &launch_lane_fixed<T, R, NR, G, MINB, Op::TrsvT>;
  return c;
}

}  // namespace tune

#endif
