// The Host path (Kokkos::Serial, Kokkos::OpenMP): the batch runs across SIMD
// lanes and threads, never inside one matrix. W matrices (W = SIMD width, see
// Batchol_HostSimd.hpp) form a pack whose element (i, j) is one vector; each
// pack is factored/solved by straight-line vector code (Batchol_HostUnwound.hpp
// for n <= 16, Batchol_HostBlocked.hpp above), and the packs are spread over
// the execution space's threads in chunks. Lemaitre & Lacassagne (2016).
// LayoutLeft chunks of batches from memory from n = 9 on (n = 5 where a
// power-of-two batch crowds the L2) are first staged pack-major
// (Batchol_HostStage.hpp); cache-resident ones are read in place. The
// thresholds of these choices are in Batchol_HostTuning.hpp.
//
// Options::fast_math (Problem::fast_math) lets potrf/posv use an approximate
// inverse square root refined by Goldschmidt steps instead of sqrt and
// divisions (see rsqrt_sqrt_fast); potrs and trsv are memory-bound and always
// divide exactly.
//
// The entry, for the dispatcher: host::run<OP>(exec, pr).
#ifndef BATCHOL_HOST_PATH_HPP
#define BATCHOL_HOST_PATH_HPP

#include <detail/Batchol_BuildOptions.hpp>
#include <detail/Batchol_Compat.hpp>
#include <detail/Batchol_Op.hpp>
#include <detail/Batchol_Problem.hpp>

#include <type_traits>

// Whether the Host path exists is the same answer in every compilation pass
// (nvcc compiles a file twice: host code, then device code with __CUDA_ARCH__),
// so that static checks of path_available agree. It needs GCC-style vector types
// (GCC, Clang, Intel icpx); BATCHOL_DISABLE_HOST_PATH turns it off (Auto then
// takes the Generic path on host spaces too, and builds are faster).
#if !defined(BATCHOL_DISABLE_HOST_PATH) && (defined(__GNUC__) || defined(__clang__))
#define BATCHOL_HOST_PATH_AVAILABLE 1
#endif

namespace batchol::detail {

template <class ExecSpace>
inline constexpr bool is_host_path_space_v =
#if defined(KOKKOS_ENABLE_SERIAL)
    std::is_same_v<ExecSpace, Kokkos::Serial> ||
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    std::is_same_v<ExecSpace, Kokkos::OpenMP> ||
#endif
    false;

// Whether the Host path can run operation OP on this execution space.
template <class ExecSpace, Op OP>
inline constexpr bool host_path_available_v =
#if defined(BATCHOL_HOST_PATH_AVAILABLE)
    is_host_path_space_v<ExecSpace>&& specialized(OP);
#else
    false;
#endif

}  // namespace batchol::detail

// The vector code itself is host code only: a device pass never sees it (nor
// the intrinsics headers it includes), and never runs host::run.
#if defined(BATCHOL_HOST_PATH_AVAILABLE) && !defined(__CUDA_ARCH__) && \
    !defined(__HIP_DEVICE_COMPILE__) && !defined(__SYCL_DEVICE_ONLY__)

#include <detail/Batchol_HostBlocked.hpp>
#include <detail/Batchol_HostStage.hpp>
#include <detail/Batchol_HostUnwound.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>

