#!/usr/bin/env bash
# Call 5: the warp-ranked pair tile with values read from global memory
# (one value buffer): v_sdv, and v_sdv_w0 (also no whole-tile kernel),
# against ms_fin2 (this change: pair thread-counter tile from global memory,
# pairs from 512 buckets in the whole-tile kernel).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
tar xJf .carry/c5bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 40 64 100 128 256 361 512 768 1024 --kinds pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_fin2 v_sdv v_sdv_w0; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_fin2 v_sdv v_sdv_w0; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
