// The Cuda path's entry, for the dispatcher: cuda::run<OP>(pr, stream) runs
// operation OP on every matrix of pr, on the stream of the execution space
// instance, so that it orders like any Kokkos kernel on it. The caller has
// checked that the path serves pr (serves: the tables' orders, and one large
// double matrix); what it does not cover runs on another path
// (Batchol_Dispatch.hpp).
//
// Below it, top to bottom: launch_tuned<OP> picks the table and runs its row
// (Batchol_CudaTuning.cuh), launch_table and launch_rows find the row of pr.n
// (Batchol_CudaRows.cuh), and the row's launcher starts the kernel (the
// kernel headers). No layer calls back up: a posv whose row splits it into a
// factorization and a solve comes back here for the solve. potri and
// posv_mixed have one kernel each and no table (Batchol_CudaPotri.cuh,
// Batchol_CudaMixed.cuh).
#ifndef BATCHOL_CUDA_RUN_CUH
#define BATCHOL_CUDA_RUN_CUH

#include "Batchol_CudaTuning.cuh"

#include <stdexcept>
#include <string>

// launch_tuned for one operation and precision: PREFIX `extern` declares it,
// nothing defines it. Batchol's CMake build defines BATCHOL_PRECOMPILED: the
// ten are then compiled once into the batchol_kernels library
// (src/kernels/cuda_entry.cpp.in, a translation unit per operation and
// precision) and every other translation unit only declares them, which
// saves minutes of nvcc time per translation unit.
#define BATCHOL_CUDA_ENTRY(PREFIX, OP, T)                                   \
  PREFIX template batchol::cuda::Launch batchol::cuda::launch_tuned<OP, T>( \
      const batchol::detail::Problem<T>&, cudaStream_t);
#define BATCHOL_CUDA_ENTRIES(PREFIX, T)                     \
  BATCHOL_CUDA_ENTRY(PREFIX, batchol::detail::Op::Potrf, T) \
  BATCHOL_CUDA_ENTRY(PREFIX, batchol::detail::Op::Posv, T)  \
  BATCHOL_CUDA_ENTRY(PREFIX, batchol::detail::Op::Potrs, T) \
  BATCHOL_CUDA_ENTRY(PREFIX, batchol::detail::Op::TrsvN, T) \
  BATCHOL_CUDA_ENTRY(PREFIX, batchol::detail::Op::TrsvT, T)

#if defined(BATCHOL_PRECOMPILED)
BATCHOL_CUDA_ENTRIES(extern, float)
BATCHOL_CUDA_ENTRIES(extern, double)
#endif

namespace batchol::cuda {

template <Op OP, class T>
void run(const Problem<T>& p, cudaStream_t stream);

// The operations of the kernel tables.
template <Op OP, class T>
void run_tables(const Problem<T>& p, cudaStream_t stream) {
  if constexpr (OP == Op::Posv) {
    // Above the tuned tables posv is always split: LargeTable's potrf (or
    // the large-matrix factorization), then the solve of the systems it
    // factored (so the Posv entry compiles none of their kernels).
    if (p.n > table_max_n) {
      run<Op::Potrf>(p, stream);
      Problem<T> q = p;
      q.skip_failed = true;
      run<Op::Potrs>(q, stream);
      return;
    }
  }
  const Launch launched = launch_tuned<OP>(p, stream);
  if (launched == Launch::NoKernel)
    throw std::logic_error("batchol::cuda: no kernel for n = " + std::to_string(p.n));
  if constexpr (OP == Op::Posv) {
    // A split posv: the factorization has run (and set every info); potrs
    // solves the systems it factored, with the kernel the solve tables name,
    // leaving the others' right-hand sides alone. (With one fixed solve
    // kernel instead of the tables, posv took 1.05-1.10 times as long as
    // potrf then potrs: H100, batch 10^4, double n = 100 LayoutRight, 115 ns
    // against 80 + 25; through the tables, 110.)
    if (launched == Launch::SolveNext) {
      Problem<T> q = p;
      q.skip_failed = true;
      launch_tuned<Op::Potrs>(q, stream);
    }
  }
}

template <Op OP, class T>
void run(const Problem<T>& p, cudaStream_t stream) {
  if constexpr (OP == Op::Potri) {
    launch_potri(p, stream);  // one kernel, no table
  } else if constexpr (OP == Op::PosvMixed) {
    if constexpr (std::is_same_v<T, double>) launch_mixed(p, stream);  // likewise
  } else {
    run_tables<OP>(p, stream);
  }
}

}  // namespace batchol::cuda

#endif
