#!/usr/bin/env bash
# Session 24, call 3: the lean pre-scan count (ms_lean2; ms_lz = + flush
# zeroes) and key tiles in order (ms_kio = ms_lz + counter for keys) over
# n = 2^25..2^28 and 40-1024 buckets; the radix sort with the lean count
# (sb_lz) against main (sb_main); ncu of the group-16 pre-scan (768 keys,
# 1024 pairs) and of the key post-scan in order or not.
# Builds as in c2_lean_count (its variants.patch); sort_bench likewise.
set -uo pipefail
R=$PWD; O=/tmp/o24c3; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c3.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
run_ms() { local b=$1 n=$2 r=$3; shift 3
  timeout 90 $V/$b --n-log2 $n "$@" > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
A="--functors delta identity --methods block cub --buckets 40 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do for b in ms_main ms_lean2 ms_lz ms_kio; do run_ms $b 28 $r $A; done; save; done
for n in 27 26 25; do for b in ms_main ms_lean2 ms_lz ms_kio; do run_ms $b $n 1 $A; done; save; done
for r in 1 2; do for b in sb_main sb_lz; do
  timeout 120 $V/$b --n-log2 24 25 26 28 --kinds keys pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; save; done
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
prof() { local b=$1 kind=$2 m=$3 n=$4 k=$5
  timeout 90 ncu --clock-control none -k "regex:$k" --metrics $MET --csv $V/$b --n-log2 $n --buckets $m --kinds $kind --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${b}_${kind}_${m}_$n.csv 2>&1
  echo "ncu $b $kind $m $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for b in ms_main ms_lean2 ms_lz; do prof $b keys 768 28 counting; prof $b pairs 1024 28 counting; done
for b in ms_lz ms_kio; do for n in 25 28; do for m in 256 512; do prof $b keys $m $n "counting|postscan"; done; done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
