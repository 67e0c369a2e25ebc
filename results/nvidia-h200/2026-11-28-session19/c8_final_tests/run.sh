#!/usr/bin/env bash
# Call 8: the final build: the rest of the GPU tests (API, sort, histogram,
# reduce, small-n, block and grid collectives, the SSSP engine), memcheck on
# the API, sort, histogram and small-n subsets.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
tar xJf .carry/c8bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_api test_multisplit_sort test_multisplit_histogram test_multisplit_reduce test_multisplit_small_n \
         test_multisplit_block test_multisplit_grid test_sssp_engine; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
done
save
sub=(
  "test_multisplit_api --gtest_filter=-MultisplitApi.LargestSizeCheckedOnDevice"
  "test_multisplit_sort --gtest_filter=MultisplitSort.InPlace:MultisplitSort.UnalignedPointersAndOwnStream:MultisplitSort.EmptyInputNeedsNoPointers:MultisplitSort.CapturesIntoCudaGraph"
  "test_multisplit_histogram --gtest_filter=MultisplitHistogram.BothCountingTuningsAgree:MultisplitHistogram.UnalignedInputOwnStreamAndGraphCapture"
  "test_multisplit_small_n"
)
for s in "${sub[@]}"; do
  read -r exe args <<< "$s"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$exe $args > $O/san_memcheck_$exe.txt 2>&1; rc=$?
  echo "memcheck $exe rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$exe.txt | tail -1)" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
