// Host kernels for any n: blocked left-looking Cholesky on one pack held in a
// per-thread buffer (the packed triangle, n (n + 1) / 2 vectors, which stays in
// L1/L2 while the pack is worked on).
//
// The factor is built in panels of NB columns. For each panel, register tiles
// of RB rows x NB columns accumulate the updates from every column to the left
// of the panel (streamed from the buffer, k ascending), then the panel's own
// columns are applied: the diagonal tile is factored in registers (unwound), and
// each tile below is solved against it. RB x NB = 16 accumulators plus the
// operands fit the 32 vector registers of AVX-512 (and spill little with 16).
// The updates of each element happen in serial_potrf's order (k ascending), so
// the results match the serial kernel lane by lane, as in Unwound.
#ifndef BATCHOL_HOST_BLOCKED_HPP
#define BATCHOL_HOST_BLOCKED_HPP

#include <detail/Batchol_HostUnwound.hpp>

namespace batchol::detail::host {
inline namespace BATCHOL_HOST_ISA {

template <class T>
struct Blocked {
  using V = vec_t<T>;
  using M = mask_t<T>;
  static constexpr int NB = 4;     // panel width
  static constexpr int RB = 4;     // rows per register tile below the diagonal
  static constexpr int jam = 1;    // one pack at a time: the tiles give enough ILP
  static constexpr int order = 0;  // n known at run time only

  // Diagonal tile of panel j0 (C columns): left updates, then unwound Cholesky.
  // Leaves the tile's factor in ld and the pivots' sqrt / inverse sqrt in s, r.
  template <int C, bool Fast>
  BATCHOL_HOST_INLINE static void diag_tile(V* l, int j0, V (&ld)[NB][NB], V (&s)[NB], V (&r)[NB],
                                            V* rdiag, M& info) {
    V acc[C][C];
    const V* row[C];
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < C; ++a) row[a] = l + tri(j0 + a, 0);
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < C; ++a) {
      BATCHOL_HOST_UNROLL
      for (int c = 0; c < C; ++c)
        if (c <= a) acc[a][c] = row[a][j0 + c];
    }
    for (int k = 0; k < j0; ++k) {
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < C; ++a) {
        BATCHOL_HOST_UNROLL
        for (int c = 0; c < C; ++c)
          if (c <= a) acc[a][c] -= row[a][k] * row[c][k];
      }
    }
    BATCHOL_HOST_UNROLL
    for (int c = 0; c < C; ++c) {
      V d = acc[c][c];
      BATCHOL_HOST_UNROLL
      for (int e = 0; e < C; ++e)
        if (e < c) d -= acc[c][e] * acc[c][e];
      d = checked_pivot<T, Fast>(d, j0 + c + 1, info);
      if constexpr (Fast) {
        rsqrt_sqrt_fast(d, r[c], s[c]);
      } else {
        s[c] = vsqrt(d);
        r[c] = splat<T>(T(1)) / s[c];
      }
      rdiag[j0 + c] = r[c];
      acc[c][c] = s[c];
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < C; ++a) {
        if (a <= c) continue;
        V v = acc[a][c];
        BATCHOL_HOST_UNROLL
        for (int e = 0; e < C; ++e)
          if (e < c) v -= acc[a][e] * acc[c][e];
        acc[a][c] = v * r[c];
      }
    }
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < C; ++a) {
      BATCHOL_HOST_UNROLL
      for (int c = 0; c < C; ++c)
        if (c <= a) {
          l[tri(j0 + a, j0 + c)] = acc[a][c];
          ld[a][c] = acc[a][c];
        }
    }
  }

  // R rows starting at i0 (below the diagonal tile) of panel j0 (C columns).
  template <int R, int C>
  BATCHOL_HOST_INLINE static void panel_tile(V* l, int i0, int j0, const V (&ld)[NB][NB],
                                             const V (&r)[NB]) {
    V acc[R][C];
    const V* row[R];
    const V* col[C];
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < R; ++a) row[a] = l + tri(i0 + a, 0);
    BATCHOL_HOST_UNROLL
    for (int c = 0; c < C; ++c) col[c] = l + tri(j0 + c, 0);
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < R; ++a) {
      BATCHOL_HOST_UNROLL
      for (int c = 0; c < C; ++c) acc[a][c] = row[a][j0 + c];
    }
    for (int k = 0; k < j0; ++k) {
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < R; ++a) {
        const V x = row[a][k];
        BATCHOL_HOST_UNROLL
        for (int c = 0; c < C; ++c) acc[a][c] -= x * col[c][k];
      }
    }
    BATCHOL_HOST_UNROLL
    for (int c = 0; c < C; ++c) {
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < R; ++a) {
        V v = acc[a][c];
        BATCHOL_HOST_UNROLL
        for (int e = 0; e < C; ++e)
          if (e < c) v -= acc[a][e] * ld[c][e];
        acc[a][c] = v * r[c];
      }
    }
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < R; ++a) {
      BATCHOL_HOST_UNROLL
      for (int c = 0; c < C; ++c) l[tri(i0 + a, j0 + c)] = acc[a][c];
    }
  }

  template <int C, bool Fast>
  BATCHOL_HOST_INLINE static void panel(V* l, int n, int j0, V* rdiag, M& info) {
    V ld[NB][NB], s[NB], r[NB];
    diag_tile<C, Fast>(l, j0, ld, s, r, rdiag, info);
    int i0 = j0 + C;
    for (; i0 + RB <= n; i0 += RB) panel_tile<RB, C>(l, i0, j0, ld, r);
    switch (n - i0) {
      case 3:
        panel_tile<3, C>(l, i0, j0, ld, r);
        break;
      case 2:
        panel_tile<2, C>(l, i0, j0, ld, r);
        break;
      case 1:
        panel_tile<1, C>(l, i0, j0, ld, r);
        break;
      default:
        break;
    }
  }

  template <bool Fast>
  BATCHOL_HOST_NOINLINE static void potrf(int n, V* l, V* rdiag, M* info_ptr) {
    M& info = *info_ptr;
    static_assert(NB == 4 && RB == 4, "the tail switches below assume 4");
    int j0 = 0;
    for (; j0 + NB <= n; j0 += NB) panel<NB, Fast>(l, n, j0, rdiag, info);
    switch (n - j0) {
      case 3:
        panel<3, Fast>(l, n, j0, rdiag, info);
        break;
      case 2:
        panel<2, Fast>(l, n, j0, rdiag, info);
        break;
      case 1:
        panel<1, Fast>(l, n, j0, rdiag, info);
        break;
      default:
        break;
    }
  }

  // The substitutions go SB rows (forward) or columns (backward) at a time, so
  // that SB independent accumulations run side by side: one row's dot product
  // alone is a chain of dependent FMAs (measured alone in L1, Zen 5, double
  // n = 17-64: 3.2-4.3x the FMA bound one row at a time, 1.4-2.3x now). Each
  // element still receives its updates in serial_potrs's order, so the
  // results do not change by a bit.
  static constexpr int SB = 8;

  // x <- L^-1 x for rows [i0, i0 + R): first what the rows before i0 contribute
  // (row i of the packed triangle is contiguous), then the block's own
  // triangle, column by column.
  template <int R, bool Recip>
  BATCHOL_HOST_INLINE static void forward_rows(const V* l, const V* rdiag, V* x, int i0) {
    V acc[R];
    const V* row[R];
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < R; ++a) {
      row[a] = l + tri(i0 + a, 0);
      acc[a] = x[i0 + a];
    }
    for (int k = 0; k < i0; ++k) {
      const V xk = x[k];
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < R; ++a) acc[a] -= row[a][k] * xk;
    }
    BATCHOL_HOST_UNROLL
    for (int c = 0; c < R; ++c) {
      const V xc = Recip ? acc[c] * rdiag[i0 + c] : acc[c] / row[c][i0 + c];
      x[i0 + c] = xc;
      BATCHOL_HOST_UNROLL
      for (int a = c + 1; a < R; ++a) acc[a] -= row[a][i0 + c] * xc;
    }
  }

  // x <- L^-T x for columns [i0, i0 + R), given x final from i0 + R on: first
  // what the rows below the block contribute, k descending (each row's R
  // entries are contiguous), then the block's own triangle.
  template <int R, bool Recip>
  BATCHOL_HOST_INLINE static void backward_cols(int n, const V* l, const V* rdiag, V* x, int i0) {
    V acc[R];
    BATCHOL_HOST_UNROLL
    for (int a = 0; a < R; ++a) acc[a] = x[i0 + a];
    for (int k = n - 1; k >= i0 + R; --k) {
      const V* row = l + tri(k, i0);
      const V xk = x[k];
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < R; ++a) acc[a] -= row[a] * xk;
    }
    BATCHOL_HOST_UNROLL
    for (int c = R - 1; c >= 0; --c) {
      const V* row = l + tri(i0 + c, i0);
      const V xc = Recip ? acc[c] * rdiag[i0 + c] : acc[c] / row[c];
      x[i0 + c] = xc;
      BATCHOL_HOST_UNROLL
      for (int a = 0; a < c; ++a) acc[a] -= row[a] * xc;
    }
  }

  // x <- L^-1 x.
  template <bool Recip>
  BATCHOL_HOST_NOINLINE static void forward(int n, const V* l, const V* rdiag, V* x) {
    int i0 = 0;
    for (; i0 + SB <= n; i0 += SB) forward_rows<SB, Recip>(l, rdiag, x, i0);
    with_constant<SB - 1>(
        n - i0, [&](auto r) { forward_rows<decltype(r)::value, Recip>(l, rdiag, x, i0); });
  }

  // x <- L^-T x, upwards: a partial block, if any, is the bottom one, taken
  // first.
  template <bool Recip>
  BATCHOL_HOST_NOINLINE static void backward(int n, const V* l, const V* rdiag, V* x) {
    const int full = n / SB * SB;
    with_constant<SB - 1>(
        n - full, [&](auto r) { backward_cols<decltype(r)::value, Recip>(n, l, rdiag, x, full); });
    for (int i0 = full - SB; i0 >= 0; i0 -= SB) backward_cols<SB, Recip>(n, l, rdiag, x, i0);
  }
};

}  // namespace BATCHOL_HOST_ISA
}  // namespace batchol::detail::host

#endif
