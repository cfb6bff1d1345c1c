// Where a host-level call chooses its path and runs it: the one place that
// knows every path. Top to bottom, detail::run<OP>:
//   1. resolve Options::path for the execution space and the operation
//      (Auto: the specialized path the build has, else Generic; a path the
//      build does not provide throws std::invalid_argument);
//   2. send what the Cuda path does not take to another path: orders above
//      BATCHOL_CUDA_MAX_N (at most 512) to Blocked (Generic for the smaller
//      of them on interleaved batches: blocked::preferred), except potrf,
//      potrs and posv of one large matrix and potrf of a batch of large
//      double matrices (cuda::serves; posv of such a batch factors on the
//      Cuda path and solves on Blocked), n == 0 to Generic, and potri
//      outside the Cuda kernel's orders to Generic; on a host backend,
//      one or two matrices from n = 512 from Host to Blocked
//      (blocked::preferred_on_host);
//      A potrf or posv with a logdet output (Problem::out) gets it from the
//      Cuda path's kernels, elsewhere from logdet run after the path; an
//      out-of-place potrf (Problem::src) reads its input in the Cuda path's
//      table kernels, elsewhere from a copy made first (in_place);
//   3. open a Kokkos profiling region named after the routine and the path
//      that runs, e.g. "batchol::potrf[Cuda]";
//   4. call that path's single entry, on the caller's execution space
//      instance:
//        generic::run<OP>(exec, pr)             Batchol_Generic.hpp
//        host::run<OP>(exec, pr)                Batchol_HostPath.hpp
//        blocked::run<OP>(exec, pr)             Batchol_Blocked.hpp
//        cuda::run<OP>(pr, exec.cuda_stream())  cuda/Batchol_CudaRun.cuh
// A variable-size batch (Problem::orders) goes through run_variable<OP>: the
// Generic path for Auto, as Potri goes; another path it throws for. Complex
// scalars take the Generic path, for Auto too (run_real has the rest).
#ifndef BATCHOL_DISPATCH_HPP
#define BATCHOL_DISPATCH_HPP

#include <Batchol_Options.hpp>
#include <detail/Batchol_Blocked.hpp>
#include <detail/Batchol_Check.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_CopyLower.hpp>
#include <detail/Batchol_CudaPath.hpp>
#include <detail/Batchol_Generic.hpp>
#include <detail/Batchol_HostPath.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Scalar.hpp>

#include <string>

