#!/usr/bin/env bash
# Call 6: the GPU tests of the final build (the split, device-count and
# sort tests; call 7 runs the rest), then compute-sanitizer on the subsets
# of scripts/gpu_check.sh that reach the changed post-scans.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
tar xJf .carry/c6bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_api test_multisplit_device_count test_multisplit_sort; do
  timeout 240 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ')" | tee -a $O/summary.txt
  grep -c "SKIPPED" $O/$t.txt >> $O/summary.txt
done
save
sub=(
  "test_multisplit_keys --gtest_filter=MultisplitKeysCompact.*"
  "test_multisplit_pairs --gtest_filter=MultisplitPairsCompact.*"
  "test_multisplit_api --gtest_filter=-MultisplitApi.LargestSizeCheckedOnDevice"
  "test_multisplit_device_count"
  "test_multisplit_sort --gtest_filter=MultisplitSort.InPlace:MultisplitSort.UnalignedPointersAndOwnStream:MultisplitSort.EmptyInputNeedsNoPointers:MultisplitSort.CapturesIntoCudaGraph"
)
for tool in memcheck racecheck synccheck; do
  for s in "${sub[@]}"; do
    read -r exe args <<< "$s"
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $V/$exe $args > $O/san_${tool}_$exe.txt 2>&1; rc=$?
    echo "$tool $exe rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$exe.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
