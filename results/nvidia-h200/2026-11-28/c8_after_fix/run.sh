#!/usr/bin/env bash
# Call 8: after 7cc7eed (value_bytes __host__ __device__, fewer instantiations):
# the split, device-count, sort, small-n and block tests again, memcheck on
# the compact pair and key subsets.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
tar xJf .carry/c8bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/device.txt
run() { local t=$1; shift; timeout 200 $V/$t "$@" > $O/$t.txt 2>&1; echo "$t rc $? at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c SKIPPED $O/$t.txt)" | tee -a $O/summary.txt; }
run test_multisplit_keys --gtest_filter='*Compact*:*MillionPlusSeven*'
run test_multisplit_pairs --gtest_filter='*Compact*:*MillionPlusSeven*'
run test_multisplit_api
run test_multisplit_device_count
run test_multisplit_sort
run test_multisplit_small_n
run test_multisplit_block
for t in test_multisplit_pairs test_multisplit_keys; do
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$t --gtest_filter='*Compact*' > $O/san_memcheck_$t.txt 2>&1
  echo "memcheck $t rc $? $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$t.txt)" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
