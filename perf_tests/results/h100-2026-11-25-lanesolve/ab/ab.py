#!/usr/bin/env python3
"""batchol_bench, the previous HEAD (old) against this change (new), run
alternately twice on one H100: median ns per system of each run, the mean of
the two runs, and new / old. Usage: ab.py DIR (holds ab_{old,new}_{1,2}.json)."""
import collections
import json
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(lambda: collections.defaultdict(list))
roof = {}
for v in ("old", "new"):
    for r in (1, 2):
        for b in json.load(open(f"{d}/ab_{v}_{r}.json"))["benchmarks"]:
            if b.get("aggregate_name") != "median":
                continue
            f = b["run_name"].split("/")
            key = (f[0], f[2], int(f[4].split(":")[1]))
            t[key][v].append(b["ns_per_matrix"])
            if v == "new":
                roof[key] = b["pct_roofline"]
print(f"{'routine':20} {'prec':6} {'n':>4} {'old ns (runs)':>22} {'new ns (runs)':>22} {'new/old':>7} {'new % roof':>10}")
for key in sorted(t):
    o, n = t[key]["old"], t[key]["new"]
    mo, mn = sum(o) / len(o), sum(n) / len(n)
    print(f"{key[0]:20} {key[1]:6} {key[2]:4d} {mo:8.2f} ({o[0]:.2f} {o[1]:.2f}) {mn:8.2f} ({n[0]:.2f} {n[1]:.2f}) "
          f"{mn / mo:7.2f} {roof[key]:9.1f}%")
