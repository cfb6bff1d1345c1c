# Medians of the alternating old/new runs in a folder: python3 summarize.py DIR
import glob, gzip, json, statistics as st, sys

res, bws = {}, {}
for f in sorted(glob.glob(sys.argv[1] + '/*_*.json.gz')):
    v = f.split('/')[-1].split('_')[0]
    d = json.load(gzip.open(f))
    bws.setdefault(v, []).append(float(d['context']['batchol_copy_bandwidth_GBps']))
    for b in d['benchmarks']:
        if b['name'].endswith('median'):
            p = b['name'].split('/')
            key = (p[0], int(p[4][2:]), p[5])
            res.setdefault(key, {}).setdefault(v, []).append((b['ns_per_matrix'], b['pct_roofline']))
print('copy GB/s', {k: [round(x, 1) for x in v] for k, v in bws.items()})
for k in sorted(res):
    o, n = res[k]['old'], res[k]['new']
    mo, mn = st.median(x[0] for x in o), st.median(x[0] for x in n)
    print(k, 'old', ' '.join('%.0f' % x[0] for x in o), 'med %.0f' % mo, '| new',
          ' '.join('%.0f' % x[0] for x in n), 'med %.0f' % mn,
          '| new %: ' + ' '.join('%.0f' % x[1] for x in n), ' new/old %.2f' % (mn / mo))
