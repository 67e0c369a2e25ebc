#!/usr/bin/env bash
# Call 1: delta buckets divided by one 32x32->64 multiply-add (Robison 2005,
# lower bound folded into the addend), ms_new, against main (ms_base, a04c36a)
# in the same call: block, auto and CUB, keys and pairs, both functors.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
tar xJf .carry/c1bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block auto cub --buckets 2 4 8 16 32 40 64 100 128 256 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new; do
    timeout 150 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_base ms_new; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active"
for b in ms_base ms_new; do
  timeout 120 ncu -k 'regex:postscan|counting_prescan|Onesweep|Histogram' $M --csv $V/$b --n-log2 26 --buckets 8 256 --kinds keys pairs --functors delta --methods block cub --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
