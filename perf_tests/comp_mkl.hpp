// Intel MKL's compact batched LAPACK on the same data: mkl_?potrf_compact, and
// the solves as two mkl_?trsm_compact (L y = b, then L^T x = y) on the
// right-hand sides in compact format. Host builds with Batchol_MKL_ROOT only.
//
// The compact format interleaves groups of V matrices (V: the SIMD width of
// the format, mkl_get_format_compact()'s choice for the machine) element by
// element, so that one vector instruction works on V matrices at once: the
// same idea as Batchol's LayoutLeft batches, with the batch cut in groups of V.
// Two series:
//  - mkl_compact (LayoutLeft batches): the data is already in compact format,
//    packed untimed from the series' input; only the compute is timed. The
//    fair comparison for Batchol on LayoutLeft data.
//  - mkl_compact_pack (LayoutRight batches): mkl_?gepack_compact of A (and B)
//    into a workspace, the compute, and mkl_?geunpack_compact of what was
//    written, all timed: what a user holding ordinary matrices pays.
//
// Every call is row major with uplo Lower: the lower triangle of a row-major
// (LayoutRight) matrix, as Batchol reads it, so the bytes are used as they are
// (the column-major upper call on the same bytes is the same thing); the
// right-hand sides are row-major n x nrhs.
//
// mkl_?potrf_compact reports one info for the whole batch, and does not report
// a matrix that is not positive definite (it returns 0 for a batch holding
// one): it goes to info(0), and the harness' backward-error check is what
// catches a wrong result.
#ifndef BATCHOL_BENCH_COMP_MKL_HPP
#define BATCHOL_BENCH_COMP_MKL_HPP

#include <bench_impl.hpp>

