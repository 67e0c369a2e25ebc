#!/usr/bin/env bash
# Call 2: register counting for keys only (ms_new; pairs compile as on
# main) against main (ms_base), and a variant with thread-counter tiles up
# to 64 buckets for keys and pairs (ms_tc64): multisplit_bench DMS, BMS,
# Auto and CUB at 2-64 buckets; the split tests, the SSSP random-graph
# tests (bucket-multisplit splits through split_keys); sanitizers on the
# new cases.
set -uo pipefail
R=$PWD; O=/tmp/o20c2; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c2.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods direct block auto cub --buckets 2 3 4 8 16 32 40 64 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new ms_tc64; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_base ms_new ms_tc64; do
  timeout 60 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for tool in memcheck racecheck; do
  for t in test_multisplit_keys test_multisplit_pairs; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $V/$t --gtest_filter='*Compact.*' > $O/san_${tool}_$t.txt 2>&1; rc=$?
    echo "$tool $t rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$t.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
for t in test_multisplit_keys test_multisplit_pairs test_sssp_random_graphs; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
