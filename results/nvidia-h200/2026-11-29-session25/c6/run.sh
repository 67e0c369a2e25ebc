#!/usr/bin/env bash
# Session 25, call 6 (builds: var3.diff with -DMULTISPLIT_INPUT_EVICT_FIRST=1,
# and -DMULTISPLIT_EVICT_LAST_MIN=100 for ms_efel): the drift cell (keys at 256 buckets, 2^28) is DRAM
# traffic from output sectors evicted half written. The input prefetch
# marked L2 evict_first (ms_ef), and with it the write-out marked
# evict_last from 100 buckets (ms_efel; main: from 257), against main.
set -uo pipefail
R=$PWD; O=/tmp/o25c6; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c6.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 128 200 256 361 512 --kinds keys pairs --runs 10 --warmup 3"
run() { local b=$1 n=$2 r=$3; timeout 90 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2 3; do for b in ms_base ms_ef ms_efel; do run $b 28 $r; done; save; done
for n in 26 25; do for b in ms_base ms_ef ms_efel; do run $b $n 1; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in ms_base ms_ef ms_efel; do for k in keys pairs; do for m in 256; do
  timeout 90 ncu --clock-control none -k "regex:postscan" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds $k --functors delta --methods block --runs 3 --warmup 1 > $O/ncu_${b}_${k}_${m}_28.csv 2>&1
  echo "ncu $b $k $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