// Not mkl.h: its LAPACK prototypes clash with comp_lapack.hpp's (which pass
// gfortran's hidden string lengths), and lapack_omp keeps the system LAPACK.
#include <mkl_compact.h>
#include <mkl_service.h>
#include <mkl_version.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {
namespace mkl {

// Precision overloads.
inline MKL_INT size_compact(double, MKL_INT ld, MKL_INT sd, MKL_COMPACT_PACK f, MKL_INT nm) {
  return mkl_dget_size_compact(ld, sd, f, nm);
}
inline MKL_INT size_compact(float, MKL_INT ld, MKL_INT sd, MKL_COMPACT_PACK f, MKL_INT nm) {
  return mkl_sget_size_compact(ld, sd, f, nm);
}
inline void gepack(MKL_INT rows, MKL_INT cols, const double* const* a, MKL_INT lda, double* ap,
                   MKL_INT ldap, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_dgepack_compact(MKL_ROW_MAJOR, rows, cols, a, lda, ap, ldap, f, nm);
}
inline void gepack(MKL_INT rows, MKL_INT cols, const float* const* a, MKL_INT lda, float* ap,
                   MKL_INT ldap, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_sgepack_compact(MKL_ROW_MAJOR, rows, cols, a, lda, ap, ldap, f, nm);
}
inline void geunpack(MKL_INT rows, MKL_INT cols, double* const* a, MKL_INT lda, const double* ap,
                     MKL_INT ldap, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_dgeunpack_compact(MKL_ROW_MAJOR, rows, cols, a, lda, ap, ldap, f, nm);
}
inline void geunpack(MKL_INT rows, MKL_INT cols, float* const* a, MKL_INT lda, const float* ap,
                     MKL_INT ldap, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_sgeunpack_compact(MKL_ROW_MAJOR, rows, cols, a, lda, ap, ldap, f, nm);
}
inline void potrf(MKL_INT n, double* ap, MKL_INT* info, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_dpotrf_compact(MKL_ROW_MAJOR, MKL_LOWER, n, ap, n, info, f, nm);
}
inline void potrf(MKL_INT n, float* ap, MKL_INT* info, MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_spotrf_compact(MKL_ROW_MAJOR, MKL_LOWER, n, ap, n, info, f, nm);
}
// op(L) X = B, L the lower triangle of the n x n compact A, B n x nrhs.
inline void trsm(MKL_TRANSPOSE t, MKL_INT n, MKL_INT nrhs, const double* ap, double* bp,
                 MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_dtrsm_compact(MKL_ROW_MAJOR, MKL_LEFT, MKL_LOWER, t, MKL_NONUNIT, n, nrhs, 1.0, ap, n, bp,
                    nrhs, f, nm);
}
inline void trsm(MKL_TRANSPOSE t, MKL_INT n, MKL_INT nrhs, const float* ap, float* bp,
                 MKL_COMPACT_PACK f, MKL_INT nm) {
  mkl_strsm_compact(MKL_ROW_MAJOR, MKL_LEFT, MKL_LOWER, t, MKL_NONUNIT, n, nrhs, 1.0f, ap, n, bp,
                    nrhs, f, nm);
}

inline const char* format_name(MKL_COMPACT_PACK f) {
  switch (f) {
    case MKL_COMPACT_SSE:
      return "MKL_COMPACT_SSE";
    case MKL_COMPACT_AVX:
      return "MKL_COMPACT_AVX";
    case MKL_COMPACT_AVX512:
      return "MKL_COMPACT_AVX512";
  }
  return "unknown";
}

// Year and update, as the releases are named (2026.2).
inline std::string version() {
  return std::to_string(__INTEL_MKL__) + "." + std::to_string(__INTEL_MKL_UPDATE__);
}

// A compact buffer, aligned for the widest format.
template <class T>
struct Buffer {
  T* data = nullptr;
  std::size_t bytes = 0;
  explicit Buffer(std::size_t b) : bytes(b) {
    data = static_cast<T*>(mkl_malloc(b ? b : 1, 64));
    if (!data) throw std::bad_alloc();
  }
  ~Buffer() { mkl_free(data); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// The compact geometry of a case: MKL pads the batch to whole groups of V.
template <class T>
struct Shape {
  MKL_COMPACT_PACK format = mkl_get_format_compact();
  MKL_INT n = 0, nrhs = 0, nm = 0;
  MKL_INT v = 1;  // matrices per group
  std::size_t a_bytes = 0, b_bytes = 0;

  explicit Shape(const Case& c) : n(c.n), nrhs(c.has_rhs() ? c.nrhs : 0) {
    v = size_compact(T(), n, n, format, 1) / MKL_INT(sizeof(T) * n * n);
    // Sizes in bytes come back as a 32-bit MKL_INT (LP64 interface).
    const std::size_t groups = static_cast<std::size_t>((c.batch + v - 1) / v);
    if (groups * v * n * std::max(n, nrhs) * sizeof(T) >
        std::size_t(std::numeric_limits<MKL_INT>::max()))
      throw std::invalid_argument("MKL compact: a batch over 2 GiB needs the ILP64 interface");
    nm = static_cast<MKL_INT>(c.batch);
    a_bytes = static_cast<std::size_t>(size_compact(T(), n, n, format, nm));
    if (nrhs) b_bytes = static_cast<std::size_t>(size_compact(T(), n, nrhs, format, nm));
  }

  // Packs row-major matrices pa (and right-hand sides pb) into a and b.
  // gepack fills the spare lanes of the last group with identity matrices.
  void pack(const std::vector<const T*>& pa, const std::vector<const T*>& pb, T* a, T* b) const {
    gepack(n, n, pa.data(), n, a, n, format, nm);
    if (nrhs) gepack(n, nrhs, pb.data(), nrhs, b, nrhs, format, nm);
  }
};

// The compute on compact data: potrf, potrs or posv.
template <class T>
MKL_INT compute(const Case& c, const Shape<T>& sh, T* a, T* b) {
  MKL_INT info = 0;
  if (c.routine == Routine::Potrf || c.routine == Routine::Posv)
    potrf(sh.n, a, &info, sh.format, sh.nm);
  if (c.has_rhs()) {
    trsm(MKL_NOTRANS, sh.n, sh.nrhs, a, b, sh.format, sh.nm);  // L y = b
    trsm(MKL_TRANS, sh.n, sh.nrhs, a, b, sh.format, sh.nm);    // L^T x = y
  }
  return info;
}

}  // namespace mkl

template <class T, class Layout>
class MklCompactImpl final : public Impl<T, Layout> {
  static constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
  using RowMajor = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;

