#!/usr/bin/env bash
# Call 3: against ms_new (6fde04c, the multiply-add divide): ms_v1 (the
# library's clamp as one min, which ptxas merges with the functor's into a
# VIMNMX3) and ms_v8 (that, plus thread-private counters addressed with one
# IMAD in the pre-scan and the thread-counter tile, bucket | slot << 16 as a
# PRMT, and a branch-free slot loop). ncu instruction counts at 2^26, m = 8.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
tar xJf .carry/c3bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 4 8 16 32 40 64 128 256 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_new ms_v1 ms_v8; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_new ms_v1 ms_v8; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active"
for b in ms_new ms_v1 ms_v8; do
  timeout 120 ncu -k 'regex:postscan|counting_prescan' $M --csv $V/$b --n-log2 26 --buckets 8 32 --kinds keys pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
