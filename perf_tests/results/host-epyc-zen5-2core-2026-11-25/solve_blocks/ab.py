# A/B of two sets of batchol_bench JSON files: ab.py 'A*.json.gz' 'B*.json.gz'
# prints each row's runs and the ratio of medians (B / A).
import json,sys,glob,collections,gzip
def load(pat):
    t=collections.defaultdict(list)
    for f in sorted(glob.glob(pat)):
        for b in json.load(gzip.open(f,'rt') if f.endswith('.gz') else open(f))['benchmarks']:
            if b.get('aggregate_name')!='median': continue
            p=b['name'].split('/')
            t[(p[0],p[2],p[3],p[4])].append(b['ns_per_matrix'])
    return t
A=load(sys.argv[1]); B=load(sys.argv[2])
for k in sorted(A, key=lambda k:(k[0],k[1],k[2],int(k[3].split(':')[1]))):
    if k not in B: continue
    a=sorted(A[k]); b=sorted(B[k])
    ma=a[len(a)//2]; mb=b[len(b)//2]
    print(f"{k[0]:22s} {k[1]:6s} {k[2]:11s} {k[3]:6s} {' '.join(f'{x:7.1f}' for x in A[k])} -> {' '.join(f'{x:7.1f}' for x in B[k])}  x{mb/ma:5.2f}")
