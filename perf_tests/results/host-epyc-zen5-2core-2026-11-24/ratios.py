import json,sys,gzip
f=sys.argv[1]
d=json.load(gzip.open(f,'rt') if f.endswith('.gz') else open(f))
res={}
for b in d['benchmarks']:
    if b.get('aggregate_name')!='median': continue
    p=b['name'].split('/'); n=int(p[4].split(':')[1])
    res.setdefault((p[2],p[3],n),{})[p[1]]=b['ns_per_matrix']
for k in sorted(res):
    x=res[k]; comps={a:v for a,v in x.items() if not a.startswith('batchol')}
    best=min(comps,key=comps.get)
    print(f"{k[0]:6s} {k[1]:11s} n={k[2]:3d} auto {x['batchol_auto']:9.1f} host {x['batchol_host']:9.1f}  best {best:12s} {comps[best]:10.1f}  x{comps[best]/x['batchol_auto']:6.2f}")
