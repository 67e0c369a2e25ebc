#!/usr/bin/env bash
# Call 7: the sort's digit width by n (r = 8 up to 2^25 keys / 2^24 pairs).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
tar xJf .carry/c7bins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 300 var/test_multisplit_sort > $O/test_multisplit_sort.log 2>&1; echo "test rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/test_multisplit_sort.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]" $O/test_multisplit_sort.log | head; save
timeout 200 var/sort_new --n-log2 20 22 24 25 26 28 --radix-bits 7 8 --runs 10 > $O/sort_new.txt 2>&1; echo "sort new rc $? at ${SECONDS}s"; save
timeout 200 var/sort_prev --n-log2 20 22 24 25 26 28 --radix-bits 7 --runs 10 > $O/sort_prev.txt 2>&1; echo "sort prev rc $? at ${SECONDS}s"; save
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 var/sort_new --n-log2 16 20 --radix-bits 8 --runs 1 --warmup 0 > $O/san_memcheck.txt 2>&1; echo "memcheck rc $?"; tail -1 $O/san_memcheck.txt
echo "done at ${SECONDS}s"; save
