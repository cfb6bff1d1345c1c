// Moving one pack (W consecutive matrices of the batch) between the caller's
// memory and the lane-interleaved form the Host kernels compute on: element
// (i, j) of the pack is one vector whose lane l belongs to matrix first + l.
//
// The lower triangle is kept row-packed: element (i, j), j <= i, is entry
// tri(i, j) = i (i + 1) / 2 + j, so a row is contiguous for the left-looking
// dot products and the whole pack takes n (n + 1) / 2 vectors.
//
// Four ways in and out, chosen per pack, all inside the kernel (no separate
// pass over the batch):
// - direct: the batch index is the fastest (LayoutLeft, pr.a_bs == 1) and the
//   pack is full: the W lanes of an element are adjacent in memory, and one
//   unaligned vector load/store moves them (no repacking at all);
// - lines: the rows (or columns) of each matrix are contiguous (LayoutRight,
//   Lower or Upper, padded subviews too), n >= W and the pack is full: W
//   consecutive scalars of a row are loaded from each of the W lanes and
//   transposed in registers (W log2 W shuffles per W^2 scalars). On the way
//   back they are transposed again and blended into memory, so that the other
//   triangle keeps its values;
// - dense: the same for n < W, with chunks running across rows through each
//   dense n x n block (LayoutRight);
// - gathered: any other strides (strided batches) or the batch's last,
//   partial pack: scalar loads lane by lane. Lanes past the end of the batch
//   are filled with the identity (and zero right-hand sides): they factor
//   without failing, are never written back, and never read memory outside the
//   batch.
#ifndef BATCHOL_HOST_PACK_HPP
#define BATCHOL_HOST_PACK_HPP

#include <detail/Batchol_HostSimd.hpp>
#include <detail/Batchol_HostTuning.hpp>
#include <detail/Batchol_Problem.hpp>
#include <detail/Batchol_Strided.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

constexpr std::ptrdiff_t tri(int i, int j) {
  return std::ptrdiff_t(i) * (i + 1) / 2 + j;
}

enum class Access { Direct, Lines, Dense, Gathered };

template <class T>
struct Pack {
  static constexpr int W = width_v<T>;
  using V = vec_t<T>;
  using M = mask_t<T>;

  // Lane bit masks (store_lanes): all W lanes, and the lowest k of them.
  static constexpr unsigned all_bits = (1u << W) - 1;
  static constexpr unsigned low_bits(int k) {
    return k <= 0 ? 0u : k >= W ? all_bits : (1u << k) - 1;
  }

  const Problem<T>& pr;
  std::int64_t first;  // batch index of lane 0
  int count;           // lanes holding real matrices: W except at the end
  Access a_access;
  bool b_direct;
  bool b_lines;  // a full pack whose right-hand side columns are contiguous

  Pack(const Problem<T>& p, std::int64_t pack)
      : pr(p),
        first(pack * W),
        count(static_cast<int>(std::clamp<std::int64_t>(p.batch - pack * W, 0, W))),
        a_access(access_of(p, count)),
        b_direct(p.b_bs == 1 && count == W),
        b_lines(p.b_bs != 1 && p.b_rs == 1 && count == W) {}

  static Access access_of(const Problem<T>& p, int count) {
    if (count < W) return Access::Gathered;
    if (p.a_bs == 1) return Access::Direct;
    const std::ptrdiff_t n = p.n;
    if ((p.a_cs == 1 || p.a_rs == 1) && n >= W) return Access::Lines;
    const bool dense = (p.a_rs == n && p.a_cs == 1) || (p.a_rs == 1 && p.a_cs == n);
    return dense && n * n >= W ? Access::Dense : Access::Gathered;
  }

