import sys, struct
def sections(path):
    d=open(path,'rb').read()
    shoff=struct.unpack_from('<Q',d,0x28)[0]; shentsize,shnum,shstrndx=struct.unpack_from('<HHH',d,0x3A)
    hdr=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*shentsize) for i in range(shnum)]
    stro=hdr[shstrndx][4]
    out={}
    for h in hdr:
        name=d[stro+h[0]:d.index(b'\0',stro+h[0])].decode()
        if name.startswith('.text.'): out[name]=d[h[4]:h[4]+h[5]]
    return out
a=sections(sys.argv[1]); b=sections(sys.argv[2])
same=sum(1 for k in a if k in b and a[k]==b[k]); diff=[k for k in a if k in b and a[k]!=b[k]]
print('head',len(a),'new',len(b),'identical',same,'differ',len(diff),'only head',len(set(a)-set(b)),'only new',len(set(b)-set(a)))
for k in diff[:10]: print(' differ', k[:120], len(a[k]), len(b[k]))
for k in list(set(b)-set(a))[:5]: print(' new', k[:120])
