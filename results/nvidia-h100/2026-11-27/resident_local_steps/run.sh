#!/usr/bin/env bash
# Device run 2: the resident block's warp-local steps: tests, sweep,
# contracted roads with and without them, sanitizers, stress.
set -uo pipefail
cd "$(dirname "$0")"
O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run2.tgz -C $O .; }
mkdir -p w && cd w
tar xJf ../bins.tar.xz && tar xJf ../data.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
echo "=== tests"
timeout 90 ./test_sssp_random_graphs > $O/tests.log 2>&1; echo "rc $?"; grep -E "^\[  (PASSED|FAILED) |FAILED|OK \] SsspRandomGraphs.Resident" $O/tests.log | head
save
echo "=== sweep"
timeout 60 ./regime_bench --runs 7 --strategy near-far --resident-local-steps 0,2,4,8,16,32,64,256 \
  core:data/DE.gr core:data/luxembourg_osm.mtx core:data/amsterdam-roads.mtx core:data/andorra_osm.mtx \
  data/rome99.gr data/DE.gr data/andorra_osm.mtx > $O/sweep.md 2>&1
cut -d'|' -f3,5,6,10,12,15,16 $O/sweep.md | grep -v "^ *$" | grep -v -- "---"
save
echo "=== contracted roads"
R="data/DE.gr data/luxembourg_osm.mtx data/andorra_osm.mtx data/amsterdam-roads.mtx data/rome99.gr"
for s in 0 -1; do
  timeout 60 ./contraction_bench --runs 5 --sources 4 --seed 1 --resident-local-steps $s --json $O/roads_$s.json $R > $O/roads_$s.md 2>&1
  echo "rc $?"; grep -E "^## |gpu near-far|cpu delta|best contracted" $O/roads_$s.md | cut -c1-200
done
save
echo "=== sanitizers"
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 ./regime_bench --runs 1 --strategy near-far \
    --resident-local-steps 0,3,64 core:data/andorra_osm.mtx data/rome99.gr > $O/san_$t.log 2>&1
  echo "$t rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_$t.log | tr '\n' ' ')"
done
save
echo "=== stress"
timeout 150 ./sssp_stress --graphs 1000 --seed 32001 > $O/stress.log 2>&1; echo "rc $?"; tail -3 $O/stress.log
save
