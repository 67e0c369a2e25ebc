#!/usr/bin/env bash
# Device run 4: prefetching a queued vertex's arcs into L1 (new) against the
# commit before (old), alternating binaries; the contracted roads with it.
set -uo pipefail
O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run4.tgz -C $O .; }
mkdir -p /tmp/w && tar xJf .carry/datasets.tar.xz -C /tmp/w && tar xJf .carry/ab.tar.xz -C /tmp/w
D=/tmp/w/datasets/road; A=/tmp/w/ab
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
G="core:$D/DE.gr core:$D/luxembourg_osm.mtx core:$D/amsterdam-roads.mtx $D/DE.gr $D/andorra_osm.mtx $D/rome99.gr"
for rep in 1 2; do for b in old new; do
  timeout 60 $A/regime_$b --runs 9 --strategy near-far $G > $O/${b}_$rep.md 2>&1; echo "$b $rep rc $?"
  grep -E "^## " $O/${b}_$rep.md | cut -c1-40 | tr '\n' ' '; echo
  cut -d'|' -f5,6,10,12,15 $O/${b}_$rep.md | grep -E "^ *[0-9]" | tr '\n' ';'; echo
done; done
save
timeout 60 $A/contraction_new --runs 5 --sources 4 --seed 1 $D/DE.gr $D/luxembourg_osm.mtx $D/amsterdam-roads.mtx $D/andorra_osm.mtx > $O/roads_new.md 2>&1
echo "rc $?"; grep -E "^## |gpu near-far|cpu delta" $O/roads_new.md | cut -c1-120
for t in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $A/regime_new --runs 1 --strategy near-far \
    --resident-local-steps 0,3 core:$D/andorra_osm.mtx core:$D/DE.gr > $O/san_$t.log 2>&1
  echo "$t rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_$t.log | tr '\n' ' ')"
done
echo "done at ${SECONDS}s"; save
