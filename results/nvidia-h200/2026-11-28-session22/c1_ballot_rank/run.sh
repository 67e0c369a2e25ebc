#!/usr/bin/env bash
# Session 22, call 1: compile-time ballot ranking (ms_bal: CUB's predicated
# asm; ms_shl: the same with shl+setp.lt, which compiles for 8-byte values;
# ms_bal256: keys' whole-tile limit 256; ms_bal256p: keys' and pairs' 256)
# against main, keys and pairs 33-512 buckets, 2^28 twice and 2^25 once, in
# the same call; sort_bench main against ballots at 6-8 digit bits.
set -uo pipefail
R=$PWD; O=/tmp/o22c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 33 40 64 100 128 200 256 361 512 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_main ms_bal ms_shl ms_bal256 ms_bal256p; do
    timeout 40 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_main ms_bal ms_shl ms_bal256 ms_bal256p; do
  timeout 20 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for b in sort_main sort_bal; do
  timeout 60 $V/$b --n-log2 28 25 --radix-bits 6 7 8 --kinds keys pairs --runs 10 --warmup 3 > $O/$b.txt 2>&1; echo "$b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
