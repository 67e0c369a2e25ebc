#!/usr/bin/env bash
# Session 23, call 7: the pair sort at ed4a228 (wide_pair_passes cached:
# build/multisplit/sort_bench) against d63b8b4 (sort_d63) and main before
# the session (sort_main), 2^20-2^28; the sort tests and memcheck on their
# capture and size tests; scripts/bench_multisplit.sh at ed4a228.
set -uo pipefail
R=$PWD; O=/tmp/o23c7; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c7.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for r in 1 2; do for b in sort_main sort_d63 sort_fin; do B=$V/$b; [ $b = sort_fin ] && B=$V/build/multisplit/sort_bench
  timeout 120 $B --n-log2 20 21 22 23 24 25 26 27 28 --radix-bits 7 8 --kinds pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1
  echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save; done; done
timeout 90 $V/test_multisplit_sort > $O/test_multisplit_sort.txt 2>&1; echo "test_multisplit_sort rc $? at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/test_multisplit_sort.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/test_multisplit_sort.txt)" | tee -a $O/summary.txt
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 $V/test_multisplit_sort --gtest_filter='*Capture*:*TempSize*' > $O/san_memcheck_sort.txt 2>&1; echo "memcheck sort rc $? at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_sort.txt)" | tee -a $O/summary.txt; save
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 300 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
