// Staging of a chunk of LayoutLeft packs (Host path).
//
// With the batch index fastest (LayoutLeft), the W lanes of one element of a
// pack share a cache line, but every element of the pack is its own stream
// through memory, batch * sizeof(T) bytes from the next. A pack touches
// n (n + 1) / 2 such streams at once: past n ~ 10 that is more lines in flight,
// each in a different DRAM page, than one core keeps outstanding (measured on a
// Sapphire Rapids core: n = 16 and 32 at 16-25 % of the copy bandwidth, with
// software prefetch), and from the caches, more scattered lines than the
// kernels' arithmetic.
//
// So the full packs of a chunk are copied, a few element streams at a time
// (long sequential reads: what the hardware prefetchers follow), into a
// pack-major buffer: pack q's packed triangle is the tri(n, 0) vectors from
// a() + q tri(n, 0), exactly what the kernels compute on, so they work in place
// there, from the core's own cache, with no transfer of their own. The
// right-hand sides likewise (x(q, c): n vectors). Afterwards what the operation
// wrote goes back the same way.
//
// From the caches the stage is only a second copy of every line: there the
// kernels read the packs in place (stages(): batches whose lines fit in half
// the last-level cache are taken to be in it).
#ifndef BATCHOL_HOST_STAGE_HPP
#define BATCHOL_HOST_STAGE_HPP

#include <detail/Batchol_HostPack.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace batchol::detail::host {

// Where the Host path takes batches to be (cache_resident()): as their size
// says (Auto), or, for the tests, which run both ways on small batches, all in
// cache or all in memory. Process-wide (outside the ISA namespace, so that
// every translation unit sees the one setting); not to be changed while the
// library runs.
enum class Residency { Auto, Cache, Memory };
inline Residency& residency_override() {
  static Residency residency = Residency::Auto;
  return residency;
}

