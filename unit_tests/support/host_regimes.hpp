// The Host path decides per batch whether it is cache-resident (LayoutLeft
// packs read in place, four packs jammed at n = 5-7) or in memory (LayoutLeft
// chunks staged from n = 9 on, two packs jammed at n = 5-7): the results
// must be the same either way, but the suite's batches are small, so both
// are forced in turn here. for_each_regime(f) calls f(name) once per regime
// where the default execution space has the Host path, once otherwise;
// for_each_path_and_regime(f) calls f(path, name) for every implementation
// under test in every regime it depends on.
#ifndef BATCHOL_TEST_HOST_REGIMES_HPP
#define BATCHOL_TEST_HOST_REGIMES_HPP

#include "config.hpp"

#include <Batchol.hpp>

#include <string>

namespace batchol_test {

template <class F>
void for_each_regime(F&& f) {
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__)
  if constexpr (path_provided<Exec, Op::Potrf>(batchol::Path::Host)) {
    namespace host = batchol::detail::host;
    struct Restore {
      ~Restore() { host::residency_override() = host::Residency::Auto; }
    } restore;
    for (host::Residency where : {host::Residency::Cache, host::Residency::Memory}) {
      host::residency_override() = where;
      f(std::string(where == host::Residency::Cache ? "batch taken to be in cache"
                                                    : "batch taken to be in memory"));
    }
    return;
  }
#endif
  f(std::string("batch as it is"));
}

// f(path, regime) for the paths of paths_under_test<Ops...>(), the Generic
// path first, the Host path in each regime and the others once. Not Auto: it
// runs one of the others (which one, the profiling test checks), and every
// other test of the suite runs it.
template <Op... Ops, class F>
void for_each_path_and_regime(F&& f) {
  bool first = true;
  for_each_regime([&](const std::string& regime) {
    for (batchol::Path path : paths_under_test<Ops...>())
      if (path != batchol::Path::Auto && (first || path == batchol::Path::Host)) f(path, regime);
    first = false;
  });
}

}  // namespace batchol_test

#endif
