#!/usr/bin/env bash
# Session 23, call 4: sort_bench of pairs at 2^20..2^28 with the 512-thread
# pair tile (sort_w) and main (sort_main): which digit width and tile the
# pair defaults should take now.
set -uo pipefail
R=$PWD; O=/tmp/o23c4; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c4.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for r in 1 2; do for b in sort_w sort_main; do
  timeout 120 $V/$b --n-log2 20 21 22 23 24 25 26 27 28 --radix-bits 7 8 --kinds pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1
  echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save; done; done