inline namespace BATCHOL_HOST_ISA {

// A cache level's size in bytes and associativity: Linux's sysfs for cpu0,
// else glibc's sysconf, else typical values. sysfs first because glibc can be
// wrong in a guest (a Zen 4 KVM guest: sysfs 32 MB 16-way L3, sysconf 320 MB,
// which turned streamed_out off for every batch below 320 MB).
struct CacheShape {
  std::int64_t bytes;
  int ways;
};
inline CacheShape cache_shape(int level) {
  long b = -1, w = -1;
  for (int index = 0; index < 8 && b <= 0; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    long lv = -1;
    std::string type, size;
    std::ifstream(dir + "/level") >> lv;
    std::ifstream(dir + "/type") >> type;
    std::ifstream(dir + "/size") >> size;
    if (lv != level || type == "Instruction" || size.empty()) continue;
    b = std::atol(size.c_str()) << (size.back() == 'K' ? 10 : size.back() == 'M' ? 20 : 0);
    std::ifstream(dir + "/ways_of_associativity") >> w;
  }
#if defined(_SC_LEVEL3_CACHE_SIZE)
  if (b <= 0) {
    b = sysconf(level == 3 ? _SC_LEVEL3_CACHE_SIZE : _SC_LEVEL2_CACHE_SIZE);
    w = sysconf(level == 3 ? _SC_LEVEL3_CACHE_ASSOC : _SC_LEVEL2_CACHE_ASSOC);
  }
#endif
  if (b <= 0) b = level == 3 ? 32l << 20 : 1l << 20;
  if (w <= 0) w = 16;
  return {b, int(w)};
}

// Whether a pack's lines crowd some L2 set beyond half its ways (crowd_share): the element
// streams are batch * sizeof(T) bytes apart, so with a power-of-two batch a
// pack's n (n + 1) / 2 lines share one or a few sets, and the copy-in of a
// chunk evicts them before its copy-out.
template <class T>
bool crowds_l2(const Problem<T>& pr) {
  static const CacheShape l2 = cache_shape(2);
  const std::int64_t sets = std::max<std::int64_t>(1, l2.bytes / (64 * l2.ways));
  std::vector<int> load(sets, 0);
  for (int i = 0; i < pr.n; ++i)
    for (int j = 0; j <= i; ++j) {
      const std::int64_t line = (i * pr.a_rs + j * pr.a_cs) * std::int64_t(sizeof(T)) / 64;
      if (++load[((line % sets) + sets) % sets] > l2.ways / crowd_share) return true;
    }
  return false;
}

// Whether a staged operation writes back with non-temporal stores (which need
// not read the destination line first). Ordinary stores are better whenever
// the destination line is still in L2 from the copy-in: the write to memory
// then happens later, overlapped with other work (measured, n = 32 double
// from DRAM, batch 16000: copy-out 540-610 cycles per matrix with ordinary
// stores, 1190-1250 streamed). Where a pack's lines crowd the L2 (crowds_l2),
// each ordinary store fetches its line back; on Sapphire Rapids (16-way L2)
// streaming was then better (batch 16384: 1210-1320 cycles ordinary, 740-980
// streamed), on Zen 4 (8-way) it was not (632-677 ordinary, 844-1353
// streamed). So: stream when the batch is larger than the last-level cache
// (its lines go to memory anyway), the lines crowd the L2, and the L2 has at
// least 16 ways (stream_min_l2_ways). Needs every line start vector-aligned, as it is for Kokkos
// allocations with W | batch.
template <class T>
bool streamed_out(const Problem<T>& pr) {
  constexpr int W = width_v<T>;
  static const CacheShape l2 = cache_shape(2), l3 = cache_shape(3);
  const auto aligned = [](const T* p, std::ptrdiff_t rs, std::ptrdiff_t cs) {
    return reinterpret_cast<std::uintptr_t>(p) % simd_bytes == 0 && rs % W == 0 && cs % W == 0;
  };
  const std::int64_t bytes =
      pr.batch * std::int64_t(pr.n) * (pr.n + pr.nrhs) * std::int64_t(sizeof(T));
  if (l2.ways < stream_min_l2_ways || bytes <= l3.bytes || !aligned(pr.a, pr.a_rs, pr.a_cs) ||
      (pr.nrhs > 0 && !aligned(pr.b, pr.b_rs, pr.b_cs)))
    return false;
  return crowds_l2(pr);
}

// Whether a batch is taken to be cache-resident: the lines it touches (the
// triangle, and B) fill at most half of the last-level cache
// (resident_share). Then the kernels read LayoutLeft packs in place.
template <class T>
bool cache_resident(const Problem<T>& pr) {
  if (residency_override() != Residency::Auto) return residency_override() == Residency::Cache;
  static const CacheShape l3 = cache_shape(3);
  const std::int64_t bytes =
      pr.batch * (tri(pr.n, 0) + std::int64_t(pr.n) * pr.nrhs) * std::int64_t(sizeof(T));
  return resident_share * bytes <= l3.bytes;
}

template <class T>
bool stages(const Problem<T>& pr) {
  return pr.a_bs == 1 && (pr.nrhs == 0 || pr.b_bs == 1) &&
         ((pr.n >= stage_crowded_min_n && crowds_l2(pr)) ||
          (pr.n >= stage_min_n && !cache_resident(pr)));
}

template <class T>
class Stage {
 public:
  using V = vec_t<T>;
  using M = mask_t<T>;
  static constexpr int W = width_v<T>;

  // Room for `packs` packs of problem pr (the buffers only ever grow).
  void reserve(const Problem<T>& pr, std::int64_t packs) {
    E_ = tri(pr.n, 0);
    X_ = std::int64_t(pr.n) * pr.nrhs;
    packs_ = packs;
    grow(buffer_, packs * (E_ + X_));
    grow(masks_, packs);
    grow(off_, E_ + X_);
    std::ptrdiff_t* o = off_.data();
    for (int i = 0; i < pr.n; ++i)
      for (int j = 0; j <= i; ++j) *o++ = i * pr.a_rs + j * pr.a_cs;
    for (int c = 0; c < pr.nrhs; ++c)
      for (int i = 0; i < pr.n; ++i) *o++ = i * pr.b_rs + c * pr.b_cs;
  }

  // Slice s of `slices` of the element streams of packs [p0, p0 + count) of pr
  // (the triangle, then with rhs B), each stream's lines prefetched in order.
  // run_staged issues one slice per kernel call of the chunk before, so the
  // next chunk's lines arrive from memory while the kernels compute, and its
  // copy-in reads them from L2 (measured, Zen 4, double potrf from DRAM, one
  // core: copy-in n = 31 1050-1090 -> 400-440 cycles per matrix).
  // Into L2 only (prefetch_line): t0 would also fill L1, which the running
  // kernel's pack needs; NTA lines are not kept for the copy-in.
  void prefetch(const Problem<T>& pr, std::int64_t p0, std::int64_t count, bool rhs, std::int64_t s,
                std::int64_t slices) const {
    const std::int64_t elems = E_ + (rhs ? X_ : 0);
    const std::int64_t e1 = (s + 1) * elems / slices;
    for (std::int64_t e = s * elems / slices; e < e1; ++e) {
      const T* first = (e < E_ ? pr.a : pr.b) + off_[e] + p0 * W;
      prefetch_span<true>(first, first + count * W - 1);
    }
  }

  V* a(std::int64_t q) { return buffer_.data() + q * E_; }
  V* x(std::int64_t q, int c, int n) { return rhs_buffer() + q * X_ + c * n; }
  // Pack q's lanes whose factorization succeeded (all ones), for out().
  M& ok(std::int64_t q) { return masks_[q]; }

  // Packs [p0, p0 + count) of pr into the buffer: the lower triangle of A and,
  // with rhs, B.
  void in(const Problem<T>& pr, std::int64_t p0, std::int64_t count, bool rhs) {
    copy_in(count, E_, buffer_.data(), pr.a + p0 * W, off_.data());
    if (rhs) copy_in(count, X_, rhs_buffer(), pr.b + p0 * W, off_.data() + E_);
  }

  // Back to pr: the factor (writes_a; with pr.mirror also its transpose into
  // the upper triangle of the lanes whose ok is all ones) and, with rhs, B;
  // with nt (streamed_out(pr), decided once per call) by non-temporal stores.
  void out(const Problem<T>& pr, std::int64_t p0, std::int64_t count, bool writes_a, bool rhs,
           bool nt) {
    if (writes_a) {
      copy_out(count, E_, buffer_.data(), pr.a + p0 * W, off_.data(), nt);
      if (pr.mirror)
        for (int i = 1; i < pr.n; ++i)
          for (int j = 0; j < i; ++j) {
            T* up = pr.a + p0 * W + j * pr.a_rs + i * pr.a_cs;
            const V* from = buffer_.data() + tri(i, j);
            for (std::int64_t q = 0; q < count; ++q)
              storeu(up + q * W, select(masks_[q], from[q * E_], loadu(up + q * W)));
          }
    }
    if (rhs) copy_out(count, X_, rhs_buffer(), pr.b + p0 * W, off_.data() + E_, nt);
    if (nt) stream_fence();
  }

 private:
  template <class U>
  static void grow(std::vector<U>& v, std::int64_t size) {
    if (std::int64_t(v.size()) < size) v.resize(size);
  }
  V* rhs_buffer() { return buffer_.data() + packs_ * E_; }

  // `elems` elements of `count` packs: pack q's element e is vector
  // q * elems + e of buf, and in memory the W scalars at mem + off[e] + q W.
  static void copy_in(std::int64_t count, std::int64_t elems, V* buf, const T* mem,
                      const std::ptrdiff_t* off) {
    for (std::int64_t e0 = 0; e0 < elems; e0 += stage_streams) {
      const int g = int(std::min<std::int64_t>(stage_streams, elems - e0));
      const T* src[stage_streams];
      for (int s = 0; s < g; ++s) src[s] = mem + off[e0 + s];
      for (std::int64_t q = 0; q < count; ++q)
        for (int s = 0; s < g; ++s) buf[q * elems + e0 + s] = loadu(src[s] + q * W);
    }
  }
  static void copy_out(std::int64_t count, std::int64_t elems, const V* buf, T* mem,
                       const std::ptrdiff_t* off, bool nt) {
    if (nt)
      copy_out<true>(count, elems, buf, mem, off);
    else
      copy_out<false>(count, elems, buf, mem, off);
  }
  // With ordinary stores the next group of streams is prefetched for writing
  // while this one is stored: its lines are often no longer in L2 (a batch
  // from L3, or one whose streams crowd a few sets), and each store would
  // otherwise wait for its line in turn (measured, n = 32 LayoutLeft from
  // L3: copy-out 830-1520 -> 390-900 cycles per matrix, batch 1000 and 1024;
  // n = 16 and DRAM-resident batches unchanged within the noise).
  template <bool NT>
  static void copy_out(std::int64_t count, std::int64_t elems, const V* buf, T* mem,
                       const std::ptrdiff_t* off) {
    for (std::int64_t e0 = 0; e0 < elems; e0 += stage_streams) {
      const int g = int(std::min<std::int64_t>(stage_streams, elems - e0));
      const int g1 = NT ? 0 : int(std::clamp<std::int64_t>(elems - e0 - g, 0, stage_streams));
      T* dst[stage_streams];
      const T* next[stage_streams];
      for (int s = 0; s < g; ++s) dst[s] = mem + off[e0 + s];
      for (int s = 0; s < g1; ++s) next[s] = mem + off[e0 + g + s];
      for (std::int64_t q = 0; q < count; ++q)
        for (int s = 0; s < g; ++s) {
          if (s < g1) __builtin_prefetch(next[s] + q * W, 1, 3);
          if constexpr (NT)
            stream_store(dst[s] + q * W, buf[q * elems + e0 + s]);
          else
            storeu(dst[s] + q * W, buf[q * elems + e0 + s]);
        }
    }
  }

  std::vector<V> buffer_;  // count packs' triangles, then their right-hand sides
  std::vector<M> masks_;
  std::vector<std::ptrdiff_t> off_;  // element offsets from lane 0: triangle, then B
  std::int64_t packs_ = 0, E_ = 0, X_ = 0;
};

// One stage per thread, kept for the thread's lifetime: a chunk is a few
// hundred KB, and allocating it per chunk would map and fault it in every time.
template <class T>
Stage<T>& thread_stage() {
  static thread_local Stage<T> stage;
  return stage;
}

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