  // Lines of the lower view: rows when they are contiguous (cs == 1), else
  // columns. Position b of line a is element (a, b) of a row, or (b, a) of a
  // column; the lower triangle holds b <= a of a row, b >= a of a column. A
  // line is moved in chunks of W from `lo` to `hi`, the last chunk moved back
  // to end at n (n >= W), so no chunk leaves its line.
  //
  // Element (a, b0 + e) of a row chunk is entry tri(a, b0) + e of l, and
  // entries past the end of row a are the first ones of the rows below: rows
  // are loaded in increasing order, so writing whole chunks is harmless (a
  // later row overwrites what spilled into it) and keeps the copy branch-free;
  // the same holds for reading whole chunks on the way back, whose extra
  // entries are blended away. Column chunks go entry by entry, the index of
  // (b0 + e, a) advancing by b0 + e + 1.
  template <bool Rows>
  BATCHOL_HOST_INLINE void load_lines(int n, V* l) const {
    const std::ptrdiff_t ls = Rows ? pr.a_rs : pr.a_cs;
    for (int a = 0; a < n; ++a) {
      const int lo = Rows ? 0 : a, hi = Rows ? a : n - 1;
      for (int b = lo; b <= hi; b += W) {
        const int b0 = std::min(b, n - W);
        V t[W];
        for (int ln = 0; ln < W; ++ln) t[ln] = loadu(lane_a(ln) + a * ls + b0);
        transpose<T>(t);
        if (Rows) {
          V* dst = l + tri(a, b0);
          for (int e = 0; e < W; ++e) dst[e] = t[e];
        } else {
          std::ptrdiff_t k = tri(b0, a);
          for (int e = 0; e < W; ++e) {
            if (b0 + e >= a) l[k] = t[e];
            k += b0 + e + 1;
          }
        }
      }
    }
  }

  template <bool Rows>
  BATCHOL_HOST_INLINE void store_lines(int n, const V* l, M ok, bool mirror) const {
    const std::ptrdiff_t ls = Rows ? pr.a_rs : pr.a_cs;
    for (int a = 0; a < n; ++a) {
      const int lo = Rows || mirror ? 0 : a, hi = Rows && !mirror ? a : n - 1;
      for (int b = lo; b <= hi; b += W) {
        const int b0 = std::min(b, n - W);
        // Bit e: position b0 + e is in the lower triangle (row: b0 + e <= a;
        // column: b0 + e >= a).
        const unsigned lower = Rows ? low_bits(a - b0 + 1) : all_bits & ~low_bits(a - b0);
        V t[W];
        if (mirror) {
          for (int e = 0; e < W; ++e) {
            const int i = Rows ? a : b0 + e, j = Rows ? b0 + e : a;
            t[e] = l[i >= j ? tri(i, j) : tri(j, i)];
          }
        } else if (Rows) {
          const V* src = l + tri(a, b0);
          for (int e = 0; e < W; ++e) t[e] = src[e];
        } else {
          std::ptrdiff_t k = tri(b0, a);
          for (int e = 0; e < W; ++e) {
            t[e] = l[k];  // an entry of another column where (b0 + e, a) is upper
            k += b0 + e + 1;
          }
        }
        transpose<T>(t);
        for (int ln = 0; ln < W; ++ln)
          store_lanes(lane_a_mut(ln) + a * ls + b0, t[ln], mirror && ok[ln] ? all_bits : lower);
      }
    }
  }

  const T* lane_a(int l) const { return pr.a + (first + l) * pr.a_bs; }
  T* lane_a_mut(int l) const { return pr.a + (first + l) * pr.a_bs; }
  T* lane_b(int l) const { return pr.b + (first + l) * pr.b_bs; }

  // Dense: calls f(e, i, j) for the W positions of the chunk starting at f0,
  // with (i, j) the lower-view coordinates of position f0 + e (the lower
  // view is row-major in memory when cs == 1, column-major otherwise).
  template <class F>
  BATCHOL_HOST_INLINE void for_chunk(int n, int f0, F&& f) const {
    int u = f0 / n, v = f0 - u * n;
    for (int e = 0; e < W; ++e) {
      if (pr.a_cs == 1)
        f(e, u, v);
      else
        f(e, v, u);
      if (++v == n) v = 0, ++u;
    }
  }

