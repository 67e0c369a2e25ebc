#!/usr/bin/env bash
# Session 23, call 5: the GPU tests at d63b8b4 (wide pair tile, sort rule)
# and the sanitizers on the compact pair subsets (memcheck, racecheck; the
# wide-tile subset last).
set -uo pipefail
R=$PWD; O=/tmp/o23c5; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c5.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_pairs compact 120 --gtest_filter='*Compact.*:*Temp*'
t test_multisplit_pairs 200
t test_multisplit_device_count 90
t test_multisplit_sort 80
t test_multisplit_api 30
t test_multisplit_grid 30
t test_multisplit_small_n 60
t test_multisplit_keys 80
t test_sssp_random_graphs 40
t test_sssp_engine 30
t test_sssp_batch 30
san racecheck test_multisplit_pairs every 90 --gtest_filter='*Compact.EveryCodePath'
san memcheck test_multisplit_sort capture 60 --gtest_filter='*Capture*:*TempSize*'
san racecheck test_multisplit_pairs wide 240 --gtest_filter='*Compact.WidePairTile'
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
