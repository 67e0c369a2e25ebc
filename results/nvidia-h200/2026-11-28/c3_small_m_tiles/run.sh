#!/usr/bin/env bash
# Call 3: small-m tiles on the H200. ms_base (main), ms_fin (this change's
# default: pairs from 512 buckets in the whole-tile kernel), v_p12 (pair
# thread-counter tile of 12 items: three blocks per SM), v_k4 (four blocks'
# registers), v_k24 (key tiles of 24 items). Then ncu of main's splits
# against CUB's histogram + onesweep pass.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
tar xJf .carry/c3bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 3 4 8 16 32 512 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_fin v_p12 v_k4 v_k24; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_base ms_fin v_p12 v_k4 v_k24; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
K='regex:postscan|counting_prescan|Onesweep|Histogram'
for cfg in "pairs 8" "keys 8" "keys 256" "pairs 64"; do
  set -- $cfg
  timeout 150 ncu -k "$K" $S --launch-count 30 -o $O/rep_$1_$2 $V/ms_base --n-log2 26 --buckets $2 --kinds $1 --functors delta --methods block cub --runs 1 --warmup 0 > $O/ncu_$1_$2.log 2>&1
  echo "ncu $cfg rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  ncu -i $O/rep_$1_$2.ncu-rep --page details --csv > $O/details_$1_$2.csv 2>/dev/null
  rm -f $O/rep_$1_$2.ncu-rep
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
