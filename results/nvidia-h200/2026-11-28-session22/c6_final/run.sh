#!/usr/bin/env bash
# Session 22, call 6: 2510d88 (tile-counting groups of 8 / 16 tiles) against
# main before it (29ca538, ms_main): multisplit_bench 64-1024 buckets at
# 2^28 twice, 2^26 and 2^25 once; sort_bench at 7 and 8 bits; memcheck and
# racecheck on the compact split subsets; the split, sort, API,
# device-count, grid and SSSP tests; scripts/bench_multisplit.sh (multisplit
# and sort tables).
set -uo pipefail
R=$PWD; O=/tmp/o22c6; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; tar xJf .carry/c6.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3; local B=$V/$b; [ $b = ms_fin ] && B=$V/build/multisplit/multisplit_bench
  timeout 40 $B --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do run_ms ms_main 28 $r; run_ms ms_fin 28 $r; done
for n in 26 25; do run_ms ms_main $n 1; run_ms ms_fin $n 1; done
save
timeout 40 $V/sort_main --n-log2 28 25 --radix-bits 7 8 --kinds keys pairs --runs 10 --warmup 3 > $O/sort_main.txt 2>&1; echo "sort_main rc $? at ${SECONDS}s" | tee -a $O/summary.txt
timeout 40 $V/build/multisplit/sort_bench --n-log2 28 25 --radix-bits 7 8 --kinds keys pairs --runs 10 --warmup 3 > $O/sort_fin.txt 2>&1; echo "sort_fin rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 lim=$3; shift 3
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_$name.txt 2>&1; rc=$?
  echo "$tool $name rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_$name.txt | tail -1)" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_keys 40 --gtest_filter='*Compact.*'
san memcheck test_multisplit_pairs 40 --gtest_filter='*Compact.*'
t test_multisplit_api 30
t test_multisplit_grid 30
t test_multisplit_device_count 40
t test_sssp_random_graphs 40
t test_sssp_engine 30
t test_sssp_batch 30
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 150 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
t test_multisplit_keys 80
t test_multisplit_sort 60
san racecheck test_multisplit_keys 60 --gtest_filter='*Compact.*'
san racecheck test_multisplit_pairs 60 --gtest_filter='*Compact.*'
t test_multisplit_pairs 170
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
