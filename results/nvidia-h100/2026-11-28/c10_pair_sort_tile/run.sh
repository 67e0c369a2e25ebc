#!/usr/bin/env bash
# Call 10: pairs from 2^27 sort with the fixed 24-item tile.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c10.tgz -C $O .; }
tar xJf .carry/c10bins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 400 var/test_multisplit_sort > $O/test_multisplit_sort.log 2>&1; echo "test rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/test_multisplit_sort.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|INFO|LargestSize|AcrossTiles" $O/test_multisplit_sort.log | head; save
for r in 1 2; do
  for b in sort_prev sort_new; do
    timeout 100 var/$b --n-log2 26 27 28 --radix-bits 7 --kinds pairs --runs 10 > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $?"; grep -E "default" $O/${b}_$r.txt
  done
done
echo "done at ${SECONDS}s"; save
