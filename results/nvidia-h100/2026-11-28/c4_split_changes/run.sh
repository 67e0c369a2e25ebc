#!/usr/bin/env bash
# Call 4: the two changes of call 3 apart. ms_prev (main), ms_v2 (whole-tile
# path masked-only), ms_v3 (branch-free delta buckets), ms_v23 (both),
# ms_v23k100 (both, keys' whole-tile path to 100 buckets); sort prev vs v2.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
tar xJf .carry/c4bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block cub --buckets 8 32 40 64 100 128 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
I="--n-log2 28 --functors identity --methods block --buckets 40 64 128 256 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_prev ms_v2 ms_v3 ms_v23 ms_v23k100; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  for b in ms_prev ms_v2; do
    timeout 100 $V/$b $I > $O/${b}_id_$r.txt 2>&1; echo "$b id r$r rc $?"
  done
  for b in sort_prev sort_v2; do
    timeout 100 $V/$b --n-log2 28 --radix-bits 7 --runs 10 > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $?"
  done
  save
done
echo "done at ${SECONDS}s"; save
