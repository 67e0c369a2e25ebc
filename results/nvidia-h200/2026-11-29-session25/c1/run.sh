#!/usr/bin/env bash
# Session 25, call 1: the unchecked whole-tile path for pairs at 100-128
# buckets (ms_p128: its own interleaved instance, as 40-64 have) and at
# 100-256 (ms_p256: also the wide 512/384-thread tiles), and keys taking
# the path in their one interleaved kernel up to 256 (ms_k256), against
# main (ms_base), same call. Builds: main (f5c0b20) with
# -DMULTISPLIT_FULL_TILE_MAX_PAIR_BUCKETS=128 / =256 and
# -DMULTISPLIT_FULL_TILE_MAX_KEY_BUCKETS=256; sb_*: sort_bench.
set -uo pipefail
R=$PWD; O=/tmp/o25c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
P="--functors delta identity --methods block cub --buckets 64 100 128 160 176 200 256 361 --kinds pairs --runs 10 --warmup 3"
K="--functors delta identity --methods block cub --buckets 128 200 256 --kinds keys --runs 10 --warmup 3"
run() { local b=$1 n=$2 r=$3 k=$4; shift 4
  timeout 90 $V/$b --n-log2 $n "$@" > $O/${b}_${k}_${n}_$r.txt 2>&1; echo "$b $k $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2 3; do for b in ms_base ms_p128 ms_p256; do run $b 28 $r pairs $P; done; for b in ms_base ms_k256; do run $b 28 $r keys $K; done; save; done
for n in 26 25; do for b in ms_base ms_p128 ms_p256; do run $b $n 1 pairs $P; done; for b in ms_base ms_k256; do run $b $n 1 keys $K; done; save; done
for r in 1 2; do for b in sb_base sb_p256; do
  timeout 120 $V/$b --n-log2 22 24 25 26 28 --kinds pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in ms_base ms_p256; do for m in 128 256; do
  timeout 90 ncu --clock-control none -k "regex:postscan" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds pairs --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_pairs_${m}_28.csv 2>&1
  echo "ncu $b pairs $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
