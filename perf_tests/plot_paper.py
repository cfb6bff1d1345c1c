#!/usr/bin/env python3
"""Kurzak et al. (2016), Figs. 18, 21 and 23 redrawn from a batchol_bench run.

The paper's protocol: batch 10,000, single precision, n = 5..100; Gflop/s of
the factorization (Fig. 18), the solve with one right-hand side (Fig. 21) and
the full solve, factorization plus solve (Fig. 23), against n, next to cuBLAS
and cuSOLVER. The run behind it:

    batchol_bench --batchol_n=5,10,...,100 --batchol_routines=potrf,potrs,posv \\
        --batchol_precisions=float --batchol_layouts=right --batchol_large_mb=0 \\
        '--benchmark_filter=^(potrf|potrs_nrhs1|posv)/' --benchmark_out=run.json

    python3 perf_tests/plot_paper.py run.json -o outdir   # outdir/kurzak_fig{18,21,23}.png
"""
import argparse
import json
import os
from collections import defaultdict

FIGS = [("potrf", "18", "factorization (POTRF)"),
        ("potrs_nrhs1", "21", "solve, one right-hand side (POTRS)"),
        ("posv", "23", "factorization + solve (POSV)")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--outdir", default=".")
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.load(open(args.json))
    ctx = data["context"]
    device = ctx.get("batchol_device", ctx.get("host_name", ""))
    series = defaultdict(dict)  # (routine, impl) -> {n: GF/s}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        routine, impl = b["name"].split("/")[:2]
        series[(routine, impl)][int(b["n"])] = b["GF_per_s"]
    os.makedirs(args.outdir, exist_ok=True)
    for routine, fig, title in FIGS:
        plt.figure(figsize=(7, 4.5))
        for (r, impl), pts in sorted(series.items()):
            if r != routine or impl == "batchol_auto":
                continue
            ns = sorted(pts)
            plt.plot(ns, [pts[n] for n in ns], marker="o", ms=3, label=impl)
        plt.xlabel("n")
        plt.ylabel("Gflop/s")
        plt.yscale("log")
        plt.grid(True, which="both", alpha=0.3)
        plt.title(f"{title}, float, batch 10,000 (cf. Kurzak et al. Fig. {fig})\n{device}",
                  fontsize=9)
        plt.legend(fontsize=7)
        out = os.path.join(args.outdir, f"kurzak_fig{fig}_{routine}.png")
        plt.tight_layout()
        plt.savefig(out, dpi=110)
        plt.close()
        print(out)


if __name__ == "__main__":
    main()