  // Whether the chunk at f0 holds an element of the lower triangle (chunks
  // wholly in the other triangle are skipped: about a third of them).
  BATCHOL_HOST_INLINE bool has_lower(int n, int f0) const {
    bool any = false;
    for_chunk(n, f0, [&](int, int i, int j) { any |= i >= j; });
    return any;
  }

  // Dense blocks are moved in chunks of W scalars; the last chunk is moved
  // back to end exactly at n^2 (it may overlap the one before).
  BATCHOL_HOST_INLINE static int chunk_start(int c, int n) { return std::min(c * W, n * n - W); }
  BATCHOL_HOST_INLINE static int chunk_count(int n) { return (n * n + W - 1) / W; }

  // Dense (n < W, so n is one of the unwound orders): chunks of W scalars
  // running through each n x n block.
  BATCHOL_HOST_INLINE void load_dense(int n, V* l) const {
    if (n >= W || n * n < W) return;  // never: tells the compiler
    const int chunks = chunk_count(n);
    for (int c = 0; c < chunks; ++c) {
      const int f0 = chunk_start(c, n);
      if (!has_lower(n, f0)) continue;
      V t[W];
      for (int ln = 0; ln < W; ++ln) t[ln] = loadu(lane_a(ln) + f0);
      transpose<T>(t);
      for_chunk(n, f0, [&](int e, int i, int j) {
        if (i >= j) l[tri(i, j)] = t[e];
      });
    }
  }

  BATCHOL_HOST_INLINE void store_dense(int n, const V* l, M ok, bool mirror) const {
    if (n >= W || n * n < W) return;
    const int chunks = chunk_count(n);
    for (int c = 0; c < chunks; ++c) {
      const int f0 = chunk_start(c, n);
      if (!mirror && !has_lower(n, f0)) continue;
      V t[W];
      // Bit e: position f0 + e is in the lower triangle.
      unsigned lower = 0;
      for_chunk(n, f0, [&](int e, int i, int j) {
        lower |= unsigned(i >= j) << e;
        t[e] = l[i >= j ? tri(i, j) : tri(j, i)];
      });
      transpose<T>(t);
      for (int ln = 0; ln < W; ++ln)
        store_lanes(lane_a_mut(ln) + f0, t[ln], mirror && ok[ln] ? all_bits : lower);
    }
  }

  // The transfers as the kernels call them: inlined with the kernel for the
  // small orders whose kernel is inlined, up to inline_max_n (then the triangles can stay in
  // registers, and with n known the index arithmetic folds away); one
  // out-of-line copy per scalar type for every other order.
  template <int N>
  BATCHOL_HOST_INLINE void load(int n, V* l) const {
    if constexpr (N > 0 && N <= inline_max_n) {
      if constexpr (N < W && N * N >= W)
        if (a_access == Access::Dense) return load_dense(N, l);
      load_lower(N, l);
    } else {
      load_out(n, l);
    }
  }
  template <int N>
  BATCHOL_HOST_INLINE void store(int n, const V* l, M ok, bool mirror) const {
    if constexpr (N > 0 && N <= inline_max_n) {
      if constexpr (N < W && N * N >= W)
        if (a_access == Access::Dense) return store_dense(N, l, ok, mirror);
      store_lower(N, l, ok, mirror);
    } else {
      store_out(n, l, ok, mirror);
    }
  }
  BATCHOL_HOST_NOINLINE void load_out(int n, V* l) const { load_lower(n, l); }
  BATCHOL_HOST_NOINLINE void store_out(int n, const V* l, M ok, bool mirror) const {
    store_lower(n, l, ok, mirror);
  }

