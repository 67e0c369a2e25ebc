#!/usr/bin/env bash
# Session 24, call 9: keys at 200-768 buckets, where ea483ed's interleaved
# key kernel lost the unchecked whole-tile path it never took: ms_fin
# (ea2d278) against ms_fin2 (ea483ed), three alternations at 2^28 and
# 2^27, delta and identity buckets.
set -uo pipefail
R=$PWD; O=/tmp/o24c9; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c9.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 128 200 256 361 512 768 --kinds keys --runs 10 --warmup 3"
for n in 28 27; do for r in 1 2 3; do for b in ms_fin ms_fin2; do
  timeout 60 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; done; save; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
