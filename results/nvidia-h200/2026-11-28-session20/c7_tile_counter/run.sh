#!/usr/bin/env bash
# Call 7: the interleaved post-scan taking tiles in order from a counter
# (ms_t) instead of round-robin, against main (ms_fin, a55baf2):
# multisplit_bench block and CUB at 100-1024 buckets (the interleaved
# range), keys and pairs, delta and identity, 2^28, 2^27 and 2^25; the
# split, device-count and sort tests with it; memcheck and racecheck on the
# compact split subsets.
set -uo pipefail
R=$PWD; O=/tmp/o20c7; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c7.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_fin ms_t; do
    timeout 120 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for n in 27 25; do
  for b in ms_fin ms_t; do
    timeout 60 $V/$b --n-log2 $n $A > $O/${b}_${n}_1.txt 2>&1; echo "$b $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
save
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_${tool}_$t.txt 2>&1; rc=$?
    echo "$tool $t rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$t.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
for t in test_multisplit_device_count test_multisplit_sort test_multisplit_keys test_multisplit_pairs; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
