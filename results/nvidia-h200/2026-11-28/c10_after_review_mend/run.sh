#!/usr/bin/env bash
# Call 10: after the review mend 1947437 (opt_in_shared moved to common.cuh,
# host code only): the split, device-count and sort tests, memcheck on the
# compact pair subset, and multisplit_bench at 2^28 on the bucket counts
# this session moved.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c10.tgz -C $O .; }
tar xJf .carry/c10bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/device.txt
run() { local t=$1; shift; timeout 200 $V/$t "$@" > $O/$t.txt 2>&1; echo "$t rc $? at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c SKIPPED $O/$t.txt)" | tee -a $O/summary.txt; }
run test_multisplit_keys --gtest_filter='*Compact*:*MillionPlusSeven*'
run test_multisplit_pairs --gtest_filter='*Compact*:*MillionPlusSeven*'
run test_multisplit_api
run test_multisplit_device_count
run test_multisplit_sort
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/test_multisplit_pairs --gtest_filter='*Compact*' > $O/san_memcheck_pairs.txt 2>&1
echo "memcheck pairs rc $? $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_pairs.txt)" | tee -a $O/summary.txt
timeout 100 $V/multisplit_bench --n-log2 28 --functors delta --methods block auto cub --buckets 2 8 32 256 512 1024 --kinds keys pairs --runs 10 --warmup 3 > $O/ms_28.txt 2>&1
echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
