#!/usr/bin/env bash
# Session 25, call 2: the pair post-scan is latency-bound (call 1: a third
# fewer instructions ran slower at 16 warps per SM). Smaller wide tiles at
# two blocks per SM, 32 or 24 warps: 512 x 10 (ms_w10), 512 x 12 (ms_w12),
# 384 x 16 (ms_t384), from 40 buckets, against main (ms_base).
# Builds: var1.diff with -DMULTISPLIT_WIDE_MIN_BLOCKS=2
# -DMULTISPLIT_WIDE_TILE_MIN_PAIR_BUCKETS=40 and -DMULTISPLIT_WIDE_ITEMS=10 /
# 12, or -DMULTISPLIT_WIDE_THREADS=384 -DMULTISPLIT_WIDE_ITEMS=16.
set -uo pipefail
R=$PWD; O=/tmp/o25c2; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c2.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
P="--functors delta identity --methods block cub --buckets 40 64 100 128 176 256 361 512 1024 --kinds pairs --runs 10 --warmup 3"
run() { local b=$1 n=$2 r=$3 k=$4; shift 4
  timeout 90 $V/$b --n-log2 $n "$@" > $O/${b}_${k}_${n}_$r.txt 2>&1; echo "$b $k $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2 3; do for b in ms_base ms_w10 ms_w12 ms_t384; do run $b 28 $r pairs $P; done; save; done
for n in 26 25 22; do for b in ms_base ms_w10 ms_w12 ms_t384; do run $b $n 1 pairs $P; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in ms_base ms_w10 ms_t384; do for m in 128 256; do
  timeout 90 ncu --clock-control none -k "regex:postscan" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds pairs --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_pairs_${m}_28.csv 2>&1
  echo "ncu $b pairs $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
