#!/usr/bin/env bash
# Call 9: delta pairs at 256 and 361 buckets, where the final bench (call 7)
# ran 12% below the bench at 7efb5ae at 2^28 (361) and not at 2^25: main
# before this session (ms_base, a04c36a), the divide alone (ms_new, 6fde04c)
# and the final build (ms_fin, 6e26f9c), at 2^26-2^28, then ncu kernel times
# at 2^28, m = 361.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
tar xJf .carry/c9bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta --methods block --buckets 200 256 300 361 512 --kinds pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new ms_fin; do
    timeout 100 $V/$b --n-log2 26 27 28 $A > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum"
for b in ms_base ms_fin; do
  timeout 100 ncu -k 'regex:postscan|counting' $M --csv $V/$b --n-log2 28 --buckets 361 --kinds pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
