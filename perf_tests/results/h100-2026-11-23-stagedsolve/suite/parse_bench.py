# bench_gpu_staged.log.gz (console output of batchol_bench; the JSON was cut
# off by the call's time limit) -> ns per system (% roofline) of batchol_auto
# and competitor / batchol_auto time.
import sys, gzip, collections
t = collections.defaultdict(dict)
for line in gzip.open(sys.argv[1], "rt"):
    if "manual_time_median" not in line:
        continue
    f = line.split()
    kv = dict(x.split("=", 1) for x in f if "=" in x)
    parts = f[0].replace("manual_time_median", "").strip("/").split("/")
    op, impl, prec, lay, n = parts[0], parts[1], parts[2], parts[3], int(parts[4].split(":")[1])
    t[(op, prec, lay)][(impl, n)] = (float(kv["ns_per_matrix"]), float(kv["pct_roofline"]))
for k in sorted(t):
    row = t[k]
    ns = sorted({n for (i, n) in row if i == "batchol_auto"})
    print(" ".join(k) + ": " + "  ".join(f"n={n} {row[('batchol_auto', n)][0]:.2f} ({row[('batchol_auto', n)][1]:.0f} %)" for n in ns))
    for c in sorted({i for (i, n) in row if i != "batchol_auto"}):
        print(f"    {c} / batchol: " + "  ".join(f"{row[(c, n)][0] / row[('batchol_auto', n)][0]:.1f}x" for n in ns if (c, n) in row))
