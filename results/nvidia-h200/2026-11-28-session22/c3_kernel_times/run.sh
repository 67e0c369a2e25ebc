#!/usr/bin/env bash
# Session 22, call 3: where the time goes at 64-256 buckets, 2^28 delta:
# every kernel of one BMS split and of CUB's top-bits sort, timed by ncu at
# the running clocks (--clock-control none), with DRAM bytes.
set -uo pipefail
R=$PWD; O=/tmp/o22c3; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c3.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for kind in keys pairs; do
  for m in 64 128 256; do
    timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
      $V/ms_main --n-log2 28 --buckets $m --kinds $kind --functors delta --methods block cub --runs 1 --warmup 1 > $O/ncu_${kind}_$m.csv 2>&1
    echo "ncu $kind $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
  done
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
