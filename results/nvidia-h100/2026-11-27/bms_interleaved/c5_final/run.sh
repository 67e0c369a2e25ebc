#!/usr/bin/env bash
# Call 5: final thresholds (keys 128-512, pairs 100-1024) against main, tests, sanitizers.
# ms_new (default thresholds), ms_all (interleaved at 33..2048 buckets),
# alternated; sort; the multisplit GPU tests; sanitizers; ncu per kernel.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c5bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block auto cub --buckets 32 64 100 128 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  save
done
for b in ms_base ms_new; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 64 100 128 256 361 512 1024 --kinds keys pairs --runs 10 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
done
save
for b in sort_base sort_new; do
  timeout 100 $V/$b --n-log2 28 --radix-bits 7 --runs 10 > $O/$b.txt 2>&1; echo "$b rc $?"
done
save
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_device_count test_multisplit_api test_multisplit_sort; do
  timeout 150 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
done
save
S="--n-log2 21 --functors delta --methods block --buckets 64 100 256 512 1024 --kinds keys pairs --runs 1 --warmup 0"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/ms_new $S > $O/san_$tool.txt 2>&1; echo "sanitizer $tool rc $?"; tail -1 $O/san_$tool.txt
done
save
echo "done at ${SECONDS}s"; save
