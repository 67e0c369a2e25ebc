#!/usr/bin/env bash
# Call 9: bucket ids stored in the reorder (write-out reads them instead of
# recomputing the bucket: one delta functor call less per key), v_ids,
# against the final build (ms_fin, 828e1c0).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
tar xJf .carry/c9bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 4 8 16 32 40 64 128 256 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_fin v_ids; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_fin v_ids; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
