#!/usr/bin/env bash
# Session 24, call 4: the lean pre-scan count (ms_lean2) and the same with
# count-matrix rows padded to whole sectors (ms_lp) against main: ncu of
# the pre-scan and post-scan at 64 pairs (chunked; the whole split lost
# about 2% in call 3) and of the group-16 pre-scan (768 keys, 1024 pairs);
# whole splits.
# Builds: main + c2_lean_count/variants.patch with -DMS_LEAN=2 (lean2) and
# -DMS_LEAN=2 -DMS_TC_PAD=1 (lp).
set -uo pipefail
R=$PWD; O=/tmp/o24c4; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c4.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
prof() { local b=$1 kind=$2 m=$3 n=$4 k=$5
  timeout 90 ncu --clock-control none -k "regex:$k" --metrics $MET --csv $V/$b --n-log2 $n --buckets $m --kinds $kind --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_${kind}_${m}_$n.csv 2>&1
  echo "ncu $b $kind $m $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for b in ms_main ms_lean2; do prof $b pairs 64 28 "counting|postscan"; prof $b pairs 40 28 "counting|postscan"; done
for b in ms_main ms_lean2 ms_lp; do prof $b keys 768 28 counting; prof $b pairs 1024 28 counting; prof $b pairs 512 28 counting; done
save
run_ms() { local b=$1 n=$2 r=$3; shift 3
  timeout 90 $V/$b --n-log2 $n "$@" > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
A="--functors delta identity --methods block cub --buckets 40 64 128 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do for b in ms_main ms_lean2 ms_lp; do run_ms $b 28 $r $A; done; save; done
for r in 1 2; do for b in ms_main ms_lean2 ms_lp; do run_ms $b 25 $r $A; done; save; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
