#!/usr/bin/env bash
# Call 3: the warp-ranked tile's unchecked whole-tile path at more bucket
# counts, against main (ms_h, 327b66d): ms_fa keys to 256 and pairs to 128
# buckets, ms_fb keys to 768 and pairs to 256 (the kAll kernels, chunked
# and interleaved). multisplit_bench block and CUB at 64-768 buckets. Then
# ncu of main's key post-scan at m = 8 (register-counted rows): warp states
# and source counters.
set -uo pipefail
R=$PWD; O=/tmp/o20c3; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c3.tgz -C $O .; }
V=$R/var; mkdir -p $V; tar xJf .carry/c3.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_h ms_fa ms_fb; do
    timeout 120 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_h ms_fa ms_fb; do
  timeout 60 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
timeout 150 ncu -k regex:postscan --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --section SpeedOfLight -o $O/ncu_keys8 $V/ms_h --n-log2 26 --buckets 8 --kinds keys --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_keys8.log 2>&1
echo "ncu rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
