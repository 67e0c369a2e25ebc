#!/usr/bin/env bash
# Call 4: delta_buckets' divide as PTX's multiply-add pair through the
# carry (ms_d: no spare add after the IMAD.HI) against main (ms_h,
# 327b66d), multisplit_bench block, Auto and CUB, delta buckets, 2-1024
# buckets, keys and pairs; the split and API tests (the new
# DivisionOnDeviceIsExact), memcheck on the compact subsets and the new test.
set -uo pipefail
R=$PWD; O=/tmp/o20c4; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c4.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 60 $V/test_multisplit_api --gtest_filter='MultisplitFunctors.*' > $O/test_api_functors.txt 2>&1
echo "api functors rc $? at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/test_api_functors.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/test_api_functors.txt)" | tee -a $O/summary.txt
A="--functors delta --methods block auto cub --buckets 2 3 4 8 16 32 40 64 100 128 200 256 361 512 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_h ms_d; do
    timeout 120 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_h ms_d; do
  timeout 60 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for s in "test_multisplit_keys --gtest_filter=*Compact.*" "test_multisplit_pairs --gtest_filter=*Compact.*" "test_multisplit_api --gtest_filter=MultisplitFunctors.DivisionOnDeviceIsExact"; do
  read -r exe args <<< "$s"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$exe $args > $O/san_memcheck_$exe.txt 2>&1; rc=$?
  echo "memcheck $exe rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$exe.txt | tail -1)" | tee -a $O/summary.txt
done
save
for t in test_multisplit_api test_multisplit_keys test_multisplit_pairs; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
