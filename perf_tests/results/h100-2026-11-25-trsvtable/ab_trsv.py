import json,sys,collections
def load(p):
    try: d=json.load(open(p))
    except Exception as e:
        # truncated JSON: salvage
        s=open(p).read(); i=s.rfind('},'); d=json.loads(s[:i+1]+']}')
    out={}
    for b in d['benchmarks']:
        if b.get('aggregate_name')!='median': continue
        out[b['run_name']]=(b['ns_per_matrix'],b['pct_roofline'])
    return out
a=load(sys.argv[1]); b=load(sys.argv[2])
for k in sorted(set(a)&set(b), key=lambda k:(k.split('/')[0],k.split('/')[2],k.split('/')[3],int(k.split('n:')[1].split('/')[0]))):
    (ta,pa),(tb,pb)=a[k],b[k]
    print(f"{k:75} before {ta:8.3f} ({pa:4.1f}%)  after {tb:8.3f} ({pb:4.1f}%)  {tb/ta:5.2f}")
