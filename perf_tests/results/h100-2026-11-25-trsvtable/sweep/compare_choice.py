import json,gzip,re,collections,sys
sys.path.insert(0,'perf_tests/cuda')
import make_table as mt
d=json.load(gzip.open('perf_tests/results/h100-2026-11-25-trsvtable/sweep/cuda_tune_trsv_h100.json.gz','rt'))
t=collections.defaultdict(dict)
for r in d['records']:
    if r.get('op')=='trsv': t[(r['prec'],r['layout'],r['n'],r['batch'])][r['kernel']]=r['ns_per_matrix']
src=open('src/cuda/Batchol_CudaTable_sm90.inc').read()
def rows(struct):
    body=src[src.index('struct '+struct):]
    body=body[:body.index('\n};')]
    out={}
    for arr in re.finditer(r'static constexpr FactorEntry (\w+)\[\] = \{(.*?)\n  \};',body,re.S):
        out[arr.group(1)]=[tuple(x.strip() for x in m.group(1).split(',')) for m in re.finditer(r'\n      \{([^}]*)\}',arr.group(2))]
    return out
one,trs=rows('Sm90SolveOne'),rows('Sm90SolveTrsv')
def pick(tab,n):
    for r in tab:
        if n<=int(r[0]): return r
def name(r):
    k=r[1].split('::')[1]
    if k=='Lane': return f"lane<R={r[9]},NR={r[12]},G={r[3]},MINB={r[5]}>"
    if k=='Group': return f"group<NP={r[2]},G={r[3]},W={r[4]}>"
    if k=='Strided': return f"strided<MW={int(r[2])//32},U={r[11]},NR={r[12]}>"
    if k in('Staged','StagedBulk'): return ('stagedbulk' if k=='StagedBulk' else 'staged')+f"<MW={int(r[2])//32},MPB={r[6]}>"
for (p,l,n,b),ks in sorted(t.items()):
    key=f"{p}_{l}"
    a,bb=name(pick(one[key],n)),name(pick(trs[key],n))
    ta,tb=ks.get(a),ks.get(bb)
    if ta is None or tb is None: print(p,l,n,b,'missing',a,bb); continue
    if a!=bb or True:
        print(f"{p:6} {l:5} n={n:3} batch={b:7} one-table {a:30} {ta:7.3f}  trsv-table {bb:30} {tb:7.3f}  ratio {tb/ta:.3f}")
