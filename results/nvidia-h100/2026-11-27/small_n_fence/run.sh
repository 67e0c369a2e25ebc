#!/usr/bin/env bash
# Call 8: SmallN without the per-thread __threadfence before grid.sync()
# (small_n_new) against the build before it (small_n_base), alternated;
# the SmallN and device-count test suites; memcheck.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c8.tgz -C $O .; }
tar xJf .carry/c8bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for r in 1 2 3; do for b in small_n_base small_n_new; do
  timeout 60 $V/$b --n-log2 10 12 14 16 18 --kinds keys pairs > $O/${b}_$r.txt 2>&1; echo "$b r$r rc $?"
  grep -E "^\| 2\^1[06] " $O/${b}_$r.txt | cut -c1-40
done; done
save
for t in test_multisplit_small_n test_multisplit_device_count; do
  timeout 150 $V/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $V/small_n_new --n-log2 10 16 --kinds keys pairs --batch 2 --batches 1 --runs 1 --warmup 0 > $O/san_memcheck.txt 2>&1; echo "memcheck rc $?"; tail -1 $O/san_memcheck.txt
echo "done at ${SECONDS}s"; save
