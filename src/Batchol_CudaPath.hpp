// The Cuda path (tuned kernels on the execution space's stream). Not built
// yet: this file tells the dispatcher so.
#ifndef BATCHOL_CUDA_PATH_HPP
#define BATCHOL_CUDA_PATH_HPP

#include <Batchol_Options.hpp>
#include <Batchol_Problem.hpp>

namespace batchol::detail {

template <class ExecSpace, class Op>
inline constexpr bool cuda_path_available_v = false;

template <class Op, class ExecSpace, class T>
void cuda_launch(const ExecSpace&, const Problem<T>&, const Options&) {}

}  // namespace batchol::detail

#endif
