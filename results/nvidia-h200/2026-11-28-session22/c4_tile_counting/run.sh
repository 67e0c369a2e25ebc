#!/usr/bin/env bash
# Session 22, call 4: the tile-counting pre-scan of the interleaved BMS
# (keys 128-768, pairs 100-1024 buckets). Variants against main (ms_main):
# tc_db (two histogram sets, one barrier per group instead of three), tc_g8
# (8 tiles per group, 64 threads per tile), tc_u8 (8 vector loads in flight
# per thread; 59 registers: two blocks per SM), tc_dbg8 (both db and g8).
# multisplit_bench at 2^28 twice and 2^25 once; then ncu of the pre-scan
# at 256 buckets, 2^28, running clocks.
set -uo pipefail
R=$PWD; O=/tmp/o22c4; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c4.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
B="ms_main tc_db tc_g8 tc_u8 tc_dbg8"
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in $B; do
    timeout 40 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in $B; do
  timeout 20 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in $B; do
  for kind in keys pairs; do
    timeout 60 ncu --clock-control none --kernel-name regex:tile_counting --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
      $V/$b --n-log2 28 --buckets 256 --kinds $kind --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_${kind}256.csv 2>&1
    echo "ncu $b $kind rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
