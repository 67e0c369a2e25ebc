#!/usr/bin/env bash
# Session 25, call 7 (builds: var4.diff with -DMULTISPLIT_REORDER_BATCH=1
# for ms_rb, -DMULTISPLIT_WRITE_BATCH=1 for ms_wb): calls 3 and 5 showed the
# checked path's reorder and write-out running item after item (a shared
# load, its use, then the next item's load). ms_rb loads every item's
# reorder position before its stores; ms_wb loads every slot's key and
# destination before the (predicated) stores of the checked write-out.
set -uo pipefail
R=$PWD; O=/tmp/o25c7; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c7.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 8 32 40 64 100 128 200 256 361 512 --kinds keys pairs --runs 10 --warmup 3"
run() { local b=$1 n=$2 r=$3; timeout 90 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2 3; do for b in ms_base ms_rb ms_wb; do run $b 28 $r; done; save; done
for n in 26 25; do for b in ms_base ms_rb ms_wb; do run $b $n 1; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in ms_base ms_rb ms_wb; do for k in pairs keys; do for m in 128 256; do
  timeout 90 ncu --clock-control none -k "regex:postscan" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds $k --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_${k}_${m}_28.csv 2>&1
  echo "ncu $b $k $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
