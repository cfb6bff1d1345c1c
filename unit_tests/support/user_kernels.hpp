// Kernels written the way a user would call the device-level API: one matrix
// per index of a RangePolicy (batchol::serial), or per team of a TeamPolicy
// (batchol::team). They live in free function templates of a named namespace
// because nvcc's extended lambdas may not sit in a (private) gtest TestBody.
#ifndef BATCHOL_TEST_USER_KERNELS_HPP
#define BATCHOL_TEST_USER_KERNELS_HPP

#include "views.hpp"

#include <Batchol.hpp>

namespace batchol_test {

using Kokkos::ALL;
using Member = Kokkos::TeamPolicy<Exec>::member_type;

// Item i of a batch: a matrix (rank 3 -> rank 2) or a vector (rank 2 -> 1).
template <class V>
KOKKOS_INLINE_FUNCTION auto item(const V& v, int i) {
  if constexpr (rank_of<V> == 3)
    return Kokkos::subview(v, i, ALL, ALL);
  else
    return Kokkos::subview(v, i, ALL);
}

// The leading rows x cols block of item i: a deliberately wrong shape.
template <class V>
KOKKOS_INLINE_FUNCTION auto item_block(const V& v, int i, int rows, int cols) {
  if constexpr (rank_of<V> == 3)
    return Kokkos::subview(v, i, Kokkos::pair<int, int>(0, rows), Kokkos::pair<int, int>(0, cols));
  else
    return Kokkos::subview(v, i, Kokkos::pair<int, int>(0, rows));
}

// Which device-level call a user kernel makes (trsv with op(T) = T, T^T or
// T^H; potri on a factor).
enum class Call { Potrf, Potrs, Posv, TrsvNoTranspose, TrsvTranspose, TrsvConjTranspose, Potri };

inline Call trsv_call(batchol::Trans trans) {
  return trans == batchol::Trans::NoTranspose ? Call::TrsvNoTranspose
         : trans == batchol::Trans::Transpose ? Call::TrsvTranspose
                                              : Call::TrsvConjTranspose;
}

// serial::<op> on item i of A (and B), result code into code(i).
template <class AView, class BView, class CodeView>
void serial_kernel(Call op, const AView& A, const BView& B, const CodeView& code,
                   batchol::Uplo uplo) {
  Kokkos::parallel_for(
      "user_serial", Kokkos::RangePolicy<Exec>(0, A.extent(0)), KOKKOS_LAMBDA(const int i) {
        const auto a = item(A, i);
        const auto b = item(B, i);
        int r = 0;
        switch (op) {
          case Call::Potrf:
            r = batchol::serial::potrf(a, uplo);
            break;
          case Call::Potrs:
            r = batchol::serial::potrs(a, b, uplo);
            break;
          case Call::Posv:
            r = batchol::serial::posv(a, b, uplo);
            break;
          case Call::TrsvNoTranspose:
            r = batchol::serial::trsv(uplo, batchol::Trans::NoTranspose, a, b);
            break;
          case Call::TrsvTranspose:
            r = batchol::serial::trsv(uplo, batchol::Trans::Transpose, a, b);
            break;
          case Call::TrsvConjTranspose:
            r = batchol::serial::trsv(uplo, batchol::Trans::ConjTranspose, a, b);
            break;
          case Call::Potri:
            r = batchol::serial::potri(a, uplo);
            break;
        }
        code(i) = r;
      });
}

// How a team kernel provides the panel scratch of team::potrf/posv.
enum class Scratch {
  Requested,  // team::potrf_scratch_size added to the policy
  None,       // nothing requested (a backend may still have some left over)
  Exhausted,  // the user's own allocations take all of it: the calls must work in place
};

// Takes every byte of the team's level-0 scratch, as a user kernel with large
// scratch arrays of its own would.
KOKKOS_INLINE_FUNCTION void exhaust_scratch(const Member& m) {
  for (long bytes = 1L << 24; bytes >= 1; bytes /= 2)
    while (m.team_scratch(0).get_shmem(bytes) != nullptr) {
    }
}

// team::<op> on item i = league rank.
template <class AView, class BView, class CodeView>
void team_kernel(Call op, const AView& A, const BView& B, const CodeView& code, batchol::Uplo uplo,
                 Scratch scratch) {
  using T = typename AView::non_const_value_type;
  Kokkos::TeamPolicy<Exec> policy(int(A.extent(0)), Kokkos::AUTO);
  if (scratch == Scratch::Requested)
    policy.set_scratch_size(
        0, Kokkos::PerTeam(batchol::team::potrf_scratch_size<T, Exec>(int(A.extent(1)))));
  Kokkos::parallel_for(
      "user_team", policy, KOKKOS_LAMBDA(const Member& m) {
        const int i = m.league_rank();
        if (scratch == Scratch::Exhausted) exhaust_scratch(m);
        const auto a = item(A, i);
        const auto b = item(B, i);
        int r = 0;
        switch (op) {
          case Call::Potrf:
            r = batchol::team::potrf(m, a, uplo);
            break;
          case Call::Potrs:
            r = batchol::team::potrs(m, a, b, uplo);
            break;
          case Call::Posv:
            r = batchol::team::posv(m, a, b, uplo);
            break;
          case Call::TrsvNoTranspose:
            r = batchol::team::trsv(m, uplo, batchol::Trans::NoTranspose, a, b);
            break;
          case Call::TrsvTranspose:
            r = batchol::team::trsv(m, uplo, batchol::Trans::Transpose, a, b);
            break;
          case Call::TrsvConjTranspose:
            r = batchol::team::trsv(m, uplo, batchol::Trans::ConjTranspose, a, b);
            break;
          case Call::Potri:
            r = batchol::team::potri(m, a, uplo);
            break;
        }
        Kokkos::single(Kokkos::PerTeam(m), [&]() { code(i) = r; });
      });
}

// Every device-level call with a wrong shape on item i, results into r:
// potrf/potrs/posv/trsv with A (n-1) x n, then potrs/posv/trsv with B of n-1
// rows, then posv with both wrong (A is checked first). team == nullptr runs
// the serial versions.
inline constexpr int kBadShapeCalls = 8;

template <class AView, class BView>
KOKKOS_INLINE_FUNCTION void bad_shape_calls(const AView& A, const BView& B, int i,
                                            const Member* team, int (&r)[kBadShapeCalls]) {
  const int n = int(A.extent(1));
  const auto a = item(A, i), a_bad = item_block(A, i, n - 1, n);
  const auto b = item(B, i), b_bad = item_block(B, i, n - 1, int(B.extent(rank_of<BView> - 1)));
  const auto lo = batchol::Uplo::Lower;
  const auto nt = batchol::Trans::NoTranspose;
  if (team) {
    const Member& m = *team;
    r[0] = batchol::team::potrf(m, a_bad, lo);
    r[1] = batchol::team::potrs(m, a_bad, b, lo);
    r[2] = batchol::team::posv(m, a_bad, b, lo);
    r[3] = batchol::team::trsv(m, lo, nt, a_bad, b);
    r[4] = batchol::team::potrs(m, a, b_bad, lo);
    r[5] = batchol::team::posv(m, a, b_bad, lo);
    r[6] = batchol::team::trsv(m, lo, nt, a, b_bad);
    r[7] = batchol::team::posv(m, a_bad, b_bad, lo);
  } else {
    r[0] = batchol::serial::potrf(a_bad, lo);
    r[1] = batchol::serial::potrs(a_bad, b, lo);
    r[2] = batchol::serial::posv(a_bad, b, lo);
    r[3] = batchol::serial::trsv(lo, nt, a_bad, b);
    r[4] = batchol::serial::potrs(a, b_bad, lo);
    r[5] = batchol::serial::posv(a, b_bad, lo);
    r[6] = batchol::serial::trsv(lo, nt, a, b_bad);
    r[7] = batchol::serial::posv(a_bad, b_bad, lo);
  }
}

// codes(i, k): the k-th bad-shape call on item i, from a RangePolicy
// (serial::*) and from a TeamPolicy (team::*).
template <class AView, class BView, class CodeView>
void bad_shape_kernels(const AView& A, const BView& B, const CodeView& serial_codes,
                       const CodeView& team_codes) {
  Kokkos::parallel_for(
      "user_serial_bad_shapes", Kokkos::RangePolicy<Exec>(0, A.extent(0)),
      KOKKOS_LAMBDA(const int i) {
        int r[kBadShapeCalls];
        bad_shape_calls(A, B, i, nullptr, r);
        for (int k = 0; k < kBadShapeCalls; ++k) serial_codes(i, k) = r[k];
      });
  Kokkos::parallel_for(
      "user_team_bad_shapes", Kokkos::TeamPolicy<Exec>(int(A.extent(0)), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Member& m) {
        const int i = m.league_rank();
        int r[kBadShapeCalls];
        bad_shape_calls(A, B, i, &m, r);
        Kokkos::single(Kokkos::PerTeam(m), [&]() {
          for (int k = 0; k < kBadShapeCalls; ++k) team_codes(i, k) = r[k];
        });
      });
}

// A user kernel that assembles each matrix into its own team scratch (here:
// copies it), then factors and solves there with team::posv, whose panel
// comes after the user's allocation. Writes the factor back to A, info(i).
template <class AView, class BView, class InfoV>
void team_posv_in_user_scratch(const AView& A, const BView& B, const InfoV& info,
                               batchol::Uplo uplo) {
  using T = typename AView::non_const_value_type;
  using Local =
      Kokkos::View<T**, Kokkos::LayoutLeft, Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const int n = int(A.extent(1));
  Kokkos::TeamPolicy<Exec> policy(int(A.extent(0)), Kokkos::AUTO);
  policy.set_scratch_size(
      0, Kokkos::PerTeam(Local::shmem_size(n, n) + batchol::team::potrf_scratch_size<T, Exec>(n)));
  Kokkos::parallel_for(
      "user_team_scratch_posv", policy, KOKKOS_LAMBDA(const Member& m) {
        const int i = m.league_rank();
        const Local a(m.team_scratch(0), n, n);
        const auto global = item(A, i);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n * n),
                             [&](const int t) { a(t % n, t / n) = global(t % n, t / n); });
        m.team_barrier();
        const int r = batchol::team::posv(m, a, item(B, i), uplo);
        m.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n * n),
                             [&](const int t) { global(t % n, t / n) = a(t % n, t / n); });
        Kokkos::single(Kokkos::PerTeam(m), [&]() { info(i) = r; });
      });
}

}  // namespace batchol_test

#endif
