#!/usr/bin/env bash
# Call 1: one kernel per post-scan path. ms_base (main), ms_new (whole-tile
# kernel + last-tile kernel, main's thresholds), ms_wall (whole-tile kernel at
# every bucket count, pair thread-counter tiles too). Tests + sanitizers on new.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
tar xJf .carry/c1bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_keys test_multisplit_pairs; do
  timeout 120 $V/$t --gtest_filter='*Compact*:*MillionPlusSeven*' > $O/$t.txt 2>&1; echo "$t rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
timeout 120 $V/test_multisplit_device_count > $O/test_multisplit_device_count.txt 2>&1; echo "device_count rc $? at ${SECONDS}s" | tee -a $O/summary.txt
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/$t --gtest_filter='*Compact*' > $O/san_${tool}_$t.txt 2>&1; echo "$tool $t rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_multisplit_device_count > $O/san_memcheck_dc.txt 2>&1; echo "memcheck device_count rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
A="--n-log2 28 --functors delta --methods block --buckets 2 4 8 16 32 40 64 100 128 256 361 512 768 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new ms_wall; do
    timeout 120 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in sb_base sb_new; do
  timeout 60 $V/$b --n-log2 20 24 28 --radix-bits 7 8 --runs 10 --warmup 3 > $O/${b}.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
