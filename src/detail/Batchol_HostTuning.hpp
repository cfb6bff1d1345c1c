// Every threshold the Host path's choices rest on, in one place: which orders
// get unwound kernels and how many packs they jam, how the batch is cut into
// chunks for the threads, when LayoutLeft chunks are staged and how, and how
// far ahead memory is prefetched. The choices themselves read these: the jam
// and the chunks in Batchol_HostPath.hpp (launch_n, launch_unwound,
// packs_per_chunk), the staging in Batchol_HostStage.hpp (stages,
// cache_resident, streamed_out), the transfers in Batchol_HostPack.hpp.
//
// The measurements behind them: one core unless said otherwise, kernels
// alone or batches of the stated size, Zen 4/Zen 5 EPYC and Sapphire Rapids
// (docs/performance.md has the current numbers and how they are taken).
#ifndef BATCHOL_HOST_TUNING_HPP
#define BATCHOL_HOST_TUNING_HPP

#include <detail/Batchol_HostSimd.hpp>

#include <cstdint>

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

// ---- kernels ----------------------------------------------------------------

// Orders up to this one have a kernel unwound for their compile-time n
// (Batchol_HostUnwound.hpp); larger ones take the blocked kernels
// (Batchol_HostBlocked.hpp).
inline constexpr int unwound_max_n = 16;

// Orders up to inline_max_n get their transfers and kernels inlined into one
// function per operation, unwound with n known at compile time. Above, the
// kernels are one out-of-line copy per order (their code grows as n^3) and the
// transfers one per scalar type, shared by all operations: a compile-time
// versus run-time trade-off (measured: inlining up to n = 16 saves little at
// n = 16 and doubles the build time of a translation unit).
inline constexpr int inline_max_n = 8;

// Packs jammed together by the unwound kernels, so that one pack's pivot
// chain (square root, division) runs while the others' updates issue: four
// for n = 8-11, two for n <= 7 and n = 12-15, one at n = 16, where two
// measured no faster. Zen 5, kernel alone in L1, TSC cycles per matrix,
// double, one / two / four packs: n = 6 13.9 / 14.6 / 9.3, n = 9 40.3 /
// 24.1 / 15.7, n = 11 50.3 / 29.2 / 25.1, n = 13 60.3 / 41.0 / 39.5, n = 15
// 67.5 / 53.5 / 59.7. At n = 5-7 four packs only for cache-resident batches
// (unwound_jam_resident): in cache 0.79-0.85x the time of two on LayoutLeft,
// but LayoutLeft from memory 1.1-2.0x. The jam costs code: each order's
// kernels are J copies.
template <int N>
inline constexpr int unwound_jam = N >= 8 && N <= 11 ? 4
                                   : N <= 15         ? 2
                                                     : 1;
template <int N>
inline constexpr int unwound_jam_resident = N >= 5 && N <= 11 ? 4 : unwound_jam<N>;

// The largest jam: chunks hold whole groups of it, so that a jammed call
// never reaches into the next chunk's packs.
inline constexpr int max_jam = 4;

// ---- chunks: the threads' unit of work ---------------------------------------

// Bytes of matrices per chunk of packs: L2-sized, so that a chunk's setup is
// amortized and its data stays cache-resident while it is worked on (a staged
// chunk takes stage_bytes instead) ...
inline constexpr std::int64_t chunk_bytes = std::int64_t(256) << 10;
// ... but at least this many chunks per thread, so that every thread gets
// several ...
inline constexpr int chunks_per_thread = 4;
// ... and a staged chunk at least this many packs: its copies want some length.
inline constexpr int staged_chunk_min_packs = 8;

// ---- staging of LayoutLeft chunks (Batchol_HostStage.hpp) ---------------------

// Stage batches from memory from this order on; below it, the software
// prefetch of Batchol_HostPack.hpp already streams LayoutLeft at the copy
// bandwidth.
inline constexpr int stage_min_n = 9;

// Below stage_min_n, stage from this order on only where a pack's lines crowd
// the L2 (crowds_l2: power-of-two batches), where the unstaged kernels'
// prefetched lines evict each other (measured, Zen 4, n = 8, batch 2^19:
// potrs 50-55 ns per matrix against 20-30 at n = 9).
inline constexpr int stage_crowded_min_n = 5;

// Bytes of matrices per staged chunk: inside a core's L2 (1 MB on Zen 4, 2 MB
// on Sapphire Rapids) with room for the source lines, yet each element stream
// a few KB long. (A quarter of the L2, 256 KB on Zen 4, measured no better
// with the next chunk's prefetch and 1.14x slower at n = 32.)
inline constexpr std::int64_t stage_bytes = std::int64_t(512) << 10;

// Element streams copied side by side: few enough for the prefetchers to
// follow, enough that each pack's run of stores in the buffer is long.
inline constexpr int stage_streams = 8;

// A batch is taken to be cache-resident (and its LayoutLeft packs are read in
// place, unstaged) when the lines it touches fill at most 1 / resident_share
// of the last-level cache: there the stage's copy costs more than the
// scattered lines it saves (Zen 5, one core, 8 MB batches, in place / staged:
// double and float n = 9-15 0.59-0.83x; from memory, two threads, 256 MB:
// 1.11-1.45x).
inline constexpr int resident_share = 2;

// A pack's lines crowd the L2 when more of them than 1 / crowd_share of its
// ways fall into one set.
inline constexpr int crowd_share = 2;

// Staged write-back by non-temporal stores needs an L2 of at least this many
// ways (and a batch larger than the last-level cache whose lines crowd the
// L2): on Sapphire Rapids (16-way) streaming was then better, on Zen 4
// (8-way) it was not (Batchol_HostStage.hpp, streamed_out).
inline constexpr int stream_min_l2_ways = 16;

// ---- software prefetch (Batchol_HostPack.hpp) ---------------------------------

// With the batch index fastest (LayoutLeft) every element of a pack is its own
// stream through memory, batch * sizeof(T) bytes from the next: n (n + 1) / 2
// streams, far more than the hardware prefetchers follow, so without help each
// pack's loads wait on memory latency (measured: n = 16 ran at half the copy
// bandwidth from an 8 MB batch). The pack this many packs ahead is prefetched
// by hand, one line per element (the W lanes of an element fit one 64-byte
// line), with write intent since the factor goes back to the same lines.
inline constexpr int prefetch_distance = 2;

// With the matrix index slowest (LayoutRight and subviews of it) a pack is W
// separate matrices, each a few contiguous lines per row (or column) of its
// triangle. The hardware prefetchers see each pack's lines only when the
// transfer reads them, right before the kernel needs them, so a batch from
// memory ran at a third of the copy bandwidth whatever n; those lines are
// prefetched by hand too, one prefetch per line of each line of the triangle.
// (Only up to this order: from n = 16 on, the matrices-as-lines transfers and
// kernels are slower than memory, and the prefetches cost more than they save:
// measured, DRAM-resident double potrf, n = 4 29 -> 22 ns per matrix, n = 8 93
// -> 85, n = 16 unchanged, n = 32 1330 -> 1590 with them. With 16 lanes, float
// on AVX-512, up to n = 16: a pack is then 16 matrices, more streams than the
// hardware prefetchers follow. Zen 4, two threads, >= 256 MB, medians of four
// alternating runs: float n = 9-16 potrf 0.59-0.97x the time, potrs
// 0.71-0.94x, posv 0.82-1.00x; double n = 9-16 0.72-1.33x, mostly slower;
// float n = 24-32 1.07-1.30x.)
template <class T>
inline constexpr int prefetch_lines_max_n = width_v<T> >= 16 ? 16 : 8;

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
