import json,glob,re,collections,statistics,sys
def load(f):
    d=json.load(open(f)); r={}
    for b in d['benchmarks']:
        if b['name'].endswith('median'):
            k=re.sub(r'/batch:\d+/manual_time_median','',b['name']).replace('/batchol_host','')
            r[k]=b['ns_per_matrix']
    return r
for kind in ('dram','warm'):
    A=[load(f) for f in sorted(glob.glob(f'/tmp/jam/A_{kind}_*.json'))]
    B=[load(f) for f in sorted(glob.glob(f'/tmp/jam/B_{kind}_*.json'))]
    print('==',kind, len(A), len(B))
    for k in A[0]:
        a=[x[k] for x in A]; b=[x[k] for x in B]
        rs=[bb/aa for aa,bb in zip(a,b)]
        print(f"{k:40s} A {statistics.median(a):8.2f} B {statistics.median(b):8.2f}  B/A per pair " + ' '.join(f'{r:.2f}' for r in rs))
