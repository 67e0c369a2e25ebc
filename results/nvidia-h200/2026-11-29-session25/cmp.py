import re,sys,glob,os
# cmp.py DIR base v1 v2 ... : block column, best of runs per n
d=sys.argv[1]; names=sys.argv[2:]
def parse(f):
    out={}; sec=None
    for line in open(f):
        m=re.match(r'n = 2\^(\d+), (\w+) buckets, (\w+)',line)
        if m: sec=(m.group(1),m.group(2),m.group(3)); continue
        m=re.match(r'\s+(\d+) \|(.*)',line)
        if m and sec:
            cols=m.group(2).split('|')
            def val(c):
                t=c.split()
                return float(t[0]) if t and t[0]!='-' else None
            out[sec+(int(m.group(1)),)]=(val(cols[2]),val(cols[6]) if len(cols)>6 else None)
    return out
data={}
for nm in names:
    res={}
    for f in sorted(glob.glob(f'{d}/{nm}_*.txt')):
        for k,v in parse(f).items():
            if v[0] is None: continue
            if k not in res or v[0]>res[k][0]: res[k]=v
    data[nm]=res
keys=sorted(data[names[0]].keys())
print('n func kind m | '+' | '.join(names)+' | ratios vs '+names[0])
for k in keys:
    b=data[names[0]][k][0]
    vals=[data[n].get(k,(None,None))[0] for n in names]
    cub=data[names[0]][k][1]
    print(f"{k[0]} {k[1]:8} {k[2]:5} {k[3]:4} | "+' | '.join(f'{v:6.1f}' if v else '   -  ' for v in vals)+' | '+' '.join(f'{(v/b-1)*100:+5.1f}%' for v in vals[1:] if v)+ (f'  cub {cub:.1f}' if cub else ''))
