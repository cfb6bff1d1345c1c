# A/B of two builds: python3 abh.py DIR A B (files DIR/*_A_*.json.gz, DIR/*_B_*.json.gz; batchol_host medians, ns per matrix per run, mean % of roofline, B/A of the means)
import json,sys,gzip,statistics
def load(f):
    d=json.load(gzip.open(f,'rt') if f.endswith('.gz') else open(f)); out={}
    for b in d['benchmarks']:
        if b.get('aggregate_name')!='median': continue
        p=b['name'].split('/')
        if p[1]!='batchol_host': continue
        out[(p[0]+' '+p[2],p[3],int(p[4].split(':')[1]))]=(b['ns_per_matrix'],b['pct_roofline'])
    return out
d,a,b=sys.argv[1],sys.argv[2],sys.argv[3]
import glob
A=[load(f) for f in sorted(glob.glob(f'{d}/*_{a}_*.json*'))]; B=[load(f) for f in sorted(glob.glob(f'{d}/*_{b}_*.json*'))]
for k in sorted(A[0]):
    x=[r[k][0] for r in A]; y=[r[k][0] for r in B]
    print(f"{k[0]:12s} {k[1]:11s} n={k[2]:3d} {a} "+" ".join(f"{v:7.1f}" for v in x)+f" ({statistics.mean(r[k][1] for r in A):4.1f}%)  {b} "+" ".join(f"{v:7.1f}" for v in y)+f" ({statistics.mean(r[k][1] for r in B):4.1f}%)  ratio {statistics.mean(y)/statistics.mean(x):.3f}")
