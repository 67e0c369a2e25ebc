#!/usr/bin/env bash
# Call 6: the final build (a55baf2): the sort, histogram, reduce and SSSP
# GPU tests (engine, random graphs with every strategy), memcheck
# on the sort and histogram subsets.
set -uo pipefail
R=$PWD; O=/tmp/o20c6; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
tar xJf .carry/c6.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_sort test_multisplit_histogram test_multisplit_reduce test_sssp_engine test_sssp_random_graphs; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
sub=(
  "test_multisplit_sort --gtest_filter=MultisplitSort.InPlace:MultisplitSort.UnalignedPointersAndOwnStream:MultisplitSort.EmptyInputNeedsNoPointers:MultisplitSort.CapturesIntoCudaGraph"
  "test_multisplit_histogram --gtest_filter=MultisplitHistogram.BothCountingTuningsAgree:MultisplitHistogram.UnalignedInputOwnStreamAndGraphCapture"
)
for s in "${sub[@]}"; do
  read -r exe args <<< "$s"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$exe $args > $O/san_memcheck_$exe.txt 2>&1; rc=$?
  echo "memcheck $exe rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$exe.txt | tail -1)" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
