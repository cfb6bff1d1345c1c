// Chooses the implementation path of a host-level call and launches it.
#ifndef BATCHOL_DISPATCH_HPP
#define BATCHOL_DISPATCH_HPP

#include <Batchol_Check.hpp>
#include <Batchol_Generic.hpp>

namespace batchol::detail {

template <class ExecSpace>
Path resolve_path(const char* routine, const Options& opts) {
  switch (opts.path) {
    case Path::Host:
      fail(routine, "opts.path", "is Path::Host, which this build does not provide");
    case Path::Cuda:
      fail(routine, "opts.path", "is Path::Cuda, which this build does not provide");
    default:
      return Path::Generic;
  }
}

template <class Op, class ExecSpace, class T>
void launch(const char* routine, const ExecSpace& exec, const Problem<T>& pr, const Options& opts) {
  const Path path = resolve_path<ExecSpace>(routine, opts);
  if (pr.batch == 0) return;
  if (path == Path::Generic) generic_launch<Op>(exec, pr);
}

}  // namespace batchol::detail

#endif
