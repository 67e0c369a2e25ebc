#!/usr/bin/env bash
# Session 22, call 5: tiles per group of the tile-counting pre-scan, 4
# (main), 8 (tc_g8, 64 threads per tile) and 16 (tc_g16, one warp per
# tile), multisplit_bench at 2^28 twice, 2^26 and 2^25 once; sort_bench at
# 7- and 8-bit digits; ncu of the pre-scan at 256 and 1024 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o22c5; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c5.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
B="ms_main tc_g8 tc_g16"
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in $B; do
    timeout 40 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for n in 26 25; do
  for b in $B; do
    timeout 30 $V/$b --n-log2 $n $A > $O/${b}_${n}_1.txt 2>&1; echo "$b $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
save
for b in sort_main sort_g8 sort_g16; do
  timeout 60 $V/$b --n-log2 28 25 --radix-bits 7 8 --kinds keys pairs --runs 10 --warmup 3 > $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in $B; do
  for km in keys:256 pairs:256 pairs:1024 keys:768; do
    kind=${km%:*}; m=${km#*:}
    timeout 60 ncu --clock-control none --kernel-name regex:tile_counting --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
      $V/$b --n-log2 28 --buckets $m --kinds $kind --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_${kind}$m.csv 2>&1
    echo "ncu $b $kind $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
