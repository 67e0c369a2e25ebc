#!/usr/bin/env bash
# Call 7: where a small split's time goes (ncu kernel durations of SmallN
# against the per-call time of back-to-back calls), and keys at 768 buckets
# interleaved (ms_all) against the kept rule (ms_new, not interleaved there).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c7.tgz -C $O .; }
tar xJf .carry/c7bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 60 $V/small_n --n-log2 10 16 18 --kinds keys pairs > $O/small_n.txt 2>&1; echo "small_n rc $?"; grep -E "^\| 2" $O/small_n.txt
M=gpu__time_duration.sum,sm__cycles_active.max,gpc__cycles_elapsed.max,launch__grid_size,smsp__inst_executed.sum
timeout 120 ncu --clock-control none -k regex:small_n_split --launch-count 40 --metrics $M --csv $V/small_n --n-log2 10 16 --kinds keys --batch 10 --batches 2 --runs 3 --warmup 1 > $O/ncu_small_n.csv 2>&1; echo "ncu rc $?"
save
A="--n-log2 28 --functors delta --methods block --buckets 512 768 1024 --kinds keys --runs 10 --warmup 3"
for r in 1 2; do for b in ms_new ms_all; do
  timeout 60 $V/$b $A > $O/${b}_768_$r.txt 2>&1; echo "$b r$r rc $?"; grep -E "^\s+(512|768|1024) \|" $O/${b}_768_$r.txt | cut -c1-60
done; done
echo "done at ${SECONDS}s"; save
