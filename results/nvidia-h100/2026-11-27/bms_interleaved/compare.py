import re,sys
def parse(f):
    d={}; kind=None
    for l in open(f):
        if l.startswith('n = 2^'):
            kind=('keys' if 'keys' in l else 'pairs', l.split(',')[1].strip().split()[0])
        m=re.match(r'\s+(\d+) \|',l)
        if m and kind:
            cols=l.split('|')
            f_=lambda c: float(c.split()[0]) if c.strip()!='-' else 0.0
            d[(kind,int(m.group(1)))]=(f_(cols[3]),f_(cols[7]),cols[-1].strip())
    return d
files=sys.argv[1:]
ds=[parse(f) for f in files]
print('kind m', ' '.join(files), 'cub(first)')
for k in ds[0]:
    vals=[d[k][0] for d in ds]
    print(f"{k[0][0]:5} {k[0][1]:8} {k[1]:5d} " + ' '.join(f"{v:6.1f}" for v in vals) + "  " + ' '.join(f"{v/vals[0]:.3f}" for v in vals[1:]) + f"  cub {ds[0][k][1]:6.1f} " + ' '.join(d[k][2] for d in ds))
