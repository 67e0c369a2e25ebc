import csv,sys,re,collections
for f in sys.argv[1:]:
    rows=[r for r in csv.reader(open(f)) if len(r)>10 and r[0].isdigit()]
    d=collections.OrderedDict()
    for r in rows:
        k=r[4]; k='tile_count' if 'tile_counting' in k else ('cub_hist' if 'Histogram' in k else k[:30])
        d.setdefault((r[0],k),{})[r[12]]=r[14].replace(',','')
    out=collections.defaultdict(list)
    for (i,k),m in d.items(): out[k].append(m)
    s=f.replace('ncu_','').replace('.csv','')
    for k,ms in out.items():
        def g(n): return [float(x[n]) for x in ms if n in x]
        t=g('gpu__time_duration.sum'); rd=g('dram__bytes_read.sum'); wr=g('dram__bytes_write.sum'); ins=g('smsp__inst_executed.sum')
        print(f"{s:34} {k:10} us {' '.join('%.0f'%(x/1e3) for x in t):14} rdMB {' '.join('%.0f'%(x/1e6) for x in rd):10} wrMB {' '.join('%.0f'%(x/1e6) for x in wr):8} inst(M) {ins[0]/1e6:.0f} regs {ms[0].get('launch__registers_per_thread')} warps% {ms[0].get('sm__warps_active.avg.pct_of_peak_sustained_active')} issue% {ms[0].get('smsp__issue_active.avg.pct_of_peak_sustained_active')}")
