import json,sys,gzip,collections
runs=[json.load(gzip.open(f,'rt') if f.endswith('.gz') else open(f)) for f in sys.argv[1:]]
tab=collections.defaultdict(list)
for d in runs:
    for b in d['benchmarks']:
        if b.get('aggregate_name')!='median': continue
        p=b['name'].split('/')
        if p[1]!='batchol_host': continue
        n=int(p[4].split(':')[1])
        tab[(p[0],p[3],n)].append((b['ns_per_matrix'],b['pct_roofline']))
for k in sorted(tab):
    v=tab[k]
    print(f"{k[0]:12s} {k[1]:11s} n={k[2]:3d} ns " + " ".join(f"{a:8.1f}" for a,_ in v) + "   % roof " + " ".join(f"{c:5.1f}" for _,c in v))
