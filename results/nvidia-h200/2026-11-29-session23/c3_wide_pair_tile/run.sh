#!/usr/bin/env bash
# Session 23, call 3: the 512-thread pair tile (ms_w: from 160 buckets;
# ms_w100: from 100) against main (ms_main), pairs 100-512 buckets and two
# key cells; sort_bench main vs wide; the split, sort, API, device-count,
# grid and SSSP tests; memcheck and racecheck on the compact pair subset;
# ncu of the wide tile's post-scan at 256 and 361 buckets.
set -uo pipefail
R=$PWD; O=/tmp/o23c3; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c3.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3
  timeout 60 $V/$b --n-log2 $n $A --kinds pairs --buckets 100 128 144 160 176 200 256 300 361 400 450 480 512 > $O/${b}_${n}_$r.txt 2>&1
  timeout 60 $V/$b --n-log2 $n $A --kinds keys --buckets 128 256 > $O/${b}_${n}_k$r.txt 2>&1
  echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_w ms_w100; do run_ms $b 28 $r; done; done
for n in 26 25; do for b in ms_main ms_w ms_w100; do run_ms $b $n 1; done; done
save
for b in sort_main sort_w sort_main sort_w; do
  timeout 60 $V/$b --n-log2 28 25 --radix-bits 7 8 --kinds keys pairs --runs 10 --warmup 3 >> $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done
save
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 lim=$3; shift 3
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_$name.txt 2>&1; rc=$?
  echo "$tool $name rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_$name.txt | tail -1)" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_pairs 60 --gtest_filter='*Compact.*'
san racecheck test_multisplit_pairs 90 --gtest_filter='*Compact.*'
t test_multisplit_api 30
t test_multisplit_grid 30
t test_multisplit_device_count 60
t test_multisplit_keys 80
t test_multisplit_sort 60
t test_sssp_random_graphs 40
t test_sssp_engine 30
t test_sssp_batch 30
for m in 256 361; do
  timeout 100 ncu --clock-control none -k regex:block_postscan --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
    $V/ms_w --n-log2 28 --buckets $m --kinds pairs --functors delta --methods block --runs 2 --warmup 1 > $O/ncu_ms_w_pairs_$m.csv 2>&1
  echo "ncu $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done
save
t test_multisplit_pairs 200
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
