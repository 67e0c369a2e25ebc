#!/usr/bin/env bash
# Session 25, calls 10-11: the final GPU code (commit.txt), part 3: the
# SSSP GPU tests (their bucketing strategies split through the multisplit
# library); call 11 (part b): test_sssp_datasets on the shared real graphs
# carried in datasets/.
P=${1:-a}
set -uo pipefail
R=$PWD; O=/tmp/o25c10$P; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c10$P.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c10$P.tar.xz -C $V
export SSSP_DATASETS=$V/datasets
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
if [ "$P" = a ]; then
  t test_sssp_random_graphs 120
  t test_sssp_engine 60
  t test_sssp_batch 60
  t test_sssp_vertex_order 60
  t test_sssp_contraction 60
  t test_sssp_auto_strategy 30
  t test_cluster_atomics 30
else
  t test_sssp_datasets 240
fi
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
