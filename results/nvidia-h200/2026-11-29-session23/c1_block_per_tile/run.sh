#!/usr/bin/env bash
# Session 23, call 1: interleaved post-scan with one block per tile (ms_bpt),
# pair values read after the warp ranking (ms_late), both (ms_both), against
# main (ms_main); sort_bench main vs bpt; ncu of the post-scan at 256 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o23c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3
  timeout 60 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_bpt ms_late ms_both; do run_ms $b 28 $r; done; done
for n in 26 25; do for b in ms_main ms_bpt ms_late ms_both; do run_ms $b $n 1; done; done
save
for b in sort_main sort_bpt sort_main sort_bpt; do
  timeout 60 $V/$b --n-log2 28 25 --radix-bits 7 8 --kinds keys pairs --runs 10 --warmup 3 >> $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done
save
for b in ms_main ms_bpt; do for kind in keys pairs; do for m in 256 128; do
  timeout 100 ncu --clock-control none -k regex:block_postscan --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
    $V/$b --n-log2 28 --buckets $m --kinds $kind --functors delta --methods block --runs 2 --warmup 1 > $O/ncu_${b}_${kind}_$m.csv 2>&1
  echo "ncu $b $kind $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
