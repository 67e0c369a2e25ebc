#!/usr/bin/env bash
# Session 25, call 9: the final GPU code (commit.txt), part 2: memcheck on
# the device-count subset; the API, device-count, small-n and sort tests.
set -uo pipefail
R=$PWD; O=/tmp/o25c9; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c8b.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_device_count small 100 --gtest_filter='*SmallMaxItems:*ZeroMaxItems*:*GraphCaptureReplays*'
t test_multisplit_api 60
t test_multisplit_device_count 90
t test_multisplit_small_n 60
t test_multisplit_sort 100
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