namespace batchol::detail {

// Whether `path` can run operation OP on ExecSpace in this build (Auto and
// Generic always can, Blocked the operations the specialized paths have), on
// batches of one order or (variable_size) of several: batchol::path_available.
template <class ExecSpace, Op OP>
constexpr bool provides(Path path, bool variable_size = false) {
  if (variable_size) return path == Path::Auto || path == Path::Generic;
  switch (path) {
    case Path::Host:
      return host_path_available_v<ExecSpace, OP>;
    case Path::Cuda:
      return cuda_path_available_v<ExecSpace, OP>;
    case Path::Blocked:
      return specialized(OP);
    default:
      return true;
  }
}

template <class ExecSpace, Op OP>
Path resolve_path(const char* routine, const Options& opts, bool variable_size = false) {
  if (variable_size) {
    if (!provides<ExecSpace, OP>(opts.path, true))
      fail(routine, "opts.path",
           "must be Path::Auto or Path::Generic for a variable-size batch (the other paths "
           "do not provide it)");
    return Path::Generic;
  }
  switch (opts.path) {
    case Path::Auto:
      if constexpr (cuda_path_available_v<ExecSpace, OP>) return Path::Cuda;
      if constexpr (host_path_available_v<ExecSpace, OP>) return Path::Host;
      return Path::Generic;
    case Path::Host:
      if (!provides<ExecSpace, OP>(Path::Host))
        fail(routine, "opts.path",
             "is Path::Host, which this build does not provide for this execution space");
      return Path::Host;
    case Path::Cuda:
      if (!provides<ExecSpace, OP>(Path::Cuda))
        fail(routine, "opts.path",
             "is Path::Cuda, which this build does not provide for this execution space");
      return Path::Cuda;
    case Path::Blocked:
      if (!provides<ExecSpace, OP>(Path::Blocked))
        fail(routine, "opts.path", "is Path::Blocked, which does not provide this operation");
      return Path::Blocked;
    default:
      return Path::Generic;
  }
}

// The profiling region of a call of operation `op` on `path` (Generic, Host,
// Cuda or Blocked), e.g. "batchol::potrf[Cuda]"; on a variable-size batch
// "batchol::potrf_vbatch[Generic]".
inline std::string region_name(Op op, Path path, bool variable_size = false) {
  const char* p = path == Path::Host      ? "Host"
                  : path == Path::Cuda    ? "Cuda"
                  : path == Path::Blocked ? "Blocked"
                                          : "Generic";
  return std::string("batchol::") + routine_name(op) + (variable_size ? "_vbatch[" : "[") + p + "]";
}

// pr for a path whose kernels factor in place: an out-of-place potrf's
// input (Problem::src) copied into pr.a first.
template <class ExecSpace, class T>
Problem<T> in_place(const ExecSpace& exec, const Problem<T>& pr) {
  if (pr.src == nullptr) return pr;
  copy_lower(exec, pr.src, pr.a_bs, pr.a_rs, pr.a_cs, pr);
  Problem<T> q = pr;
  q.src = nullptr;
  return q;
}

// Operation OP of a checked call on real scalars, on the path opts and pr
// choose.
template <Op OP, class ExecSpace, class T>
void run(const char* routine, const ExecSpace& exec, const Problem<T>& pr, const Options& opts);

template <Op OP, class ExecSpace, class T>
void run_real(const char* routine, const ExecSpace& exec, const Problem<T>& pr,
              const Options& opts) {
  Path path = resolve_path<ExecSpace, OP>(routine, opts);
  if constexpr (OP == Op::Posv && cuda_path_available_v<ExecSpace, OP>) {
    // A batch of large matrices: the Cuda path factors them, the Blocked
    // path solves the systems it factored (the large-matrix solves take one).
    if (path == Path::Cuda && pr.batch > 1 && !cuda_serves<OP>(pr) && cuda_serves<Op::Potrf>(pr)) {
      const ScopedRegion region(region_name(OP, path));
      run<Op::Potrf>(routine, exec, pr, opts);
      Problem<T> q = pr;
      q.skip_failed = true;
      run<Op::Potrs>(routine, exec, q, opts);
      return;
    }
  }
  if (path == Path::Cuda && !cuda_serves<OP>(pr))
    path = specialized(OP) && pr.n > 0 && blocked::preferred(pr) ? Path::Blocked : Path::Generic;
  if (path == Path::Host && opts.path == Path::Auto && specialized(OP) &&
      blocked::preferred_on_host(pr))
    path = Path::Blocked;
  const ScopedRegion region(region_name(OP, path));
  if (pr.batch == 0) return;
  // Only the Cuda path's table kernels read an out-of-place potrf's input
  // themselves.
  const Problem<T> q = path == Path::Cuda && cuda_takes_source<OP>(pr) ? pr : in_place(exec, pr);
  switch (path) {
    case Path::Host:
      if constexpr (host_path_available_v<ExecSpace, OP>) host::run<OP>(exec, q);
      break;
    case Path::Cuda:
#if BATCHOL_HAS_CUDA_PATH
      if constexpr (cuda_path_available_v<ExecSpace, OP>) {
        release_blas_at_finalize();
        cuda::run<OP>(q, exec.cuda_stream());
      }
#endif
      break;
    case Path::Blocked:
      if constexpr (specialized(OP)) blocked::run<OP>(exec, q);
      break;
    default:
      generic::run<OP>(exec, q);
  }
  // A logdet output the path's kernels did not write (the Cuda path's do).
  if constexpr (factors(OP)) {
    if (pr.out != nullptr && path != Path::Cuda) generic::run<Op::Logdet>(exec, pr);
  }
}

// Operation OP of a checked call (`routine` names it in errors) on every
// matrix of pr, on exec.
template <Op OP, class ExecSpace, class T>
void run(const char* routine, const ExecSpace& exec, const Problem<T>& pr, const Options& opts) {
  if constexpr (is_complex_v<T>) {
    // Complex scalars: the Generic path only.
    if (opts.path != Path::Auto && opts.path != Path::Generic)
      fail(routine, "opts.path",
           "must be Path::Auto or Path::Generic for complex scalars (the other paths do not "
           "provide them)");
    const ScopedRegion region(region_name(OP, Path::Generic));
    if (pr.batch > 0) generic::run<OP>(exec, in_place(exec, pr));
    if constexpr (factors(OP)) {
      if (pr.out != nullptr && pr.batch > 0) generic::run<Op::Logdet>(exec, pr);
    }
  } else {
    run_real<OP>(routine, exec, pr, opts);
  }
}

// Whether potrf of pr runs where the kernel itself retries potrf_shifted's
// failures (the Cuda path's group and tile kernels, Problem::shift), so that
// no retry launch follows (Batchol_Shifted.hpp).
template <class ExecSpace, class T>
bool retries_in_kernel(const char* routine, const Problem<T>& pr, const Options& opts) {
  if constexpr (is_complex_v<T>) {
    return false;
  } else {
    return pr.batch > 0 && resolve_path<ExecSpace, Op::Potrf>(routine, opts) == Path::Cuda &&
           cuda_serves<Op::Potrf>(pr) && cuda_retries_shifts(pr);
  }
}

// The same for a variable-size batch (pr.orders set, pr.n the largest order).
template <Op OP, class ExecSpace, class T>
void run_variable(const char* routine, const ExecSpace& exec, const Problem<T>& pr,
                  const Options& opts) {
  const Path path = resolve_path<ExecSpace, OP>(routine, opts, true);
  const ScopedRegion region(region_name(OP, path, true));
  if (pr.batch > 0) generic::run<OP, true>(exec, pr);
}

}  // namespace batchol::detail

#endif
