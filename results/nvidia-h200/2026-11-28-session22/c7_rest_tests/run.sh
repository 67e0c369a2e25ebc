#!/usr/bin/env bash
# Session 22, call 7: the GPU tests not run at 2510d88 in call 6, built at
# 1ae3ab2 (block, small n, histogram, reduce, SSSP vertex order and
# contraction), and memcheck on the block and small-n tests.
set -uo pipefail
R=$PWD; O=/tmp/o22c7; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; tar xJf .carry/c7.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 lim=$3; shift 3
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_$name.txt 2>&1; rc=$?
  echo "$tool $name rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_$name.txt | tail -1)" | tee -a $O/summary.txt; save; }
t test_multisplit_block 30
t test_multisplit_small_n 90
t test_multisplit_histogram 60
t test_multisplit_reduce 60
t test_sssp_vertex_order 60
t test_sssp_contraction 60
san memcheck test_multisplit_block 60
san memcheck test_multisplit_small_n 90
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
