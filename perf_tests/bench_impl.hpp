// The interface every measured implementation (Batchol's paths and each
// competitor) provides to the timing protocol. An implementation may keep its
// own storage format; it builds its input from the canonical data set untimed,
// and its kernel is the only thing timed.
#ifndef BATCHOL_BENCH_IMPL_HPP
#define BATCHOL_BENCH_IMPL_HPP

#include <bench_check.hpp>

#include <memory>
#include <string>
#include <vector>

namespace bench {

template <class T, class Layout>
class Impl {
 public:
  virtual ~Impl() = default;

  // Series name, e.g. "batchol_generic", "lapack_omp", "kb_serial_lu".
  virtual std::string name() const = 0;

  // Whether this implementation can run the case at all (routine, n, nrhs, layout).
  virtual bool supports(const Case& c) const = 0;

  // Fill `pristine` (already allocated like a Slot) with this implementation's
  // input, from the canonical data: by default the same bytes.
  virtual void prepare(const Exec& exec, const DataSet<T, Layout>& d,
                       const Slot<T, Layout>& pristine) const {
    pristine.copy_from(exec, d.canonical_input());
  }

  // Per-slot state that must not be timed (pointer arrays, pivots, handles).
  virtual void attach(const Exec& /*exec*/, const Case& /*c*/, Slot<T, Layout>& /*s*/) const {}

  // The timed work, on the data of slot s. May be asynchronous on exec.
  virtual void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const = 0;

  // Puts the result of run() into the slot's A and B, untimed, before it is
  // checked: for an implementation that computes in its own storage format.
  virtual void export_result(const Exec& /*exec*/, const Case& /*c*/,
                             const Slot<T, Layout>& /*s*/) const {}

  // What a potrf leaves in A.
  virtual FactorKind factor_kind() const { return FactorKind::CholLower; }

  // Whether the protocol checks the result. False only for a rate reference
  // that computes something other than the routine (cublas_gemm).
  virtual bool checked() const { return true; }

  // The flops one matrix costs, for the GF_per_s counter: the routine's own
  // count, or a rate reference's (a gemm's 2 n^3).
  virtual double flops_per_matrix(const Case& c) const { return bench::flops_per_matrix(c); }

  // The series' label, e.g. the configuration an implementation chose for
  // the case in prepare(); empty: none.
  virtual std::string label(const Case& /*c*/) const { return {}; }
};

template <class T, class Layout>
using ImplList = std::vector<std::shared_ptr<const Impl<T, Layout>>>;

}  // namespace bench

#endif
