#!/usr/bin/env bash
# Call 4, the final code (b880891: masked windows in a loop of their own,
# rank and highest peer from one shift each): multisplit_bench block and
# CUB against main (ms_main, 8e7fd1f) in the same call, keys and pairs,
# 33-1024 buckets, delta and identity, 2^28 (twice) and 2^25; memcheck and
# racecheck on the compact split subsets; the split, sort, API, block,
# device-count, grid and SSSP random-graph tests; scripts/bench_multisplit.sh
# for the multisplit and sort tables.
set -uo pipefail
R=$PWD; O=/tmp/o21c4; rm -rf $O; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
save() { tar czf $OUT/c4.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c4.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 40 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_main ms_fin; do
    if [ $b = ms_fin ]; then B=$V/build/multisplit/multisplit_bench; else B=$V/$b; fi
    timeout 60 $B --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
timeout 40 $V/ms_main --n-log2 25 $A > $O/ms_main_25_1.txt 2>&1; echo "ms_main 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
timeout 40 $V/build/multisplit/multisplit_bench --n-log2 25 $A > $O/ms_fin_25_1.txt 2>&1; echo "ms_fin 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_${tool}_$t.txt 2>&1; rc=$?
    echo "$tool $t rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$t.txt | tail -1)" | tee -a $O/summary.txt
    save
  done
done
for t in test_multisplit_block test_multisplit_grid test_multisplit_device_count test_multisplit_api test_multisplit_sort test_sssp_random_graphs test_multisplit_keys test_multisplit_pairs; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 150 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
