import sys,subprocess,re
# res.py OBJ [filter]: block_postscan kernels' registers and stack
CO='/tmp/whl/x/nvidia/cu13/bin/cuobjdump'
out=subprocess.run([CO,'--dump-resource-usage',sys.argv[1]],capture_output=True,text=True).stdout
dem=subprocess.run(['c++filt'],input=out,capture_output=True,text=True).stdout.splitlines()
flt=sys.argv[2] if len(sys.argv)>2 else 'block_postscan'
res=[]
for i,l in enumerate(dem):
    if 'Function' in l and flt in l:
        m=re.search(r'BlockTileSplit<(\d+), (\d+), unsigned int, ([^,]+), multisplit::(\w+)_buckets<unsigned int> >, (true|false), \(multisplit::detail::PostscanTiles\)(\d), (true|false)',l)
        r=re.search(r'REG:(\d+) STACK:(\d+)',dem[i+1])
        if m: res.append(f"{m.group(1)}x{m.group(2)} {'pairs' if 'NullValue' not in m.group(3) else 'keys'} {m.group(4)[:5]} {'int' if m.group(5)=='true' else 'chk'} t{m.group(6)} {'full' if m.group(7)=='true' else '----'}: R{r.group(1)} S{r.group(2)}")
print('\n'.join(sorted(res)))
