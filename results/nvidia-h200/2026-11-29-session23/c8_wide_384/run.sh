#!/usr/bin/env bash
# Session 23, call 8: a 384-thread wide pair tile (ms_w384, one block per
# SM, from 176 buckets while its shared memory fits) against the 512-thread
# one (ms_fin, d63b8b4) and main (ms_main), pairs 176-1024 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o23c8; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c8.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --kinds pairs --buckets 176 256 361 450 480 512 600 768 900 1024 --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3
  timeout 60 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_fin ms_w384; do run_ms $b 28 $r; done; done
for b in ms_main ms_fin ms_w384; do run_ms $b 25 1; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
