import json,glob,statistics as st
res={}
bws={}
for f in sorted(glob.glob('/tmp/z4/ab/*_*.json')):
    v,r=f.split('/')[-1][:-5].split('_')
    d=json.load(open(f)); bws.setdefault(v,[]).append(float(d['context']['batchol_copy_bandwidth_GBps']))
    for b in d['benchmarks']:
        if b['name'].endswith('median'):
            p=b['name'].split('/'); res.setdefault((p[0],int(p[4][2:])),{}).setdefault(v,[]).append((b['ns_per_matrix'],b['pct_roofline']))
print('bw', {k:[round(x,1) for x in v] for k,v in bws.items()})
for k in sorted(res):
    o=res[k]['old']; n=res[k]['new']
    print(k, 'old', ' '.join('%.0f'%x[0] for x in o), 'med %.0f'%st.median(x[0] for x in o), '| new', ' '.join('%.0f'%x[0] for x in n), 'med %.0f'%st.median(x[0] for x in n), '| new%%: %s'%' '.join('%.0f'%x[1] for x in n), ' ratio %.2f'%(st.median(x[0] for x in n)/st.median(x[0] for x in o)))
