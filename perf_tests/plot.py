#!/usr/bin/env python3
"""Turn batchol_bench JSON results into PNG plots and a markdown table.

    python3 perf_tests/plot.py results.json [more.json ...] -o outdir

For each routine, precision, layout and batch size (the papers' 10000, and
the large >= 256 MB batch) one PNG with three panels, one line per
implementation: time per matrix vs n (log y), % of the memory roofline vs n,
and the speedup of Batchol's best path over each competitor. Also writes
outdir/table.md: for n = 4, 8, 16, 32, 64, 100, Batchol's best time per matrix,
its % of roofline and the ratio of each competitor's time to it.

Several files (e.g. a GPU and a CPU run) can be drawn together: their series
are labelled with --labels (default: each file's name). Files given the same
label are one source (parts of one sweep); --save-merged writes them as one
JSON file.
"""
import argparse
import collections
import gzip
import json
import math
import os
import re
import sys

NAME = re.compile(
    r"^(?P<routine>[^/]+)/(?P<impl>[^/]+)/(?P<prec>float|double)/(?P<layout>Layout\w+)"
    r"/n:(?P<n>\d+)/batch:(?P<batch>\d+)(?P<warm>/cache:warm)?")
TABLE_N = [4, 8, 16, 32, 64, 100]



def open_result(path):
    """Results are committed gzipped when large (perf_tests/results/*.json.gz)."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)

def load(paths, labels):
    """Records (dicts) of every successful median (or single) result."""
    records, contexts = [], []
    for path, label in zip(paths, labels):
        with open_result(path) as f:
            data = json.load(f)
        contexts.append((label, data.get("context", {})))
        for b in data.get("benchmarks", []):
            if b.get("error_occurred"):
                continue
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            m = NAME.match(b.get("run_name", b["name"]))
            if not m or "ns_per_matrix" not in b:
                continue
            r = m.groupdict()
            r["n"], r["batch"] = int(r["n"]), int(r["batch"])
            r["cache"] = "warm" if r.pop("warm") else "cold"
            r["label"] = r["impl"] if len(set(labels)) == 1 else f"{r['impl']} [{label}]"
            r["source"] = label
            r["ns"] = float(b["ns_per_matrix"])
            r["roof"] = float(b.get("pct_roofline", float("nan")))
            records.append(r)
    return records, contexts


LARGE_BYTES = 200 << 20  # a batch this big already fills the memory system


def classify_batches(records):
    """Tag each record 'small' (the smallest batch of its n: 10000, or less
    where capped) and/or 'large' (a larger batch of the same n, or a single
    batch that is itself >= LARGE_BYTES, as 10000 matrices of n >= 58 are)."""
    sizes = collections.defaultdict(set)
    for r in records:
        sizes[(r["source"], r["routine"], r["prec"], r["layout"], r["cache"], r["n"])].add(r["batch"])
    out = []
    for r in records:
        s = sizes[(r["source"], r["routine"], r["prec"], r["layout"], r["cache"], r["n"])]
        scalar = 4 if r["prec"] == "float" else 8
        if r["batch"] == min(s):
            out.append(dict(r, kind="small"))
        if (len(s) > 1 and r["batch"] == max(s)) or (
                len(s) == 1 and r["batch"] * r["n"] ** 2 * scalar >= LARGE_BYTES):
            out.append(dict(r, kind="large"))
    return out


def batch_text(kind, rs):
    b = sorted({r["batch"] for r in rs})
    sizes = str(b[0]) if len(b) == 1 else f"{b[0]}..{b[-1]}"
    return (f"batch {sizes}" if kind == "small" else f"large batch (>= 256 MB or capped: {sizes})")


def groups(records):
    g = collections.defaultdict(list)
    for r in records:
        g[(r["routine"], r["prec"], r["layout"], r["kind"], r["cache"])].append(r)
    return g


def series(rs):
    """label -> sorted [(n, ns, roof, batch)]"""
    s = collections.defaultdict(dict)
    for r in rs:
        s[r["label"]][r["n"]] = (r["n"], r["ns"], r["roof"], r["batch"])
    return {k: [v[n] for n in sorted(v)] for k, v in s.items()}


def is_batchol(label):
    """Batchol's default series; batchol_*_fast (Options::fast_math) and
    batchol_*_upper (the other triangle) are tabulated beside them like a
    competitor, never as the best path."""
    return label.startswith("batchol_") and not label.endswith(("_fast", "_upper"))


def best_batchol(ser, source_of):
    """Per (source, n): the fastest Batchol path -> (ns, roof, label)."""
    best = {}
    for label, pts in ser.items():
        if not is_batchol(label):
            continue
        for n, ns, roof, _ in pts:
            key = (source_of[label], n)
            if key not in best or ns < best[key][0]:
                best[key] = (ns, roof, label)
    return best


def color_map(records, plt):
    """One color per implementation label, the same in every panel and file."""
    labels = sorted({r["label"] for r in records}, key=lambda s: (not is_batchol(s), s))
    cmap = plt.get_cmap("tab20")  # dark shades first, then the light ones
    return {l: cmap((2 * i) % 20 + (2 * i // 20) % 2) for i, l in enumerate(labels)}


def plot_group(key, rs, outdir, plt, colors):
    routine, prec, layout, kind, cache = key
    ser = series(rs)
    source_of = {r["label"]: r["source"] for r in rs}
    best = best_batchol(ser, source_of)
    fig, ax = plt.subplots(1, 3, figsize=(18, 5.2))
    for label in sorted(ser, key=lambda s: (not is_batchol(s), s)):
        pts = ser[label]
        style = "-o" if is_batchol(label) else "--s"
        ns = [p[0] for p in pts]
        col = colors[label]
        ax[0].plot(ns, [p[1] for p in pts], style, ms=3, color=col, label=label)
        ax[1].plot(ns, [p[2] for p in pts], style, ms=3, color=col, label=label)
        if not is_batchol(label):
            sp = [(n, t / best[(source_of[label], n)][0]) for n, t, _, _ in pts
                  if (source_of[label], n) in best]
            if sp:
                ax[2].plot([p[0] for p in sp], [p[1] for p in sp], style, ms=3, color=col,
                           label=f"vs {label}")
    batch_txt = batch_text(kind, rs)
    title = f"{routine}, {prec}, {layout}, {batch_txt}, {cache} cache"
    ax[0].set_yscale("log")
    ax[0].set_ylabel("time per matrix [ns]")
    ax[1].set_ylabel("% of memory roofline")
    ax[1].axhline(100, color="gray", lw=0.8)
    ax[2].set_yscale("log")
    ax[2].axhline(1, color="gray", lw=0.8)
    ax[2].set_ylabel("speedup of best Batchol path (competitor time / Batchol time)")
    for a in ax:
        a.set_xscale("log", base=2)
        a.xaxis.set_major_formatter(plt.matplotlib.ticker.ScalarFormatter())
        a.set_xlabel("n")
        a.grid(True, which="both", alpha=0.3)
        if a.get_legend_handles_labels()[0]:
            a.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    name = f"{routine}_{prec}_{layout}_{'batch10000' if kind == 'small' else 'large'}"
    if cache == "warm":
        name += "_warm"
    path = os.path.join(outdir, name + ".png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def fmt_ns(x):
    return f"{x:.3g}" if x < 1000 else f"{x:.0f}"


def table(grouped, table_n):
    lines = []
    for key in sorted(grouped):
        routine, prec, layout, kind, cache = key
        ser = series(grouped[key])
        source_of = {r["label"]: r["source"] for r in grouped[key]}
        best = best_batchol(ser, source_of)
        comps = sorted(l for l in ser if not is_batchol(l))
        rows = []
        for (source, n) in sorted(best, key=lambda k: (k[0], k[1])):
            if n not in table_n:
                continue
            ns, roof, label = best[(source, n)]
            cells = []
            for c in comps:
                pt = {p[0]: p for p in ser[c]}.get(n)
                cells.append(f"{pt[1] / ns:.2f}x" if pt and source_of[c] == source else "—")
            batch = {p[0]: p[3] for p in ser[label]}[n]
            rows.append(f"| {n} | {batch} | {label} | {fmt_ns(ns)} | {roof:.1f} % | " +
                        " | ".join(cells) + " |")
        if not rows:
            continue
        batch_txt = batch_text(kind, grouped[key])
        lines.append(f"\n### {routine}, {prec}, {layout}, {batch_txt}, {cache} cache\n")
        lines.append("| n | batch | best Batchol path | ns/matrix | % roofline | " +
                     " | ".join(f"{c} / Batchol" for c in comps) + " |")
        lines.append("|" + "---|" * (5 + len(comps)))
        lines.extend(rows)
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("--labels", help="comma-separated label per JSON file")
    ap.add_argument("--table-n", default=",".join(map(str, TABLE_N)))
    ap.add_argument("--no-plots", action="store_true", help="only write table.md")
    ap.add_argument("--save-merged", metavar="JSON",
                    help="also write all the input files as one JSON (context of the first)")
    args = ap.parse_args(argv)
    if args.save_merged:
        merged = None
        for path in args.json:
            with open_result(path) as f:
                data = json.load(f)
            if merged is None:
                merged = data
                merged.setdefault("context", {})["batchol_merged_from"] = ", ".join(
                    os.path.basename(p) for p in args.json)
            else:
                merged["benchmarks"].extend(data.get("benchmarks", []))
        os.makedirs(os.path.dirname(os.path.abspath(args.save_merged)), exist_ok=True)
        with open(args.save_merged, "w") as f:
            json.dump(merged, f, separators=(",", ":"))
    labels = args.labels.split(",") if args.labels else [
        os.path.basename(p).removesuffix(".gz").removesuffix(".json") for p in args.json]
    records, contexts = load(args.json, labels)
    if not records:
        print("no successful results found", file=sys.stderr)
        return 1
    grouped = groups(classify_batches(records))
    os.makedirs(args.outdir, exist_ok=True)
    if not args.no_plots:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        colors = color_map(records, plt)
        for key in sorted(grouped):
            plot_group(key, grouped[key], args.outdir, plt, colors)
    head = ["# Batchol benchmark results\n"]
    for label, ctx in contexts:
        head.append(f"- **{label}**: {ctx.get('batchol_device', '?')}; "
                    f"{ctx.get('batchol_kokkos', '?')}; git {ctx.get('batchol_git_revision', '?')}; "
                    f"{ctx.get('batchol_date', ctx.get('date', '?'))}; copy bandwidth "
                    f"{float(ctx.get('batchol_copy_bandwidth_GBps', 'nan')):.1f} GB/s; "
                    f"host threads {ctx.get('batchol_host_threads', '?')}")
    head.append("\nRatios are competitor time / best Batchol time (> 1: Batchol is faster).")
    text = "\n".join(head) + "\n" + table(grouped, [int(x) for x in args.table_n.split(",")])
    with open(os.path.join(args.outdir, "table.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
