#!/usr/bin/env bash
# Session 25, call 12: the review mend 2aa2e77 (ChunkLayout::make and
# one_per_tile through one ChunkLayout::cut; host planning code, kernels'
# SASS unchanged): the device-count, pair, key and API tests built from it,
# and multisplit_bench / sort_bench built from it (every output checked
# against RB-sort's or CUB's) over small and large n.
set -uo pipefail
R=$PWD; O=/tmp/o25c12; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c12.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c12.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
t test_multisplit_device_count 90
t test_multisplit_api 60
t test_multisplit_keys 80
t test_multisplit_pairs 200
timeout 220 $V/ms_mend --n-log2 10 14 18 21 25 28 > $O/ms_mend.txt 2>&1; echo "ms_mend rc $? at ${SECONDS}s; rows not ok: $(grep -h '^ *[0-9]* |' $O/ms_mend.txt | grep -vc 'yes$')" | tee -a $O/summary.txt; save
timeout 90 $V/sb_mend > $O/sb_mend.txt 2>&1; echo "sb_mend rc $? at ${SECONDS}s; rows not ok: $(grep -h '^|' $O/sb_mend.txt | grep -v '^| variant\|^|---' | grep -vc 'yes |$')" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
