#!/usr/bin/env bash
# Call 1: masked ranking with each warp count beside its bucket's mask
# (warp_rank_masked_slots: one address, one 8-byte load and store per
# window, the window kind chosen once per sub-tile), and pair tiles in order
# only from 128 buckets and not in the whole-tile kernel. multisplit_bench
# block and CUB, keys and pairs, 33-1024 buckets, delta and identity, 2^28
# (twice), 2^27, 2^25: main (ms_main, 8e7fd1f), the change (ms_a), the
# change with pairs in order from 100 (ms_b), the change with keys in order
# from 128 (ms_k); sort_bench main/new; the split, sort, block and grid
# tests; memcheck and racecheck on
# the compact split subsets; ncu of the key post-scan at 256 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o21c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 40 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_main ms_a ms_b ms_k; do
    timeout 60 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for n in 27 25; do
  for b in ms_main ms_a ms_b ms_k; do
    timeout 40 $V/$b --n-log2 $n $A > $O/${b}_${n}_1.txt 2>&1; echo "$b $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
save
for b in sort_main sort_a; do
  timeout 60 $V/$b > $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
timeout 60 ncu --kernel-name regex:block_postscan --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  $V/ms_a --n-log2 26 --buckets 256 --kinds keys --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_a_keys256.txt 2>&1
echo "ncu rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_sort test_multisplit_block test_multisplit_grid; do
  timeout 120 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_${tool}_$t.txt 2>&1; rc=$?
    echo "$tool $t rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$t.txt | tail -1)" | tee -a $O/summary.txt
    save
  done
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
