#!/usr/bin/env bash
# Call 4: interleaved BMS with the tile-counting pre-scan (groups of 4 tiles).
# ms_new (default thresholds), ms_all (interleaved at 33..2048 buckets),
# alternated; sort; the multisplit GPU tests; sanitizers; ncu per kernel.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c4bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block cub --buckets 16 32 40 64 100 128 256 361 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new ms_all; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  save
done
for b in ms_base ms_all; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 40 64 100 128 256 361 1024 --kinds keys pairs --runs 10 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
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
S="--n-log2 21 --functors delta --methods block --buckets 16 64 256 1024 --kinds keys pairs --runs 1 --warmup 0"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/ms_all $S > $O/san_$tool.txt 2>&1; echo "sanitizer $tool rc $?"; tail -1 $O/san_$tool.txt
done
save
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for b in ms_base ms_all; do for k in keys pairs; do
  timeout 100 ncu --clock-control none -k "regex:counting|postscan|Onesweep|Histogram" --metrics $M --csv $V/$b --n-log2 26 --functors delta --methods block cub --buckets 64 256 --kinds $k --runs 1 --warmup 0 > $O/ncu_${b}_${k}.csv 2>&1; echo "ncu $b $k rc $?"
done; done
echo "done at ${SECONDS}s"; save
