#!/usr/bin/env python3
"""Lane solve against the other solve kernels in the same tune --solve runs
(same binary, same data): potrs on LayoutLeft, per precision, n, nrhs and
batch. 'old table' is the sm_90 solve table before the lane rows (a
candidate of the sweep, n <= 64 only); 'best other' the fastest non-lane
candidate, which is what the tables could take without the lane solve.
Usage: compare.py SWEEP.json.gz [...]"""
import collections
import gzip
import json
import sys

g = collections.defaultdict(dict)
for path in sys.argv[1:]:
    d = json.load(gzip.open(path, "rt"))
    for r in d["records"]:
        if "check" in r or r["op"] != "potrs" or r["layout"] != "left":
            continue
        g[(r["prec"], r["n"], r["nrhs"], r["batch"])][r["kernel"]] = (r["ns_per_matrix"],
                                                                     r["pct_roofline"])
print("ns per system (% of the roofline); ratio = best other / best lane")
print(f"{'prec':6} {'n':>4} {'nrhs':>4} {'batch':>7} {'old table':>15} "
      f"{'best other':>15} {'best lane':>15} {'ratio':>6}  lane shape / other kernel")
for key in sorted(g):
    k = g[key]
    other = min((v, n) for n, v in k.items() if not n.startswith("lane") and "table" not in n)
    lane = min((v, n) for n, v in k.items() if n.startswith("lane"))
    old = k.get("table")
    olds = f"{old[0]:7.2f} ({old[1]:4.1f}%)" if old else f"{'-':>15}"
    print(f"{key[0]:6} {key[1]:4d} {key[2]:4d} {key[3]:7d} {olds} "
          f"{other[0][0]:7.2f} ({other[0][1]:4.1f}%) {lane[0][0]:7.2f} ({lane[0][1]:4.1f}%) "
          f"{other[0][0] / lane[0][0]:6.2f}  {lane[1][4:]} / {other[1]}")
