# Where the per-batch best solve kernel beats the averaged ranking's choice by
# more than 5 % (the sweeps' own times). Usage: python3 regime_gain.py (from the repository root; reads /tmp/srcpaths.txt: the .inc header's inputs)
import sys, json, gzip, collections
sys.path.insert(0,'perf_tests/cuda')
import make_table as mt
paths=open('/tmp/srcpaths.txt').read().split()+['perf_tests/results/h100-2026-11-25-trsvtable/sweep/cuda_tune_trsv_h100.json.gz']
solves=collections.defaultdict(lambda: collections.defaultdict(dict))
for path in paths:
    d=json.load(gzip.open(path,'rt') if path.endswith('.gz') else open(path))
    bad={(r["check"], r["prec"], r["n"]) for r in d["records"] if "check" in r and not r["ok"]}
    for r in d['records']:
        if 'op' not in r or 'nrhs' not in r: continue
        if any(b[0]==r['kernel'] and b[1:]==(r['prec'],r['n']) for b in bad): continue
        if r['layout']=='left' and r['kernel'].startswith('stagedbulk'): continue
        if not mt.solve_row(r['kernel']): continue
        what = 'trsv' if r['op']=='trsv' else ('many' if r['nrhs']>1 else 'one')
        solves[(what,r['prec'],r['layout'],r['n'])][r['batch']][r['kernel']]=r['ns_per_matrix']
tot=collections.Counter()
for key,per in sorted(solves.items()):
    ranked=mt.rank(list(per.values()))
    if not ranked: continue
    chosen=ranked[0][1]
    bs=sorted(per)
    small,large=bs[0],bs[-1]
    if small!=10000 or len(bs)<2: continue
    for b in (small,large):
        ts={k:v for k,v in per[b].items() if k in dict((k2,1) for _,k2 in ranked)}
        best=min(ts,key=ts.get)
        g=ts[chosen]/ts[best]
        if g>1.05:
            print(key,'batch',b,'chosen',chosen,'%.2f'%ts[chosen],'best',best,'%.2f'%ts[best],'gain %.2f'%g)