namespace batchol::detail {

namespace host {
inline namespace BATCHOL_HOST_ISA {

template <class T, std::size_t... Q>
std::array<Pack<T>, sizeof...(Q)> make_packs(const Problem<T>& pr, std::int64_t p,
                                             std::index_sequence<Q...>) {
  return {{Pack<T>(pr, p + std::int64_t(Q))...}};
}

// K::jam consecutive packs, start to finish, with kernel K (Unwound<T, N, J> or
// Blocked<T>) on the caller's buffers, J of each: l (n (n + 1) / 2 vectors),
// rdiag and x (n vectors).
template <Op OP, class K, bool Fast, class T>
BATCHOL_HOST_INLINE void run_packs(const Problem<T>& pr, std::int64_t p, int n, vec_t<T>* l,
                                   vec_t<T>* rdiag, vec_t<T>* x) {
  using M = mask_t<T>;
  constexpr int J = K::jam;
  const std::ptrdiff_t E = tri(n, 0);
  const auto pk = make_packs<T>(pr, p, std::make_index_sequence<J>{});
  if constexpr (prefetch_distance > 0)
    for (int q = 0; q < J; ++q) prefetch_pack(pr, p + J * prefetch_distance + q, n);
  for (int q = 0; q < J; ++q) pk[q].template load<K::order>(n, l + q * E);
  if constexpr (factors(OP)) {
    M info[J], ok[J];
    for (int q = 0; q < J; ++q) info[q] = splat_mask<T>(0);
    K::template potrf<Fast>(n, l, rdiag, info);
    for (int q = 0; q < J; ++q) {
      ok[q] = info[q] == splat_mask<T>(0);
      pk[q].template store<K::order>(n, l + q * E, ok[q], pr.mirror);
    }
    if constexpr (OP == Op::Posv) {
      for (int c = 0; c < pr.nrhs; ++c) {
        for (int q = 0; q < J; ++q) pk[q].load_rhs(n, c, x + q * n);
        K::template forward<true>(n, l, rdiag, x);
        K::template backward<true>(n, l, rdiag, x);
        for (int q = 0; q < J; ++q) pk[q].store_rhs(n, c, x + q * n, ok[q], true);
      }
    }
    for (int q = 0; q < J; ++q) pk[q].store_info(info[q]);
  } else {
    const M all = splat_mask<T>(-1);
    for (int c = 0; c < pr.nrhs; ++c) {
      for (int q = 0; q < J; ++q) pk[q].load_rhs(n, c, x + q * n);
      if constexpr (OP != Op::TrsvT) K::template forward<false>(n, l, rdiag, x);
      if constexpr (OP != Op::TrsvN) K::template backward<false>(n, l, rdiag, x);
      for (int q = 0; q < J; ++q) pk[q].store_rhs(n, c, x + q * n, all, false);
    }
  }
}

// A chunk of consecutive packs per parallel_for index: the threads' unit of
// work. N > 0: unwound kernels with the packs on the stack (registers); N == 0:
// blocked kernels with the pack in a buffer allocated once per chunk.
// Jam: packs per unwound call (N > 0).
template <Op OP, class T, int N, bool Fast, int Jam, int W = width_v<T>>
struct HostFunctor {
  static_assert(W == width_v<T>, "W only names the vector width in the symbol");
  static_assert(max_jam % Jam == 0, "a chunk holds whole jammed calls");
  using V = vec_t<T>;
  using M = mask_t<T>;
  static constexpr bool has_rhs = detail::has_rhs(OP);

  Problem<T> pr;
  std::int64_t npacks;
  std::int64_t packs_per_chunk;
  bool staged;    // LayoutLeft chunks go through a Stage (stages())
  bool streamed;  // and are written back with non-temporal stores (streamed_out())
  bool ahead;     // and the next chunk is prefetched during this one's kernels

  std::int64_t nchunks;
  std::int64_t workers;

  // Worker w runs a contiguous run of chunks, so that the chunk after the
  // current one is its own (run_staged prefetches it).
  void operator()(std::int64_t w) const {
    const std::int64_t c0 = w * nchunks / workers, c1 = (w + 1) * nchunks / workers;
    for (std::int64_t c = c0; c < c1; ++c) run_chunk(c, c + 1 < c1);
  }

  void run_chunk(std::int64_t chunk, bool more) const {
    const std::int64_t begin = chunk * packs_per_chunk;
    const std::int64_t end = std::min(npacks, begin + packs_per_chunk);
    if constexpr (N == 0 || N >= stage_crowded_min_n) {
      if (staged) {
        // The batch's last pack, when partial, goes lane by lane as unstaged.
        const std::int64_t full = std::min(end, pr.batch / W);
        // The next chunk's full packs, prefetched meanwhile.
        const std::int64_t next =
            more && ahead ? std::min(end + packs_per_chunk, pr.batch / W) - end : 0;
        if (full > begin) run_staged(begin, full, next);
        if (full < end) work(pr, std::max(begin, full), end);
        return;
      }
    }
    work(pr, begin, end);
  }

  // Packs [p0, p1), all full, through the thread's stage (Batchol_HostStage.hpp);
  // the `next` packs after p1 are prefetched meanwhile. The stage holds its
  // packs one after the other, as the jammed kernels take them: Jam
  // packs per call, and the last few, if fewer, one by one.
  void run_staged(std::int64_t p0, std::int64_t p1, std::int64_t next) const {
    constexpr int J = N > 0 && factors(OP) ? Jam : 1;
    using K = std::conditional_t<(N > 0), Unwound<T, N, J>, Blocked<T>>;
    using K1 = std::conditional_t<(N > 0), Unwound<T, N, 1>, Blocked<T>>;
    const std::int64_t count = p1 - p0;
    Stage<T>& stage = thread_stage<T>();
    stage.reserve(pr, count);
    stage.in(pr, p0, count, has_rhs);
    const std::unique_ptr<V[]> buffer(new V[2 * std::ptrdiff_t(J) * pr.n]);
    std::int64_t q = 0;
    for (; q + J <= count; q += J) staged_packs<K>(stage, p0, q, p1, next, buffer.get());
    for (; q < count; ++q) staged_packs<K1>(stage, p0, q, p1, next, buffer.get());
    stage.out(pr, p0, count, factors(OP), has_rhs, streamed);
  }

  // Staged packs q .. q + K::jam - 1 of the chunk starting at pack p0 (the
  // stage's q is the batch's pack p0 + q); buffer: rdiag, then x, K::jam * n
  // vectors each.
  template <class K>
  void staged_packs(Stage<T>& stage, std::int64_t p0, std::int64_t q, std::int64_t p1,
                    std::int64_t next, V* buffer) const {
    constexpr int J = K::jam;
    const int n = pr.n;
    const std::int64_t count = p1 - p0;
    V* rdiag = buffer;
    if (next > 0)
      for (int j = 0; j < J; ++j) stage.prefetch(pr, p1, next, has_rhs, q + j, count);
    V* l = stage.a(q);  // the J triangles, one after the other
    if constexpr (factors(OP)) {
      M info[J], ok[J];
      for (int j = 0; j < J; ++j) info[j] = splat_mask<T>(0);
      K::template potrf<Fast>(n, l, rdiag, info);
      for (int j = 0; j < J; ++j) {
        ok[j] = info[j] == splat_mask<T>(0);
        stage.ok(q + j) = ok[j];
        Pack<T>(pr, p0 + q + j).store_info(info[j]);
      }
      if constexpr (OP == Op::Posv) {
        V* x = buffer + std::ptrdiff_t(J) * n;
        for (int c = 0; c < pr.nrhs; ++c) {
          for (int j = 0; j < J; ++j) {
            const V* b = stage.x(q + j, c, n);
            for (int i = 0; i < n; ++i) x[j * n + i] = b[i];
          }
          K::template forward<true>(n, l, rdiag, x);
          K::template backward<true>(n, l, rdiag, x);
          for (int j = 0; j < J; ++j) {
            V* b = stage.x(q + j, c, n);
            for (int i = 0; i < n; ++i) b[i] = select(ok[j], x[j * n + i], b[i]);
          }
        }
      }
    } else {
      // The solves alone, one pack per call (two measured no faster), in place.
      static_assert(J == 1, "potrs and trsv take one staged pack per call");
      for (int c = 0; c < pr.nrhs; ++c) {
        V* b = stage.x(q, c, n);
        if constexpr (OP != Op::TrsvT) K::template forward<false>(n, l, rdiag, b);
        if constexpr (OP != Op::TrsvN) K::template backward<false>(n, l, rdiag, b);
      }
    }
  }

  void work(const Problem<T>& p, std::int64_t begin, std::int64_t end) const {
    if constexpr (N > 0) {
      using K = Unwound<T, N, Jam>;
      V l[K::jam * K::E], rdiag[K::jam * N], x[K::jam * N];
      for (std::int64_t q = begin; q < end; q += K::jam)
        run_packs<OP, K, Fast>(p, q, N, l, rdiag, x);
    } else {
      const int n = p.n;
      const std::ptrdiff_t count = tri(n, 0) + 2 * std::ptrdiff_t(n) + 1;
      const std::unique_ptr<V[]> buffer(new V[count]);
      V* l = buffer.get();
      V* rdiag = l + tri(n, 0);
      V* x = rdiag + n;
      for (std::int64_t q = begin; q < end; ++q)
        run_packs<OP, Blocked<T>, Fast>(p, q, n, l, rdiag, x);
    }
  }
};

// Packs per chunk: chunk_bytes of matrices (a staged chunk, stage_bytes), but
// enough chunks that every thread gets several (chunks_per_thread), and a
// staged chunk at least staged_chunk_min_packs packs.
template <class T>
std::int64_t packs_per_chunk(const Problem<T>& pr, std::int64_t npacks, int threads) {
  const std::int64_t pack_bytes =
      std::int64_t(width_v<T>) * sizeof(T) * (tri(pr.n, 0) + std::int64_t(pr.n) * pr.nrhs + 1);
  const std::int64_t bytes = stages(pr) ? stage_bytes : chunk_bytes;
  std::int64_t ppc = std::max<std::int64_t>(1, bytes / pack_bytes);
  const std::int64_t balanced = npacks / (chunks_per_thread * std::int64_t(std::max(threads, 1)));
  const std::int64_t least = stages(pr) ? std::min<std::int64_t>(ppc, staged_chunk_min_packs) : 1;
  ppc = std::max(least, std::min(ppc, balanced));
  return (ppc + max_jam - 1) / max_jam * max_jam;
}

template <Op OP, class T, int N, bool Fast, int Jam, class ExecSpace>
void launch(const ExecSpace& exec, const Problem<T>& pr) {
  const std::int64_t npacks = (pr.batch + width_v<T> - 1) / width_v<T>;
  const std::int64_t ppc = packs_per_chunk(pr, npacks, exec.concurrency());
  const std::int64_t nchunks = (npacks + ppc - 1) / ppc;
  const bool staged = stages(pr);
  const std::int64_t workers = std::min<std::int64_t>(nchunks, std::max(1, exec.concurrency()));
  // No prefetch where the lines crowd a few L2 sets: the next chunk's would
  // evict this one's before its copy-out (measured, Zen 4, n = 32, batch
  // 32768, two threads: 520-610 -> 590-760 ns per matrix with it).
  const HostFunctor<OP, T, N, Fast, Jam> functor{
      pr,      npacks, ppc, staged, staged && streamed_out(pr), staged && !crowds_l2(pr),
      nchunks, workers};
  Kokkos::parallel_for(
      "batchol::host",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, workers), functor);
}

// The unwound kernels' jam for this batch (unwound_jam_resident).
template <Op OP, class T, int N, bool Fast, class ExecSpace>
void launch_unwound(const ExecSpace& exec, const Problem<T>& pr) {
  if constexpr (unwound_jam_resident<N> != unwound_jam<N>)
    if (cache_resident(pr)) return launch<OP, T, N, Fast, unwound_jam_resident<N>>(exec, pr);
  launch<OP, T, N, Fast, unwound_jam<N>>(exec, pr);
}

// Compile-time order for n <= unwound_max_n (one unwound kernel per order),
// blocked kernels above.
template <Op OP, class T, bool Fast, class ExecSpace>
void launch_n(const ExecSpace& exec, const Problem<T>& pr) {
  const bool unwound = with_constant<unwound_max_n>(
      pr.n, [&](auto N) { launch_unwound<OP, T, decltype(N)::value, Fast>(exec, pr); });
  if (!unwound) launch<OP, T, 0, Fast, 1>(exec, pr);
}

}  // namespace BATCHOL_HOST_ISA

// The Host path's entry, for one operation, execution space and scalar type:
// OP on every matrix of pr (fast_math reaches the factorizations only).
// Batchol's CMake build defines BATCHOL_PRECOMPILED: the entries are then
// compiled once, with the build's -march, into the batchol_kernels library
// (src/kernels/host_*.cpp) and every other translation unit only declares
// them. Without it each translation unit that calls one compiles it itself.
// (Outside the ISA namespace: translation units compiled for other
// instruction sets call the library's entries by the same name.)
template <Op OP, class ExecSpace, class T>
void run(const ExecSpace& exec, const Problem<T>& pr) {
  if constexpr (factors(OP)) {
    if (pr.fast_math) return launch_n<OP, T, true>(exec, pr);
  }
  launch_n<OP, T, false>(exec, pr);
}

}  // namespace host
}  // namespace batchol::detail

