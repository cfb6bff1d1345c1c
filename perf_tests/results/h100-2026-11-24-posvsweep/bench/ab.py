# A/B of two batchol_bench builds (old = the table before this sweep, new = after), two alternating calls each: python3 ab.py DIR
import gzip,json,collections,statistics,sys
def load(f):
    out={}
    for b in json.load(gzip.open(f,"rt"))['benchmarks']:
        if b.get('aggregate_name')!='median': continue
        p=b['name'].split('/')
        out[(p[0],p[2],p[3],int(p[4].split(':')[1]))]=b['ns_per_matrix']
    return out
d=sys.argv[1]
runs={v:[load(f'{d}/bench_{v}_{r}.json.gz') for r in (1,2)] for v in ('old','new')}
keys=sorted(runs['new'][0])
for k in keys:
    if k[0]=='potrs': continue
    o=[r[k] for r in runs['old']]; n=[r[k] for r in runs['new']]
    ratio=statistics.mean(n)/statistics.mean(o)
    print(f"{k[0]:6s} {k[1]:6s} {k[2]:11s} n={k[3]:3d} old {o[0]:7.1f} {o[1]:7.1f} new {n[0]:7.1f} {n[1]:7.1f} ratio {ratio:5.3f}{'  *' if abs(ratio-1)>0.03 else ''}")
