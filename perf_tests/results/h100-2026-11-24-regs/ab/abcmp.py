import json,sys,glob,collections
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    d=json.load(open(f))
    for r in d['records']:
        if 'ns_per_matrix' not in r: continue
        k=r['kernel']
        if k[0] in 'HN' and k[1:].startswith('tile'):
            rows[(r['prec'],r['op'],r['layout'],r['n'],r['batch'],k[1:])][k[0]].append(r['ns_per_matrix'])
        elif 'cusolver' in k:
            rows[(r['prec'],r['op'],r['layout'],r['n'],r['batch'],'cusolver')]['C'].append(r['ns_per_matrix'])
for key in sorted(rows):
    v=rows[key]
    if 'C' in v: print(*key, 'cusolver', ' '.join('%.1f'%x for x in v['C'])); continue
    h=sum(v['H'])/len(v['H']); n=sum(v['N'])/len(v['N'])
    print(*key, 'H', ' '.join('%.1f'%x for x in v['H']), '| N', ' '.join('%.1f'%x for x in v['N']), '| N/H %.3f'%(n/h))
