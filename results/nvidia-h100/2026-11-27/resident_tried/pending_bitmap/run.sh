#!/usr/bin/env bash
# Device run 6: the resident block queues a vertex only when no copy of it
# waits already (pending bitmap; block queues of 1536) (new) against the
# commit before (old), alternating binaries; tests, sanitizers, roads, stress.
set -uo pipefail
O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run6.tgz -C $O .; }
mkdir -p /tmp/w && tar xJf .carry/datasets.tar.xz -C /tmp/w && tar xJf .carry/ab.tar.xz -C /tmp/w
D=/tmp/w/datasets/road; A=/tmp/w/ab
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
G="core:$D/DE.gr core:$D/luxembourg_osm.mtx core:$D/amsterdam-roads.mtx $D/DE.gr $D/andorra_osm.mtx $D/rome99.gr core:$D/andorra_osm.mtx"
for rep in 1 2; do for b in old new; do
  timeout 60 $A/regime_$b --runs 9 --strategy near-far $G > $O/${b}_$rep.md 2>&1; echo "$b $rep rc $?"
  cut -d'|' -f3,5,6,10,12,15,16 $O/${b}_$rep.md | grep -E "resident|default" | tr '\n' ';'; echo
done; done
save
timeout 120 $A/test_rg --gtest_filter='*Resident*:*Star*:*Tiny*:*Zero*:*Disconnected*' > $O/tests.log 2>&1; echo "tests rc $?: $(grep -E '^\[  (PASSED|FAILED) ' $O/tests.log | tr '\n' ' ')"
save
timeout 60 $A/contraction_new --runs 5 --sources 4 --seed 1 $D/DE.gr $D/luxembourg_osm.mtx $D/amsterdam-roads.mtx $D/andorra_osm.mtx $D/rome99.gr > $O/roads_new.md 2>&1
echo "rc $?"; grep -E "gpu near-far|cpu delta" $O/roads_new.md | cut -c1-100
save
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $A/regime_new --runs 1 --strategy near-far \
    --resident-local-steps 0,3 core:$D/andorra_osm.mtx $D/rome99.gr core:$D/luxembourg_osm.mtx > $O/san_$t.log 2>&1
  echo "$t rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_$t.log | tr '\n' ' ')"
done
save
med() { cut -d'|' -f5 $1 | grep -E "^ *[0-9]" | head -1 | tr -d ' '; }
o=$(med $O/old_2.md); n=$(med $O/new_2.md); echo "DE core old $o new $n"
if ! awk -v o="$o" -v n="$n" 'BEGIN{exit !(n < o)}'; then echo "new not faster: no stress"; exit 0; fi
left=$((560 - SECONDS)); echo "stress with ${left}s left"
timeout $left $A/stress --graphs 1000 --seed 34001 > $O/stress.log 2>&1; echo "rc $?"; tail -2 $O/stress.log
echo "done at ${SECONDS}s"; save
