#!/usr/bin/env bash
# Call 1: the thread-counter tile counting each row in one register (ms_r8:
# bytes up to 4 buckets, nibbles up to 8; ms_r4: bytes up to 4 only)
# against main (ms_base), multisplit_bench block and CUB at 3-32 buckets,
# keys and pairs; the split tests with the new RegisterCounterEdges cases;
# memcheck and racecheck on the compact subsets.
set -uo pipefail
R=$PWD; O=/tmp/o20c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_keys test_multisplit_pairs; do
  timeout 200 $V/$t --gtest_filter='*Compact.*' > $O/$t.compact.txt 2>&1; rc=$?
  echo "$t compact rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.compact.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.compact.txt)" | tee -a $O/summary.txt
done
save
A="--functors delta identity --methods block cub --buckets 3 4 5 8 16 32 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_r8 ms_r4; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_base ms_r8 ms_r4; do
  timeout 60 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $V/$t --gtest_filter='*Compact.RegisterCounterEdges' > $O/san_${tool}_$t.txt 2>&1; rc=$?
    echo "$tool $t rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$t.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
for t in test_multisplit_keys test_multisplit_pairs; do
  timeout 150 $V/$t --gtest_filter='-*Compact.*' > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
