#!/usr/bin/env bash
# Call 5: the masked window loop written as warp_rank_masked_windows<1>
# (ms_vd), whose chunked key kernel compiles without the 12-byte spill of
# b880891's (ms_fin), keys and pairs at 33-1024 buckets, 2^28 (twice) and
# 2^25, against each other in the same call; memcheck on the compact split
# subsets; the key split and sort tests; racecheck on the compact subsets.
set -uo pipefail
R=$PWD; O=/tmp/o21c5; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c5.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 64 128 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_fin ms_vd; do
    timeout 30 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_fin ms_vd; do
  timeout 20 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for t in test_multisplit_keys test_multisplit_pairs; do
  timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_memcheck_$t.txt 2>&1; rc=$?
  echo "memcheck $t rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$t.txt | tail -1)" | tee -a $O/summary.txt
done
save
for t in test_multisplit_keys test_multisplit_sort; do
  timeout 80 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
for t in test_multisplit_keys test_multisplit_pairs; do
  timeout 50 compute-sanitizer --tool racecheck --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_racecheck_$t.txt 2>&1; rc=$?
  echo "racecheck $t rc $rc at ${SECONDS}s: $(grep -Eo 'RACECHECK SUMMARY: [0-9]+ hazards displayed' $O/san_racecheck_$t.txt | tail -1)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
