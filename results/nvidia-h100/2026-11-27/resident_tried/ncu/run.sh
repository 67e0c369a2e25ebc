#!/usr/bin/env bash
# Device run 5: where a resident step's time goes (ncu stall sampling) on the
# luxembourg and DE cores.
set -uo pipefail
O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run5.tgz -C $O .; }
mkdir -p /tmp/w && tar xJf .carry/datasets.tar.xz -C /tmp/w && tar xJf .carry/ab.tar.xz -C /tmp/w
D=/tmp/w/datasets/road; A=/tmp/w/ab
for g in luxembourg_osm.mtx DE.gr; do
  timeout 150 ncu -k regex:resident_near_far --launch-skip 3 --launch-count 1 --set full --import-source yes \
    -o $O/prof_$g $A/regime_old --runs 3 --strategy near-far core:$D/$g > $O/ncu_$g.log 2>&1; echo "$g rc $? at ${SECONDS}s"
  ncu -i $O/prof_$g.ncu-rep --page details > $O/details_$g.txt 2>&1
  ncu -i $O/prof_$g.ncu-rep --page source --csv --print-source sass > $O/sass_$g.csv 2>&1
  ncu -i $O/prof_$g.ncu-rep --page source --csv --print-source cuda > $O/src_$g.csv 2>&1
  ls -la $O; save
done
grep -iE "stall|warp cycles per|issued|Duration|L1/TEX Hit|L2 Hit" $O/details_luxembourg_osm.mtx.txt | head -40
