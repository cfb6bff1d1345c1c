# From memory, LayoutRight against LayoutLeft. A LayoutRight potrf moves
# every cache line that holds part of a matrix's lower triangle (contiguous
# row-major n x n matrices), so it moves 1 / share of the triangle's bytes;
# LayoutLeft moves the triangle's lines only. The % of the roofline counts
# the triangle's bytes, so if LayoutRight moved its lines as fast as
# LayoutLeft moves its own, it would reach LayoutLeft's % x share.
# Usage: python3 touched.py DRAM.json[.gz]... (medians; means over the files)
import gzip, json, statistics, sys
def share(n, size, batch=64):
    lines = set()
    for m in range(batch):
        for i in range(n):
            for j in range(i + 1):
                lines.add(((m * n + i) * n + j) * size // 64)
    return batch * n * (n + 1) // 2 * size / (len(lines) * 64)
meas = {}
for f in sys.argv[1:]:
    d = json.load(gzip.open(f, 'rt') if f.endswith('.gz') else open(f))
    for b in d['benchmarks']:
        p = b['name'].split('/')
        if b.get('aggregate_name') == 'median' and p[1] == 'batchol_host':
            meas.setdefault((p[0], p[2], int(p[4].split(':')[1]), p[3]), []).append(b['pct_roofline'])
print("routine      prec   n    share  LayoutLeft %  x share  LayoutRight %  ratio")
for (r, prec, n, lay) in sorted(meas):
    if lay != 'LayoutRight' or (r, prec, n, 'LayoutLeft') not in meas:
        continue
    s = share(n, 8 if prec == 'double' else 4)
    left = statistics.mean(meas[(r, prec, n, 'LayoutLeft')])
    right = statistics.mean(meas[(r, prec, n, 'LayoutRight')])
    print(f"{r:12s} {prec:6s} {n:3d}  {s:5.3f}  {left:12.1f}  {left * s:7.1f}  {right:13.1f}  {right / (left * s):5.2f}")