 public:
  // pack: mkl_compact_pack (LayoutRight, packing timed); else mkl_compact
  // (LayoutLeft, data already compact).
  explicit MklCompactImpl(bool pack) : pack_(pack) {}

  std::string name() const override { return pack_ ? "mkl_compact_pack" : "mkl_compact"; }

  bool supports(const Case& c) const override {
    if (!exec_is_host || !c.basic() || c.routine == Routine::Trsv) return false;
    return pack_ ? right : std::is_same_v<Layout, Kokkos::LayoutLeft>;
  }

  // mkl_compact: the series' input packed once into a compact pristine copy,
  // from which every slot's compact buffers are restored.
  void prepare(const Exec& exec, const DataSet<T, Layout>& d,
               const Slot<T, Layout>& pristine) const override {
    pristine.copy_from(exec, d.canonical_input());
    exec.fence();
    if (pack_) return;
    const Case& c = d.c;
    auto p = std::make_shared<Packed>(c);
    // Row-major copies of the input, whatever the layout.
    RowMajor a("mkl_a", c.batch, c.n, c.n), b;
    Kokkos::deep_copy(a, pristine.A);
    if (c.has_rhs()) {
      b = RowMajor("mkl_b", c.batch, c.n, c.nrhs);
      Kokkos::deep_copy(b, pristine.B);
    }
    std::vector<const T*> pa(c.batch), pb(c.has_rhs() ? c.batch : 0);
    for (std::int64_t i = 0; i < c.batch; ++i) {
      pa[i] = &a(i, 0, 0);
      if (c.has_rhs()) pb[i] = &b(i, 0, 0);
    }
    p->shape.pack(pa, pb, p->a.data, p->b ? p->b->data : nullptr);
    pending_ = p;
  }

  void attach(const Exec&, const Case& c, Slot<T, Layout>& s) const override {
    if (pack_) {
      auto st = std::make_shared<PackSlot>();
      // One workspace for all slots of the series, as a user would keep one.
      st->ws = workspace_.lock();
      if (!st->ws || st->ws->shape.nm != c.batch || st->ws->shape.n != c.n ||
          st->ws->shape.nrhs != (c.has_rhs() ? c.nrhs : 0)) {
        st->ws = std::make_shared<Packed>(c);
        workspace_ = st->ws;
      }
      for (std::int64_t i = 0; i < c.batch; ++i) {
        st->pa.push_back(&s.A(i, 0, 0));
        if (c.has_rhs()) st->pb.push_back(&s.B(i, 0, 0));
      }
      s.aux = st;
    } else {
      // The slots own the packed input; the first one takes it from prepare().
      std::shared_ptr<const Packed> p = packed_.lock();
      if (pending_) p = std::move(pending_);
      pending_.reset();
      if (!p) throw std::logic_error("MKL compact: attach before prepare");
      packed_ = p;
      s.aux = std::make_shared<CompactSlot>(p);
    }
  }

