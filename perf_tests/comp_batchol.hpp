// Batchol itself, one series per implementation path the build has. The paths
// are found by asking the library (a path it lacks throws before launching),
// so a new Host or Cuda path appears here without touching the benchmarks.
#ifndef BATCHOL_BENCH_COMP_BATCHOL_HPP
#define BATCHOL_BENCH_COMP_BATCHOL_HPP

#include <bench_impl.hpp>

#include <Batchol.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace bench {

inline const char* path_name(batchol::Path p) {
  switch (p) {
    case batchol::Path::Auto:
      return "auto";
    case batchol::Path::Generic:
      return "generic";
    case batchol::Path::Host:
      return "host";
    case batchol::Path::Cuda:
      return "cuda";
    case batchol::Path::Blocked:
      return "blocked";
  }
  return "?";
}

// Which routines a path accepts on the default execution space, found by
// calling each with a tiny batch: a path (or routine) the build lacks throws
// std::invalid_argument before launching anything.
struct PathSupport {
  batchol::Path path = batchol::Path::Auto;
  std::array<bool, kRoutines> takes{};  // by Routine

  bool routine(Routine r) const { return takes[std::size_t(r)]; }
  bool any() const { return std::find(takes.begin(), takes.end(), true) != takes.end(); }
};

template <class F>
bool accepted(F&& call) {
  try {
    call();
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// The paths with at least one routine; Auto always (last). A template only so
// that the harness can compile it in one translation unit (T = double).
template <class T = double>
std::vector<PathSupport> available_paths() {
  std::vector<PathSupport> paths;
  const Exec exec;
  Kokkos::View<T***, MemSpace> A("probe_A", 1, 2, 2);
  Kokkos::View<T**, MemSpace> b("probe_b", 1, 2);
  Kokkos::View<int*, MemSpace> info("probe_info", 1);
  Kokkos::View<T***, MemSpace> L("probe_L", 1, 2, 2);
  Kokkos::View<T*, MemSpace> out("probe_out", 1);
  Kokkos::View<int*, MemSpace> iter("probe_iter", 1);
  for (const auto p : {batchol::Path::Generic, batchol::Path::Host, batchol::Path::Cuda,
                       batchol::Path::Blocked, batchol::Path::Auto}) {
    batchol::Options opts;
    opts.path = p;
    PathSupport s;
    s.path = p;
    Kokkos::deep_copy(A, 1.0);
    Kokkos::deep_copy(b, 1.0);
    auto take = [&](Routine r, auto&& call) { s.takes[std::size_t(r)] = accepted(call); };
    take(Routine::Potrf, [&] { batchol::potrf(exec, A, info, opts); });
    take(Routine::Potrs, [&] { batchol::potrs(exec, A, b, opts); });
    take(Routine::Trsv, [&] {
      batchol::trsv(exec, batchol::Uplo::Lower, batchol::Trans::NoTranspose, A, b, opts);
    });
    take(Routine::Posv, [&] { batchol::posv(exec, A, b, info, opts); });
    take(Routine::Potri, [&] { batchol::potri(exec, A, info, opts); });
    take(Routine::Logdet, [&] { batchol::potrf(exec, A, info, out, opts); });
    if constexpr (std::is_same_v<T, double>)  // double systems only
      take(Routine::PosvMixed, [&] { batchol::posv_mixed(exec, A, b, info, iter, opts); });
    take(Routine::PotrfShifted,
         [&] { batchol::potrf_shifted(exec, A, L, info, out, batchol::Shift{}, opts); });
    exec.fence();
    if (s.any() || p == batchol::Path::Auto) paths.push_back(s);
  }
  return paths;
}

// A variant of a path for the routines that factor, as a series of its own:
// Fast ("batchol_auto_fast", Options::fast_math), so that its gain is measured
// beside the default; Upper ("batchol_auto_upper", Uplo::Upper on the same
// symmetric data), because the other triangle is read in another order (on
// LayoutRight, column by column) and cuSOLVER is measured in both
// (cusolver_upper).
enum class Variant { Default, Fast, Upper };

template <class T, class Layout>
class BatcholImpl final : public Impl<T, Layout> {
 public:
  explicit BatcholImpl(const PathSupport& support, Variant v = Variant::Default)
      : support_(support), path_(support.path), variant_(v) {}
  std::string name() const override {
    return std::string("batchol_") + path_name(path_) +
           (variant_ == Variant::Fast    ? "_fast"
            : variant_ == Variant::Upper ? "_upper"
                                         : "");
  }
  // The variants only for potrf and posv; posv_mixed only in double (the
  // harness registers it only there).
  bool supports(const Case& c) const override {
    const bool factors = c.routine == Routine::Potrf || c.routine == Routine::Posv;
    return support_.routine(c.routine) && (factors || variant_ == Variant::Default) &&
           (c.routine != Routine::PosvMixed || std::is_same_v<T, double>);
  }
  FactorKind factor_kind() const override {
    return variant_ == Variant::Upper ? FactorKind::CholUpper : FactorKind::CholLower;
  }

  void run(const Exec& exec, const Case& c, const Slot<T, Layout>& s) const override {
    batchol::Options opts;
    opts.path = path_;
    opts.fast_math = variant_ == Variant::Fast;
    if (variant_ == Variant::Upper) opts.uplo = batchol::Uplo::Upper;
    switch (c.routine) {
      case Routine::Potrf:
        batchol::potrf(exec, s.A, s.info, opts);
        break;
      case Routine::Potrs:
        if (c.nrhs == 1)
          batchol::potrs(exec, s.A, s.b2(), opts);
        else
          batchol::potrs(exec, s.A, s.B, opts);
        break;
      case Routine::Trsv:
        batchol::trsv(exec, c.uplo, c.trans, s.A, s.b2(), opts);
        break;
      case Routine::Posv:
        if (c.nrhs == 1)
          batchol::posv(exec, s.A, s.b2(), s.info, opts);
        else
          batchol::posv(exec, s.A, s.B, s.info, opts);
        break;
      case Routine::Potri:  // what a user does to get inv(A)
        batchol::potrf(exec, s.A, s.info, opts);
        batchol::potri(exec, s.A, s.info, opts);
        break;
      case Routine::Logdet:  // potrf with its logdet output
        batchol::potrf(exec, s.A, s.info, s.out, opts);
        break;
      case Routine::PosvMixed:
        if constexpr (std::is_same_v<T, double>)
          batchol::posv_mixed(exec, s.A, s.b2(), s.info, s.iter, opts);
        break;
      case Routine::PotrfShifted:
        batchol::potrf_shifted(exec, s.A, s.L, s.info, s.out, batchol::Shift{}, opts);
        break;
    }
  }

 private:
  PathSupport support_;
  batchol::Path path_;
  Variant variant_;
};

}  // namespace bench

#endif
