import csv,gzip,re,sys,collections
# lines.py DIS FUNC_MANGLED SASS_CSV_GZ : stall samples and instructions per source line
dis,func,sass=sys.argv[1:4]
m={}; cur=None; infn=False
for line in open(dis):
    if line.startswith('.text.'):
        infn = line.strip().rstrip(':')=='.text.'+func; continue
    if not infn: continue
    if line.startswith('\t.section'): 
        if infn and m: break
    mm=re.match(r'\s*//## File "(.*)", line (\d+)',line)
    if mm: cur=(mm.group(1).split('/')[-1],int(mm.group(2))); continue
    mm=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;',line)
    if mm: m[int(mm.group(1),16)]=(cur,mm.group(2))
rows=list(csv.reader(gzip.open(sass,'rt')))
hdr=rows[1]; data=rows[2:]
ix={h:i for i,h in enumerate(hdr)}
a0=int(data[0][0],16)
stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
agg=collections.defaultdict(lambda: collections.Counter())
tot=collections.Counter(); bad=0
for r in data:
    off=int(r[0],16)-a0
    if off not in m: bad+=1; continue
    loc,ins=m[off]
    if ins.split()[-1:] and r[1].strip().split(' ')[0] not in ins: pass
    c=agg[loc]
    c['samples']+=int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    c['inst']+=int(r[ix['Instructions Executed']] or 0)
    c['wav']+=int(r[ix['L1 Wavefronts Shared']] or 0)
    c['wav_ideal']+=int(r[ix['L1 Wavefronts Shared Ideal']] or 0)
    for s in stalls:
        v=int(r[ix[s]] or 0); c[s]+=v; tot[s]+=v
    tot['samples']+=int(r[ix['Warp Stall Sampling (All Samples)']] or 0); tot['inst']+=int(r[ix['Instructions Executed']] or 0)
    tot['wav']+=c and int(r[ix['L1 Wavefronts Shared']] or 0); tot['wav_ideal']+=int(r[ix['L1 Wavefronts Shared Ideal']] or 0)
print('unmapped',bad,'of',len(data))
print('total samples',tot['samples'],'inst',tot['inst'],'smem wavefronts',tot['wav'],'ideal',tot['wav_ideal'])
print('stalls:',', '.join(f"{s[6:]} {100*tot[s]/tot['samples']:.1f}%" for s in sorted(stalls,key=lambda s:-tot[s]) if tot[s]>0.005*tot['samples']))
byfile=collections.Counter(); byfi=collections.Counter()
for (f,l),c in agg.items(): byfile[f]+=c['samples']; byfi[f]+=c['inst']
print('by file:',', '.join(f"{f} {100*v/tot['samples']:.1f}% (inst {100*byfi[f]/tot['inst']:.1f}%)" for f,v in byfile.most_common()))
top=sorted(agg.items(),key=lambda kv:-kv[1]['samples'])[:int(sys.argv[4]) if len(sys.argv)>4 else 40]
for (f,l),c in top:
    st=sorted(((c[s],s[6:]) for s in stalls),reverse=True)[:3]
    print(f"{f:28} {l:4} samp {100*c['samples']/tot['samples']:5.1f}% inst {100*c['inst']/tot['inst']:5.1f}% wav {c['wav']:>9} ({c['wav_ideal']:>9}) | "+' '.join(f"{n} {100*v/max(1,c['samples']):.0f}%" for v,n in st))
print('--- by shared wavefronts')
for (f,l),c in sorted(agg.items(),key=lambda kv:-kv[1]['wav'])[:16]:
    print(f"{f:28} {l:4} wav {c['wav']/1e6:7.2f}M ideal {c['wav_ideal']/1e6:6.2f}M inst {c['inst']/1e6:6.2f}M samp {100*c['samples']/tot['samples']:5.1f}%")
