#!/usr/bin/env bash
# Session 23, call 2: the warp-ranked BMS tile with 512 threads (ms_512: one
# block per SM, keys and pairs uncapped; ms_512k2: keys capped at two blocks)
# against main; ncu source counters of main's post-scan, pairs at 128 and
# 256 buckets and keys at 256 (2^26, delta).
set -uo pipefail
R=$PWD; O=/tmp/o23c2; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c2.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 --kinds keys pairs --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3
  timeout 60 $V/$b --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_512 ms_512k2; do run_ms $b 28 $r; done; done
for n in 26 25; do for b in ms_main ms_512 ms_512k2; do run_ms $b $n 1; done; done
save
for kind in pairs keys; do for m in 256 128; do
  [ $kind = keys ] && [ $m = 128 ] && continue
  timeout 150 ncu -k "regex:block_postscan" --launch-skip 1 --launch-count 1 --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --import-source yes \
    -o $O/prof_${kind}_$m $V/ms_main --n-log2 26 --buckets $m --kinds $kind --functors delta --methods block --runs 2 --warmup 1 > $O/prof_${kind}_$m.log 2>&1
  echo "prof $kind $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  ncu -i $O/prof_${kind}_$m.ncu-rep --page source --csv --print-source sass > $O/sass_${kind}_$m.csv 2>&1
  ncu -i $O/prof_${kind}_$m.ncu-rep --page details --csv > $O/details_${kind}_$m.csv 2>&1
  gzip -f $O/sass_${kind}_$m.csv; rm -f $O/prof_${kind}_$m.ncu-rep; save
done; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
