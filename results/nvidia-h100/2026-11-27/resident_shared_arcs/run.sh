#!/usr/bin/env bash
# Device run 1: every GPU test (ctest -L gpu), the app's end-to-end tests with
# a GPU, the resident block with its arcs in shared memory against L2, the
# contracted roads, sanitizers on the new layout.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run1.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/allbins.tar.xz -C "$R"
D=/work/shared/datasets/road
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
echo "unpacked at ${SECONDS}s"
echo "=== gpu tests"
timeout 330 ctest --test-dir /work/main/build -L gpu -j4 --timeout 300 > $O/ctest_gpu.log 2>&1; echo "rc $? at ${SECONDS}s"
grep -E "tests passed|tests failed|Failed|\*\*\*|Not Run|Timeout" $O/ctest_gpu.log | head -20
save
for t in test_app_end_to_end test_app_batch_end_to_end test_app_hostile; do
  timeout 120 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
done
echo "at ${SECONDS}s"; save
echo "=== shared arcs vs L2"
timeout 60 build/src/regime_bench --runs 9 --strategy near-far --configs default,resident-global-arcs \
  $D/rome99.gr core:$D/andorra_osm.mtx core:$D/rome99.gr core:$D/luxembourg_osm.mtx > $O/arcs.md 2>&1; echo "rc $?"
cut -d'|' -f3,5,6,10,12,15,16 $O/arcs.md | grep -v "^ *$" | grep -v -- "---"
timeout 60 build/src/regime_bench --runs 9 --strategy near-far --resident-local-steps 8,16,32,64 \
  $D/rome99.gr core:$D/andorra_osm.mtx > $O/arcs_steps.md 2>&1; echo "rc $?"
cut -d'|' -f3,5,6,10,12,15,16 $O/arcs_steps.md | grep -v "^ *$" | grep -v -- "---"
save
echo "=== contracted roads at ${SECONDS}s"
timeout 90 build/src/contraction_bench --runs 5 --sources 4 --seed 1 --json $O/roads.json \
  $D/DE.gr $D/luxembourg_osm.mtx $D/andorra_osm.mtx $D/amsterdam-roads.mtx $D/rome99.gr > $O/roads.md 2>&1
echo "rc $?"; grep -E "^## |gpu near-far|cpu delta|best contracted" $O/roads.md | cut -c1-200
save
echo "=== sanitizers at ${SECONDS}s"
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 build/src/regime_bench --runs 1 --strategy near-far \
    --resident-local-steps 0,3,64 $D/rome99.gr core:$D/andorra_osm.mtx > $O/san_$t.log 2>&1
  echo "$t rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|shared arcs' $O/san_$t.log | sort | uniq -c | tr '\n' ' ')"
done
echo "done at ${SECONDS}s"; save
