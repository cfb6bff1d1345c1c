// Chooses the implementation path of a host-level call and launches it.
#ifndef BATCHOL_DISPATCH_HPP
#define BATCHOL_DISPATCH_HPP

#include <detail/Batchol_Check.hpp>
#include <detail/Batchol_CudaPath.hpp>
#include <detail/Batchol_Generic.hpp>
#include <detail/Batchol_HostPath.hpp>

namespace batchol {

// Whether `path` can run operation Op on ExecSpace in this build (Auto and
// Generic always can). Tests and benchmarks enumerate paths with it.
template <class ExecSpace, class Op = detail::PotrfOp>
constexpr bool path_available(Path path) {
  switch (path) {
    case Path::Host:
      return detail::host_path_available_v<ExecSpace, Op>;
    case Path::Cuda:
      return detail::cuda_path_available_v<ExecSpace, Op>;
    default:
      return true;
  }
}

namespace detail {

template <class ExecSpace, class Op>
Path resolve_path(const char* routine, const Options& opts) {
  switch (opts.path) {
    case Path::Auto:
      if constexpr (cuda_path_available_v<ExecSpace, Op>) return Path::Cuda;
      if constexpr (host_path_available_v<ExecSpace, Op>) return Path::Host;
      return Path::Generic;
    case Path::Host:
      if (!path_available<ExecSpace, Op>(Path::Host))
        fail(routine, "opts.path",
             "is Path::Host, which this build does not provide for this execution space");
      return Path::Host;
    case Path::Cuda:
      if (!path_available<ExecSpace, Op>(Path::Cuda))
        fail(routine, "opts.path",
             "is Path::Cuda, which this build does not provide for this execution space");
      return Path::Cuda;
    default:
      return Path::Generic;
  }
}

template <class Op, class ExecSpace, class T>
void launch(const char* routine, const ExecSpace& exec, const Problem<T>& pr, const Options& opts) {
  const Path path = resolve_path<ExecSpace, Op>(routine, opts);
  if (pr.batch == 0) return;
  switch (path) {
    case Path::Host:
      host_launch<Op>(exec, pr, opts);
      break;
    case Path::Cuda:
      cuda_launch<Op>(exec, pr, opts);
      break;
    default:
      generic_launch<Op>(exec, pr);
  }
}

}  // namespace detail
}  // namespace batchol

#endif
