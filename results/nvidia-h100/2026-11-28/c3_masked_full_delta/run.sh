#!/usr/bin/env bash
# Call 3: the masked-only whole-tile path + branch-free delta buckets (v23),
# and the same with the whole-tile path at every bucket count (v23full),
# against the previous build (ms_prev); tests and sanitizers.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c3bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block auto cub --buckets 8 32 40 64 100 128 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_prev ms_v23 ms_v23full; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  save
done
for b in ms_prev ms_v23 ms_v23full; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 40 64 128 256 512 1024 --kinds keys pairs --runs 10 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
done
save
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_api test_multisplit_sort test_multisplit_device_count; do
  timeout 150 $V/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
done
save
S="--n-log2 21 --functors delta identity --methods block --buckets 40 64 128 256 1024 --kinds keys pairs --runs 1 --warmup 0"
for b in ms_v23 ms_v23full; do
  for tool in memcheck racecheck synccheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/$b $S > $O/san_${b}_$tool.txt 2>&1; echo "sanitizer $b $tool rc $?"; tail -1 $O/san_${b}_$tool.txt
  done
done
timeout 100 $V/sort_bench --n-log2 28 --radix-bits 7 --runs 10 > $O/sort_v23.txt 2>&1; echo "sort rc $?"
echo "done at ${SECONDS}s"; save