  // Lower triangle of A into l (n (n + 1) / 2 vectors).
  BATCHOL_HOST_INLINE void load_lower(int n, V* l) const {
    const std::ptrdiff_t rs = pr.a_rs, cs = pr.a_cs;
    if (a_access == Access::Direct) {
      const T* a = pr.a + first;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) l[tri(i, j)] = loadu(a + i * rs + j * cs);
      return;
    }
    if (a_access == Access::Lines && n >= W) {  // (n >= W is implied; tells the compiler)
      if (pr.a_cs == 1)
        load_lines<true>(n, l);
      else
        load_lines<false>(n, l);
      return;
    }
    if (a_access == Access::Dense) {
      load_dense(n, l);
      return;
    }
    if (count < W) {
      const V zero = splat<T>(T(0)), one = splat<T>(T(1));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) l[tri(i, j)] = i == j ? one : zero;
    }
    for (int ln = 0; ln < count; ++ln) {
      const T* a = lane_a(ln);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) l[tri(i, j)][ln] = a[i * rs + j * cs];
    }
  }

  // The factor back into A's lower triangle; with `mirror`, also into the upper
  // triangle of the lanes whose factorization succeeded (ok all ones).
  BATCHOL_HOST_INLINE void store_lower(int n, const V* l, M ok, bool mirror) const {
    const std::ptrdiff_t rs = pr.a_rs, cs = pr.a_cs;
    if (a_access == Access::Direct) {
      T* a = pr.a + first;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) storeu(a + i * rs + j * cs, l[tri(i, j)]);
      if (mirror)
        for (int i = 1; i < n; ++i)
          for (int j = 0; j < i; ++j) {
            T* p = a + j * rs + i * cs;
            storeu(p, select(ok, l[tri(i, j)], loadu(p)));
          }
      return;
    }
    if (a_access == Access::Lines && n >= W) {
      if (pr.a_cs == 1)
        store_lines<true>(n, l, ok, mirror);
      else
        store_lines<false>(n, l, ok, mirror);
      return;
    }
    if (a_access == Access::Dense) {
      store_dense(n, l, ok, mirror);
      return;
    }
    for (int ln = 0; ln < count; ++ln) {
      T* a = lane_a_mut(ln);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) a[i * rs + j * cs] = l[tri(i, j)][ln];
      if (mirror && ok[ln])
        for (int i = 1; i < n; ++i)
          for (int j = 0; j < i; ++j) a[j * rs + i * cs] = l[tri(i, j)][ln];
    }
  }

  // Right-hand side column q of B into x (n vectors).
  BATCHOL_HOST_NOINLINE void load_rhs(int n, int q, V* x) const {
    const std::ptrdiff_t rs = pr.b_rs, off = q * pr.b_cs;
    if (b_direct) {
      const T* b = pr.b + first + off;
      for (int i = 0; i < n; ++i) x[i] = loadu(b + i * rs);
      return;
    }
    if (b_lines) {
      // Each lane's column in chunks of up to W entries, transposed: the
      // entries past n are neither read nor kept.
      for (int i0 = 0; i0 < n; i0 += W) {
        const int m = std::min(W, n - i0);
        V t[W];
        for (int ln = 0; ln < W; ++ln) t[ln] = load_lanes(lane_b(ln) + off + i0, low_bits(m));
        transpose<T>(t);
        for (int e = 0; e < m; ++e) x[i0 + e] = t[e];
      }
      return;
    }
    if (count < W)
      for (int i = 0; i < n; ++i) x[i] = splat<T>(T(0));
    for (int ln = 0; ln < count; ++ln) {
      const T* b = lane_b(ln) + off;
      for (int i = 0; i < n; ++i) x[i][ln] = b[i * rs];
    }
  }

  // x back into column q of B, only in the lanes where ok is all ones (posv
  // leaves the right-hand sides of a failed matrix unchanged).
  BATCHOL_HOST_NOINLINE void store_rhs(int n, int q, const V* x, M ok, bool masked) const {
    const std::ptrdiff_t rs = pr.b_rs, off = q * pr.b_cs;
    if (b_direct) {
      T* b = pr.b + first + off;
      if (masked)
        for (int i = 0; i < n; ++i) storeu(b + i * rs, select(ok, x[i], loadu(b + i * rs)));
      else
        for (int i = 0; i < n; ++i) storeu(b + i * rs, x[i]);
      return;
    }
    if (b_lines) {
      for (int i0 = 0; i0 < n; i0 += W) {
        const int m = std::min(W, n - i0);
        V t[W];
        for (int e = 0; e < W; ++e) t[e] = i0 + e < n ? x[i0 + e] : splat<T>(T(0));
        transpose<T>(t);
        for (int ln = 0; ln < W; ++ln)
          store_lanes(lane_b(ln) + off + i0, t[ln], masked && !ok[ln] ? 0u : low_bits(m));
      }
      return;
    }
    for (int ln = 0; ln < count; ++ln) {
      if (masked && !ok[ln]) continue;
      T* b = lane_b(ln) + off;
      for (int i = 0; i < n; ++i) b[i * rs] = x[i][ln];
    }
  }

  BATCHOL_HOST_INLINE void store_info(M info) const {
    for (int ln = 0; ln < count; ++ln) info_of(pr, first + ln) = static_cast<int>(info[ln]);
  }
};

