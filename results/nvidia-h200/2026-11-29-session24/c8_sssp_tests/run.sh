#!/usr/bin/env bash
# Session 24, call 8: the SSSP GPU tests (their bucketing strategies split
# through the multisplit library) at the final commit (commit.txt).
set -uo pipefail
R=$PWD; O=/tmp/o24c8; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c8.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
t test_sssp_random_graphs 60
t test_sssp_engine 30
t test_sssp_batch 30
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
