#!/usr/bin/env bash
# Call 5: does the unused whole-tile path slow the checked path it shares a
# kernel with? ms_prev (main), ms_nf (no whole-tile path compiled),
# ms_v3 (branch-free delta buckets), ms_nf3 (both).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
tar xJf .carry/c5bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta identity --methods block --buckets 100 128 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_prev ms_nf ms_v3 ms_nf3; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  save
done
for b in ms_prev ms_nf ms_v3 ms_nf3; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 128 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
done
echo "done at ${SECONDS}s"; save