// One cache line: by default for writing, into L1 (the transfers' lines);
// with ToL2 for reading, into L2 only (prefetcht2: Stage::prefetch fetches
// the next chunk while the current pack needs L1). ToL2 is an asm statement,
// which the compiler must keep: GCC 12 may delete a loop whose only effect is
// __builtin_prefetch (seen: Stage::prefetch, written with it, compiled to a
// bare `ret` in a standalone probe).
template <bool ToL2>
BATCHOL_HOST_INLINE void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (ToL2) {
    asm volatile("prefetcht2 %0" : : "m"(*static_cast<const char*>(p)));
    return;
  }
#endif
  __builtin_prefetch(p, ToL2 ? 0 : 1, ToL2 ? 1 : 3);
}

// Every cache line of the contiguous scalars [first, last].
template <bool ToL2 = false, class T>
BATCHOL_HOST_INLINE void prefetch_span(const T* first, const T* last) {
  constexpr int per_line = 64 / int(sizeof(T));
  for (const T* p = first; p <= last; p += per_line) prefetch_line<ToL2>(p);
  prefetch_line<ToL2>(last);  // the last line when the span straddles one more
}

template <class T>
BATCHOL_HOST_INLINE void prefetch_lines(const T* m, int n, std::ptrdiff_t rs, std::ptrdiff_t cs) {
  const bool rows = cs == 1;
  const std::ptrdiff_t ls = rows ? rs : cs;
  for (int a = 0; a < n; ++a) {
    const T* line = m + a * ls;
    prefetch_span(line + (rows ? 0 : a), line + (rows ? a : n - 1));
  }
}

// Pack `pack` of pr, prefetched by hand (why, and the orders and layouts
// where it pays: prefetch_distance and prefetch_lines_max_n in
// Batchol_HostTuning.hpp).
template <class T>
BATCHOL_HOST_INLINE void prefetch_pack(const Problem<T>& pr, std::int64_t pack, int n) {
  constexpr int W = width_v<T>;
  if (pack >= (pr.batch + W - 1) / W) return;
  const int lanes = int(std::min<std::int64_t>(W, pr.batch - pack * W));
  if (pr.a_bs == 1) {
    const T* a = pr.a + pack * W;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) __builtin_prefetch(a + i * pr.a_rs + j * pr.a_cs, 1, 3);
  } else if ((pr.a_cs == 1 || pr.a_rs == 1) && n <= prefetch_lines_max_n<T>) {
    for (int ln = 0; ln < lanes; ++ln)
      prefetch_lines(pr.a + (pack * W + ln) * pr.a_bs, n, pr.a_rs, pr.a_cs);
  }
  if (pr.nrhs > 0) {
    if (pr.b_bs == 1) {
      const T* b = pr.b + pack * W;
      for (int c = 0; c < pr.nrhs; ++c)
        for (int i = 0; i < n; ++i) __builtin_prefetch(b + i * pr.b_rs + c * pr.b_cs, 1, 3);
    } else if (pr.b_rs == 1) {
      for (int ln = 0; ln < lanes; ++ln)
        for (int c = 0; c < pr.nrhs; ++c) {
          const T* col = pr.b + (pack * W + ln) * pr.b_bs + c * pr.b_cs;
          prefetch_span(col, col + n - 1);
        }
    }
  }
}

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
