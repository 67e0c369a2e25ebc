#!/usr/bin/env bash
# Call 5: the candidate (ms_c: multiply-add divide, one-min clamp, one-IMAD
# counters in the pre-scan and the thread-counter tile, PRMT packing,
# branch-free slot loop, pre-scan grid of three blocks per SM) against
# ms_new (6fde04c): split, API and small-n GPU tests, memcheck and racecheck
# on their compact subsets, multisplit_bench, and ncu of pairs at 100-256
# buckets (calls 3-4 saw pairs at 128 lose 17% and at 256 gain 18-21%).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
tar xJf .carry/c5bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active,launch__registers_per_thread,launch__grid_size"
for b in ms_new ms_c; do
  timeout 120 ncu -k 'regex:postscan|counting' $M --csv $V/$b --n-log2 26 --buckets 100 128 256 --kinds pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_pairs_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
A="--functors delta identity --methods block auto cub --buckets 2 4 8 16 32 40 64 100 128 256 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_new ms_c; do
    timeout 150 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_c ms_new; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_api test_multisplit_small_n; do
  timeout 240 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
done
save
sub=(
  "test_multisplit_keys --gtest_filter=MultisplitKeysCompact.*"
  "test_multisplit_pairs --gtest_filter=MultisplitPairsCompact.*"
  "test_multisplit_api --gtest_filter=-MultisplitApi.LargestSizeCheckedOnDevice"
)
for tool in memcheck racecheck; do
  for s in "${sub[@]}"; do
    read -r exe args <<< "$s"
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 $V/$exe $args > $O/san_${tool}_$exe.txt 2>&1; rc=$?
    echo "$tool $exe rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$exe.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
