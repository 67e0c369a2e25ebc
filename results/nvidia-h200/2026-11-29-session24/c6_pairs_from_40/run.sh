#!/usr/bin/env bash
# Session 24, call 6: pairs interleaved from 40 buckets (was 100), with the
# whole-tile path compiled only into the interleaved kernel instance for
# bucket counts that take it (ms_fin2, sb_fin2: the working tree after
# ea2d278), against ea2d278 (ms_fin) and main before the session (ms_main,
# sb_main); ncu of the pair pre-scan and post-scan at 40 and 64 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o24c6; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c6.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 40 48 64 100 128 200 256 512 1024 --kinds keys pairs --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3
  timeout 90 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_fin ms_fin2; do run_ms $b 28 $r; done; save; done
for n in 26 25 22; do for b in ms_main ms_fin ms_fin2; do run_ms $b $n 1; done; save; done
for r in 1 2; do for b in sb_main sb_fin2; do
  timeout 120 $V/$b --n-log2 22 24 25 26 28 --kinds keys pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in ms_fin ms_fin2; do for m in 40 64; do
  timeout 90 ncu --clock-control none -k "regex:counting|postscan|Scan" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds pairs --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_pairs_${m}_28.csv 2>&1
  echo "ncu $b pairs $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
