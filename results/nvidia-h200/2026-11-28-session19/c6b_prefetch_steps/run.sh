#!/usr/bin/env bash
# Call 6b: ms_pf = ms_c2 (call 6's kept variant, the final build so far)
# with the cp.async prefetch stepping its source and stage pointers instead
# of recomputing them per vector, against ms_c2 and ms_new (6fde04c).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c6b.tgz -C $O .; }
tar xJf .carry/c6bbins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 4 8 16 32 64 100 128 256 512 1024 --kinds keys pairs --runs 10 --warmup 3"
for b in ms_new ms_c2 ms_pf; do
  timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_1.txt 2>&1; echo "$b 28 r1 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in ms_pf ms_c2 ms_new; do
  timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_2.txt 2>&1; echo "$b 28 r2 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in ms_new ms_c2 ms_pf; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum"
for b in ms_c2 ms_pf; do
  timeout 100 ncu -k 'regex:block_postscan' $M --csv $V/$b --n-log2 26 --buckets 8 256 --kinds keys pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
