#!/usr/bin/env bash
# Call 3: masked ranking (counters and masks as on main) with the window
# kind chosen once per sub-tile, rank and highest peer from one shift each,
# and each warp's sub-tile ranked as two independent chains of windows
# (keys up to 256 buckets, pairs up to 128). multisplit_bench block and
# CUB, keys and pairs, 33-1024 buckets, delta and identity, 2^28 (twice)
# and 2^25: main (ms_main, 8e7fd1f), the change (ms_c), the change with one
# chain (ms_c1), the change with pairs in two chains up to 200 (ms_cp);
# sort_bench main/new; ncu of the key post-scan at 256 buckets; memcheck
# and racecheck on the compact split subsets; the split, sort, API, block,
# device-count, grid and SSSP random-graph tests.
set -uo pipefail
R=$PWD; O=/tmp/o21c3; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c3.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 40 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_main ms_c ms_c1 ms_cp; do
    timeout 60 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_main ms_c ms_c1 ms_cp; do
  timeout 40 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in sort_main sort_c; do
  timeout 60 $V/$b > $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
timeout 60 ncu --kernel-name regex:block_postscan --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  $V/ms_c --n-log2 26 --buckets 256 --kinds keys --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_ms_c_keys256.txt 2>&1
echo "ncu rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
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
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
