#!/usr/bin/env bash
# Session 25, call 8: the final GPU code (commit.txt), part 1: memcheck and
# racecheck on the pair and key tests; the key, pair, histogram, reduce,
# block and grid tests; every key in one bucket; scripts/bench_multisplit.sh
# (the multisplit and sort tables of docs/BENCHMARKS.md). Binaries: the
# cmake build (sm_90, Release) of f5c0b20, stripped.
set -uo pipefail
R=$PWD; O=/tmp/o25c8; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c8a.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_pairs compact 120 --gtest_filter='*Compact.*:*Temp*'
san memcheck test_multisplit_keys compact 120 --gtest_filter='*Compact.*'
san racecheck test_multisplit_pairs every 150 --gtest_filter='*Compact.EveryCodePath'
san racecheck test_multisplit_keys every 150 --gtest_filter='*Compact.EveryCodePath'
t test_multisplit_keys 80
t test_multisplit_pairs 200
t test_multisplit_histogram 60
t test_multisplit_reduce 60
t test_multisplit_block 60
t test_multisplit_grid 30
timeout 60 $V/build/multisplit/multisplit_bench --n-log2 28 --keys constant --functors delta --methods block auto cub --buckets 40 64 128 256 512 1024 --kinds keys pairs --runs 10 --warmup 3 > $O/ms_28_constant.txt 2>&1; echo "constant rc $? at ${SECONDS}s" | tee -a $O/summary.txt
export SSSP_GIT_COMMIT=$(cut -c1-7 $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 200 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
