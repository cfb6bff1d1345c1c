// KokkosBatched, the batched dense kernels of Kokkos Kernels. It has no dense
// Cholesky, so the series are what its users run today:
//   kb_serial_lu / kb_team_lu   unpivoted LU (potrf; posv = LU + two trsv),
//   kb_serial_trsv / kb_team_trsv  trsv, and potrs as two trsv on our factor,
//   kb_serial_pbtrf             banded Cholesky with kd = n-1 (potrf, potrs,
//                               posv), Kokkos Kernels 4.5 and later only,
//                               LayoutRight batches only (see ToBand).
// Every kernel is KokkosBatched's own code; we only loop over the batch.
#ifndef BATCHOL_BENCH_COMP_KOKKOSBATCHED_HPP
#define BATCHOL_BENCH_COMP_KOKKOSBATCHED_HPP

#include <bench_impl.hpp>

#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_LU_Team_Impl.hpp>
#include <KokkosBatched_Trsv_Decl.hpp>
#include <KokkosBatched_Trsv_Serial_Impl.hpp>
#include <KokkosBatched_Trsv_Team_Impl.hpp>
#include <KokkosBatched_Util.hpp>

// KOKKOSKERNELS_VERSION exists from 4.0 on (Debian's 3.4 has none); SerialPbtrf
// and SerialPbtrs arrived in 4.5.
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40500
#include <KokkosBatched_Pbtrf.hpp>
#include <KokkosBatched_Pbtrs.hpp>
#define BATCHOL_BENCH_HAVE_PBTRF 1
#endif

namespace bench {
namespace kb {

namespace KB = KokkosBatched;
using Unit = KB::Diag::Unit;
using NonUnit = KB::Diag::NonUnit;
using LuAlgo = KB::Algo::LU::Unblocked;
using TrsvAlgo = KB::Algo::Trsv::Unblocked;

// The solve of one system with the triangle `uplo` of a, op given by `trans`.
template <class Member, class Mode, class Uplo, class Trans, class Diag, class A, class X>
KOKKOS_INLINE_FUNCTION void trsv(const Member& m, const A& a, const X& x) {
  if constexpr (std::is_same_v<Mode, KB::Mode::Serial>)
    KB::SerialTrsv<Uplo, Trans, Diag, TrsvAlgo>::invoke(1.0, a, x);
  else
    KB::TeamTrsv<Member, Uplo, Trans, Diag, TrsvAlgo>::invoke(m, 1.0, a, x);
}

// One matrix: the routine of the case, with the given mode (Serial/Team).
template <class Mode, class T, class Layout>
struct Body {
  Mat3<T, Layout> A, B;
  Case c;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, const std::int64_t b) const {
    using KB::Trans;
    using KB::Uplo;
    const auto a = Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL());
    if (c.routine == Routine::Potrf || c.routine == Routine::Posv) {
      if constexpr (std::is_same_v<Mode, KB::Mode::Serial>)
        KB::SerialLU<LuAlgo>::invoke(a);
      else
        KB::TeamLU<Member, LuAlgo>::invoke(m, a);
    }
    if (c.routine == Routine::Potrf) return;
    if constexpr (std::is_same_v<Mode, KB::Mode::Team>) m.team_barrier();
    for (int q = 0; q < c.nrhs; ++q) {
      const auto x = Kokkos::subview(B, b, Kokkos::ALL(), q);
      if (c.routine == Routine::Posv) {  // L U x = b, L unit lower
        trsv<Member, Mode, Uplo::Lower, Trans::NoTranspose, Unit>(m, a, x);
        if constexpr (std::is_same_v<Mode, KB::Mode::Team>) m.team_barrier();
        trsv<Member, Mode, Uplo::Upper, Trans::NoTranspose, NonUnit>(m, a, x);
      } else if (c.routine == Routine::Potrs) {  // L L^T x = b on our factor
        trsv<Member, Mode, Uplo::Lower, Trans::NoTranspose, NonUnit>(m, a, x);
        if constexpr (std::is_same_v<Mode, KB::Mode::Team>) m.team_barrier();
        trsv<Member, Mode, Uplo::Lower, Trans::Transpose, NonUnit>(m, a, x);
      } else {
        const bool lower = c.uplo == batchol::Uplo::Lower;
        const bool trans = c.trans == batchol::Trans::Transpose;
        if (lower && !trans) trsv<Member, Mode, Uplo::Lower, Trans::NoTranspose, NonUnit>(m, a, x);
        if (lower && trans) trsv<Member, Mode, Uplo::Lower, Trans::Transpose, NonUnit>(m, a, x);
        if (!lower && !trans) trsv<Member, Mode, Uplo::Upper, Trans::NoTranspose, NonUnit>(m, a, x);
        if (!lower && trans) trsv<Member, Mode, Uplo::Upper, Trans::Transpose, NonUnit>(m, a, x);
      }
      if constexpr (std::is_same_v<Mode, KB::Mode::Team>) m.team_barrier();
    }
  }
};