// The entries of one execution space and scalar type, for every operation:
// PREFIX `extern` declares them, nothing defines them (src/kernels/host_*.cpp).
#define BATCHOL_HOST_ENTRIES(PREFIX, SPACE, T)                                           \
  PREFIX template void batchol::detail::host::run<batchol::detail::Op::Potrf, SPACE, T>( \
      const SPACE&, const batchol::detail::Problem<T>&);                                 \
  PREFIX template void batchol::detail::host::run<batchol::detail::Op::Posv, SPACE, T>(  \
      const SPACE&, const batchol::detail::Problem<T>&);                                 \
  PREFIX template void batchol::detail::host::run<batchol::detail::Op::Potrs, SPACE, T>( \
      const SPACE&, const batchol::detail::Problem<T>&);                                 \
  PREFIX template void batchol::detail::host::run<batchol::detail::Op::TrsvN, SPACE, T>( \
      const SPACE&, const batchol::detail::Problem<T>&);                                 \
  PREFIX template void batchol::detail::host::run<batchol::detail::Op::TrsvT, SPACE, T>( \
      const SPACE&, const batchol::detail::Problem<T>&);

#if defined(BATCHOL_PRECOMPILED)
#if defined(KOKKOS_ENABLE_SERIAL)
BATCHOL_HOST_ENTRIES(extern, Kokkos::Serial, float)
BATCHOL_HOST_ENTRIES(extern, Kokkos::Serial, double)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
BATCHOL_HOST_ENTRIES(extern, Kokkos::OpenMP, float)
BATCHOL_HOST_ENTRIES(extern, Kokkos::OpenMP, double)
#endif
#endif

#else  // a device pass, or no Host path in this build

namespace batchol::detail::host {

// Never called (the dispatcher takes the Host path only where it exists):
// declared so that the dispatcher compiles in every pass.
template <Op OP, class ExecSpace, class T>
void run(const ExecSpace&, const Problem<T>&) {}

}  // namespace batchol::detail::host

#endif

#endif
