#!/usr/bin/env bash
# Session 25, call 11: why keys all in one bucket split slowly (BMS 143
# Gkeys/s at 40 buckets against 215 on uniform keys): ncu source counters
# of main's post-scan (-lineinfo build, ms_line), keys at 40 buckets, 2^26,
# constant keys and uniform keys; and the kernels' times and instructions.
set -uo pipefail
R=$PWD; O=/tmp/o25c11; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c11.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c11.tar.xz -C $V
mkdir -p /tmp/v25 && rm -rf /tmp/v25/base && mkdir -p /tmp/v25/base && cp -r $V/src/multisplit /tmp/v25/base/
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
for k in constant uniform; do
  timeout 90 ncu --clock-control none -k "regex:postscan|counting" --metrics $MET --csv $V/ms_line --n-log2 28 --buckets 40 --keys $k --kinds keys --functors delta --methods block --runs 1 --warmup 1 > $O/ncu_${k}_40_28.csv 2>&1
  echo "ncu $k rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  timeout 200 ncu -k "regex:block_postscan" --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats --import-source yes \
    -o $O/prof_$k $V/ms_line --n-log2 26 --buckets 40 --keys $k --kinds keys --functors delta --methods block --runs 1 --warmup 1 > $O/prof_$k.log 2>&1
  echo "prof $k rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  ncu -i $O/prof_$k.ncu-rep --page source --csv --print-source sass > $O/sass_$k.csv 2>&1
  gzip -f $O/sass_$k.csv; rm -f $O/prof_$k.ncu-rep; save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