  void run(const Exec&, const Case& c, const Slot<T, Layout>& s) const override {
    if constexpr (exec_is_host) {
      const bool writes_a = c.routine == Routine::Potrf || c.routine == Routine::Posv;
      MKL_INT info = 0;
      if (pack_) {
        auto& st = static_cast<PackSlot&>(*s.aux);
        const auto& sh = st.ws->shape;
        T* a = st.ws->a.data;
        T* b = st.ws->b ? st.ws->b->data : nullptr;
        mkl::gepack(sh.n, sh.n, st.pa.data(), sh.n, a, sh.n, sh.format, sh.nm);
        if (b) mkl::gepack(sh.n, sh.nrhs, st.pb.data(), sh.nrhs, b, sh.nrhs, sh.format, sh.nm);
        info = mkl::compute(c, sh, a, b);
        if (writes_a) mkl::geunpack(sh.n, sh.n, st.pa.data(), sh.n, a, sh.n, sh.format, sh.nm);
        if (b) mkl::geunpack(sh.n, sh.nrhs, st.pb.data(), sh.nrhs, b, sh.nrhs, sh.format, sh.nm);
      } else {
        auto& st = static_cast<CompactSlot&>(*s.aux);
        info = mkl::compute(c, st.pristine->shape, st.a.data, st.b ? st.b->data : nullptr);
      }
      // One info for the whole batch.
      if (writes_a) s.info(0) = static_cast<int>(info);
    }
  }

  // mkl_compact: unpack the compact result into A (potrf, posv) and B.
  void export_result(const Exec&, const Case& c, const Slot<T, Layout>& s) const override {
    if (pack_) return;
    const auto& st = static_cast<const CompactSlot&>(*s.aux);
    const auto& sh = st.pristine->shape;
    const auto unpack = [&](const T* ap, MKL_INT cols, const auto& dst) {
      RowMajor tmp("mkl_unpack", c.batch, c.n, cols);
      std::vector<T*> p(c.batch);
      for (std::int64_t i = 0; i < c.batch; ++i) p[i] = &tmp(i, 0, 0);
      mkl::geunpack(sh.n, cols, p.data(), cols, ap, cols, sh.format, sh.nm);
      Kokkos::deep_copy(dst, tmp);
    };
    if (c.routine == Routine::Potrf || c.routine == Routine::Posv) unpack(st.a.data, sh.n, s.A);
    if (c.has_rhs()) unpack(st.b->data, sh.nrhs, s.B);
  }

  std::string label(const Case& c) const override {
    const mkl::Shape<T> sh(c);
    return std::string("MKL ") + mkl::version() + ", " + mkl::format_name(sh.format) + " (" +
           std::to_string(sh.v) + " matrices per group)";
  }

 private:
  // Compact A (and B) buffers of a case.
  struct Packed {
    mkl::Shape<T> shape;
    mkl::Buffer<T> a;
    std::unique_ptr<mkl::Buffer<T>> b;
    explicit Packed(const Case& c) : shape(c), a(shape.a_bytes) {
      if (shape.nrhs) b = std::make_unique<mkl::Buffer<T>>(shape.b_bytes);
    }
  };

  // mkl_compact: the slot's own compact copy, restored from the packed input.
  struct CompactSlot : Slot<T, Layout>::Aux {
    std::shared_ptr<const Packed> pristine;
    mkl::Buffer<T> a;
    std::unique_ptr<mkl::Buffer<T>> b;
    explicit CompactSlot(std::shared_ptr<const Packed> p)
        : pristine(std::move(p)), a(pristine->a.bytes) {
      if (pristine->b) b = std::make_unique<mkl::Buffer<T>>(pristine->b->bytes);
      restore();
    }
    void restore() override {
      std::memcpy(a.data, pristine->a.data, a.bytes);
      if (b) std::memcpy(b->data, pristine->b->data, b->bytes);
    }
  };

  // mkl_compact_pack: pointers to the slot's matrices and the shared workspace.
  struct PackSlot : Slot<T, Layout>::Aux {
    std::shared_ptr<Packed> ws;
    std::vector<T*> pa, pb;
  };

  bool pack_;
  mutable std::shared_ptr<Packed> pending_;  // prepared, not yet attached
  mutable std::weak_ptr<const Packed> packed_;
  mutable std::weak_ptr<Packed> workspace_;
};

}  // namespace bench

#endif
