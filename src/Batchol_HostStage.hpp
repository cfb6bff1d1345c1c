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
#ifndef BATCHOL_HOST_STAGE_HPP
#define BATCHOL_HOST_STAGE_HPP

#include <Batchol_HostPack.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

// Stage from this order on; below it, the software prefetch of
// Batchol_HostPack.hpp already streams LayoutLeft at the copy bandwidth, and
// the unwound kernels jam two packs (the stage holds one pack per kernel call).
#if defined(BATCHOL_HOST_STAGE_MIN_N)  // tuning knob
inline constexpr int stage_min_n = BATCHOL_HOST_STAGE_MIN_N;
#else
inline constexpr int stage_min_n = 9;
#endif
static_assert(stage_min_n > 8, "the staged kernels run one pack at a time (unwound_jam)");

// Bytes of matrices per staged chunk: inside a core's L2 (1 MB on Zen 4, 2 MB
// on Sapphire Rapids) with room for the source lines, yet each element stream
// a few KB long.
#if defined(BATCHOL_HOST_STAGE_KB)  // tuning knob
inline constexpr std::int64_t stage_bytes = std::int64_t(BATCHOL_HOST_STAGE_KB) << 10;
#else
inline constexpr std::int64_t stage_bytes = std::int64_t(512) << 10;
#endif

// Element streams copied side by side: few enough for the prefetchers to
// follow, enough that each pack's run of stores in the buffer is long.
inline constexpr int stage_streams = 8;

template <class T>
bool stages(const Problem<T>& pr) {
  return pr.n >= stage_min_n && pr.a_bs == 1 && (pr.nrhs == 0 || pr.b_bs == 1);
}

template <class T>
class Stage {
 public:
  using V = vec_t<T>;
  using M = mask_t<T>;
  static constexpr int W = width_v<T>;

  // Room for `packs` packs of problem pr.
  void reserve(const Problem<T>& pr, std::int64_t packs) {
    E_ = tri(pr.n, 0);
    X_ = std::int64_t(pr.n) * pr.nrhs;
    const std::int64_t need = packs * (E_ + X_);
    if (need > size_) {
      buffer_.reset(new V[need]);
      size_ = need;
    }
    if (packs > mask_size_) {
      masks_.reset(new M[packs]);
      mask_size_ = packs;
    }
    packs_ = packs;
    offsets(pr);
  }

  V* a(std::int64_t q) { return buffer_.get() + q * E_; }
  V* x(std::int64_t q, int c, int n) { return buffer_.get() + packs_ * E_ + q * X_ + c * n; }
  // Pack q's lanes whose factorization succeeded (all ones), for out().
  M& ok(std::int64_t q) { return masks_[q]; }

  // Packs [p0, p0 + count) of pr into the buffer: the lower triangle of A and,
  // with rhs, B.
  void in(const Problem<T>& pr, std::int64_t p0, std::int64_t count, bool rhs) {
    copy_in(count, E_, 0, E_, [&](std::int64_t e) { return pr.a + p0 * W + off_[e]; });
    if (rhs)
      copy_in(count, X_, packs_ * E_, X_,
              [&](std::int64_t e) { return pr.b + p0 * W + off_[E_ + e]; });
  }

  // Back to pr: the factor (writes_a; with pr.mirror also its transpose into
  // the upper triangle of the lanes whose ok is all ones) and, with rhs, B.
  void out(const Problem<T>& pr, std::int64_t p0, std::int64_t count, bool writes_a,
           bool rhs) const {
    const int n = pr.n;
    if (writes_a) {
      copy_out(count, E_, 0, E_, [&](std::int64_t e) { return pr.a + p0 * W + off_[e]; });
      if (pr.mirror)
        for (int i = 1; i < n; ++i)
          for (int j = 0; j < i; ++j) {
            T* up = pr.a + p0 * W + j * pr.a_rs + i * pr.a_cs;
            const V* from = buffer_.get() + tri(i, j);
            for (std::int64_t q = 0; q < count; ++q)
              storeu(up + q * W, select(masks_[q], from[q * E_], loadu(up + q * W)));
          }
    }
    if (rhs)
      copy_out(count, X_, packs_ * E_, X_,
               [&](std::int64_t e) { return pr.b + p0 * W + off_[E_ + e]; });
  }

 private:
  // Offsets in memory (from pack 0's lane 0) of the E_ elements of the packed
  // triangle (tri(i, j) for (i, j)), then of the X_ right-hand-side elements
  // (c n + i for (i, c)).
  void offsets(const Problem<T>& pr) {
    const int n = pr.n;
    if (E_ + X_ > off_size_) {
      off_.reset(new std::ptrdiff_t[E_ + X_]);
      off_size_ = E_ + X_;
    }
    std::ptrdiff_t* o = off_.get();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) *o++ = i * pr.a_rs + j * pr.a_cs;
    for (int c = 0; c < pr.nrhs; ++c)
      for (int i = 0; i < n; ++i) *o++ = i * pr.b_rs + c * pr.b_cs;
  }

  // Elements [0, elems) of `count` packs: pack q's element e is vector
  // base + q * stride + e of the buffer, and in memory W scalars at
  // where(e) + q W.
  template <class Where>
  void copy_in(std::int64_t count, std::int64_t elems, std::int64_t base, std::int64_t stride,
               Where&& where) {
    V* buf = buffer_.get() + base;
    for (std::int64_t e0 = 0; e0 < elems; e0 += stage_streams) {
      const int g = int(std::min<std::int64_t>(stage_streams, elems - e0));
      const T* src[stage_streams];
      for (int s = 0; s < g; ++s) src[s] = where(e0 + s);
      for (std::int64_t q = 0; q < count; ++q)
        for (int s = 0; s < g; ++s) buf[q * stride + e0 + s] = loadu(src[s] + q * W);
    }
  }
  template <class Where>
  void copy_out(std::int64_t count, std::int64_t elems, std::int64_t base, std::int64_t stride,
                Where&& where) const {
    const V* buf = buffer_.get() + base;
    for (std::int64_t e0 = 0; e0 < elems; e0 += stage_streams) {
      const int g = int(std::min<std::int64_t>(stage_streams, elems - e0));
      T* dst[stage_streams];
      for (int s = 0; s < g; ++s) dst[s] = where(e0 + s);
      for (std::int64_t q = 0; q < count; ++q)
        for (int s = 0; s < g; ++s) storeu(dst[s] + q * W, buf[q * stride + e0 + s]);
    }
  }

  std::unique_ptr<V[]> buffer_;
  std::unique_ptr<M[]> masks_;
  std::unique_ptr<std::ptrdiff_t[]> off_;
  std::int64_t off_size_ = 0;
  std::int64_t mask_size_ = 0;
  std::int64_t size_ = 0, packs_ = 0, E_ = 0, X_ = 0;
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
