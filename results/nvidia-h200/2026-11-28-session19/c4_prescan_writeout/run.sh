#!/usr/bin/env bash
# Call 4: variants of ms_v8 (call 3) against ms_new (6fde04c): ms_p1 (the
# pre-scan's counters indexed in C++ again: 39 registers, three blocks per
# SM), ms_p2 (one-IMAD pre-scan counters, grid of three blocks per SM),
# ms_p3 (pre-scan with eight loads in flight per thread), ms_w (write-out
# reads out_shift[b] at one IMAD'd shared address). Order rotated per round.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
tar xJf .carry/c4bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 4 8 16 32 64 128 256 --kinds keys pairs --runs 10 --warmup 3"
for b in ms_new ms_v8 ms_p1 ms_p2 ms_p3 ms_w; do
  timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_1.txt 2>&1; echo "$b 28 r1 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in ms_w ms_p3 ms_p2 ms_p1 ms_v8 ms_new; do
  timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_2.txt 2>&1; echo "$b 28 r2 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in ms_new ms_v8 ms_p1 ms_p2 ms_p3 ms_w; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active"
for b in ms_new ms_v8 ms_p1 ms_p2 ms_p3 ms_w; do
  timeout 120 ncu -k 'regex:postscan|counting_prescan' $M --csv $V/$b --n-log2 26 --buckets 8 --kinds keys --functors delta identity --methods block --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
