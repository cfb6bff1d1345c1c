// The Host path (SIMD lanes x threads over packs of matrices). Not built yet:
// this file tells the dispatcher so.
#ifndef BATCHOL_HOST_PATH_HPP
#define BATCHOL_HOST_PATH_HPP

#include <Batchol_Options.hpp>
#include <Batchol_Problem.hpp>

namespace batchol::detail {

// Whether the Host path can run on this execution space, for this operation.
template <class ExecSpace, class Op>
inline constexpr bool host_path_available_v = false;

template <class Op, class ExecSpace, class T>
void host_launch(const ExecSpace&, const Problem<T>&, const Options&) {}

}  // namespace batchol::detail

#endif
