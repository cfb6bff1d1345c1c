# Orders whose solve-table row differs: the averaged ranking (before) against
# the tables for batch 10^4 and the ...Big ones (after). Usage: compare_tables.py BEFORE.inc AFTER.inc
import re,sys
def rows(src,struct):
    i=src.index('struct '+struct+' {'); body=src[i:]; body=body[:body.index('\n};')]
    out={}
    for arr in re.finditer(r'static constexpr FactorEntry (\w+)\[\] = \{(.*?)\n  \};',body,re.S):
        out[arr.group(1)]=[tuple(x.strip() for x in m.group(1).split(',')) for m in re.finditer(r'\n      \{([^}]*)\}',arr.group(2))]
    return out
def pick(tab,n):
    for r in tab:
        if n<=int(r[0]): return r[1:]
old=open(sys.argv[1]).read(); new=open(sys.argv[2]).read()  # before, after
for st in ('Sm90SolveOne','Sm90SolveMany','Sm90SolveTrsv'):
    o=rows(old,st); s=rows(new,st); b=rows(new,st+'Big')
    for key in o:
        ds=sum(1 for n in range(1,129) if pick(o[key],n)!=pick(s[key],n))
        db=sum(1 for n in range(1,129) if pick(o[key],n)!=pick(b[key],n))
        dsb=sum(1 for n in range(1,129) if pick(s[key],n)!=pick(b[key],n))
        print(f"{st:14} {key:13} orders differing: small vs mean {ds:3}, big vs mean {db:3}, small vs big {dsb:3}")