template <class T, class Layout>
struct SerialFunctor {
  Body<KB::Mode::Serial, T, Layout> body;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const { body(0, b); }
};

template <class T, class Layout>
struct TeamFunctor {
  Body<KB::Mode::Team, T, Layout> body;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    body(m, static_cast<std::int64_t>(m.league_rank()));
  }
};

#if defined(BATCHOL_BENCH_HAVE_PBTRF)
// SerialPbtrf (Lower, Unblocked) scales each column with a hard-coded unit
// stride while its rank-1 update uses the view's row stride, so it is correct
// only on a column-major matrix with unit row stride (checked against Kokkos
// Kernels 4.6). A LayoutRight batch keeps each matrix contiguous, so the band
// (LAPACK lower band storage, kd = n-1: band(r, j) = A(j + r, j)) is stored
// column-major inside the matrix's n*n block, i.e. at array index (b, j, r),
// and handed to Kokkos Kernels as a strided view with strides (1, n).
template <class T, class Layout>
struct ToBand {
  Mat3<T, Layout> dense, band;
  int n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    for (int j = 0; j < n; ++j)
      for (int r = 0; r < n; ++r) band(b, j, r) = j + r < n ? dense(b, j + r, j) : T(0);
  }
};

template <class T>
KOKKOS_INLINE_FUNCTION auto band_view(T* p, int n) {
  using V = Kokkos::View<T**, Kokkos::LayoutStride, typename Exec::memory_space,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return V(p, Kokkos::LayoutStride(n, 1, n, n));
}

template <class T, class Layout>
struct PbtrfFunctor {
  Mat3<T, Layout> A, B;
  Case c;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t b) const {
    const auto ab = band_view(&A(b, 0, 0), c.n);
    if (c.routine != Routine::Potrs)
      KB::SerialPbtrf<KB::Uplo::Lower, KB::Algo::Pbtrf::Unblocked>::invoke(ab);
    if (c.routine == Routine::Potrf) return;
    for (int q = 0; q < c.nrhs; ++q)
      KB::SerialPbtrs<KB::Uplo::Lower, KB::Algo::Pbtrs::Unblocked>::invoke(
          ab, Kokkos::subview(B, b, Kokkos::ALL(), q));
  }
};
#endif

}  // namespace kb

using Range64 = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;

template <class T, class Layout>
class KbSerialImpl final : public Impl<T, Layout> {
 public:
  // lu: factor with SerialLU (potrf, posv); otherwise trsv on our factor (potrs, trsv).
  explicit KbSerialImpl(bool lu) : lu_(lu) {}
  std::string name() const override { return lu_ ? "kb_serial_lu" : "kb_serial_trsv"; }
  bool supports(const Case& c) const override { return c.basic() && lu_ != c.starts_from_factor(); }
  FactorKind factor_kind() const override { return FactorKind::LU; }
  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    Kokkos::parallel_for("bench::kb_serial", Range64(exec, 0, c.batch),
                         kb::SerialFunctor<T, Layout>{{s.A, s.B, c}});
  }

 private:
  bool lu_;
};

template <class T, class Layout>
class KbTeamImpl final : public Impl<T, Layout> {
 public:
  explicit KbTeamImpl(bool lu) : lu_(lu) {}
  std::string name() const override { return lu_ ? "kb_team_lu" : "kb_team_trsv"; }
  bool supports(const Case& c) const override {
    return c.basic() && lu_ != c.starts_from_factor() && c.batch <= std::int64_t(1) << 30;
  }
  FactorKind factor_kind() const override { return FactorKind::LU; }
  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    // One team per matrix; Kokkos picks the team size (1 on the host).
    Kokkos::parallel_for("bench::kb_team",
                         Kokkos::TeamPolicy<Exec>(exec, static_cast<int>(c.batch), Kokkos::AUTO),
                         kb::TeamFunctor<T, Layout>{{s.A, s.B, c}});
  }

 private:
  bool lu_;
};

#if defined(BATCHOL_BENCH_HAVE_PBTRF)
template <class T, class Layout>
class KbPbtrfImpl final : public Impl<T, Layout> {
 public:
  std::string name() const override { return "kb_serial_pbtrf"; }
  bool supports(const Case& c) const override {
    return c.basic() && c.routine != Routine::Trsv && std::is_same_v<Layout, Kokkos::LayoutRight>;
  }
  FactorKind factor_kind() const override { return FactorKind::BandLower; }
  void prepare(const Exec& exec, const DataSet<T, Layout>& d,
               const Slot<T, Layout>& pristine) const override {
    pristine.copy_from(exec, d.canonical_input());
    const Mat3<T, Layout> dense = d.canonical_input().A;
    Kokkos::parallel_for("bench::to_band", Range64(exec, 0, d.c.batch),
                         kb::ToBand<T, Layout>{dense, pristine.A, d.c.n});
  }
  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    Kokkos::parallel_for("bench::kb_pbtrf", Range64(exec, 0, c.batch),
                         kb::PbtrfFunctor<T, Layout>{s.A, s.B, c});
  }
};
#endif

}  // namespace bench

#endif
