#!/usr/bin/env bash
# Session 22, call 2: main at 29ca538 (library code of 13fea29): the GPU
# tests not run at 13fea29 last session (pairs, API with 29ca538's test
# change, block, device count, grid, small n, SSSP random graphs, engine,
# batch) and the key and sort tests again; memcheck on the API test and the
# compact split subsets, racecheck on the compact subsets.
set -uo pipefail
R=$PWD; O=/tmp/o22c2; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
[ -e /work/main ] || { mkdir -p /work && ln -s $R /work/main; }
V=$R/var; mkdir -p $V; tar xJf .carry/c2.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 lim=$3; shift 3
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_$name.txt 2>&1; rc=$?
  echo "$tool $name rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_$name.txt | tail -1)" | tee -a $O/summary.txt; save; }
t test_multisplit_api 60
t test_multisplit_block 30
t test_multisplit_grid 30
t test_multisplit_device_count 60
san memcheck test_multisplit_api 90
san memcheck test_multisplit_keys 40 --gtest_filter='*Compact.*'
san memcheck test_multisplit_pairs 40 --gtest_filter='*Compact.*'
t test_sssp_random_graphs 60
t test_sssp_engine 90
t test_multisplit_small_n 90
san racecheck test_multisplit_keys 60 --gtest_filter='*Compact.*'
san racecheck test_multisplit_pairs 60 --gtest_filter='*Compact.*'
t test_multisplit_pairs 200
t test_multisplit_keys 90
t test_multisplit_sort 90
t test_sssp_batch 120
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
