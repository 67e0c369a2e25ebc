#!/usr/bin/env bash
# Session 25, call 5: where the unchecked whole-tile path waits (ms_linep: main with
# -DMULTISPLIT_FULL_TILE_MAX_PAIR_BUCKETS=256 and -lineinfo). ncu source counters
# and warp-state samples per SASS instruction (lines.py maps them to source
# lines through nvdisasm -g), pairs
# at 128 (256-thread tile) and 256 (512-thread wide tile), 2^26, delta.
set -uo pipefail
R=$PWD; O=/tmp/o25c5; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c5.tar.xz -C $V
mkdir -p /tmp/v25 && rm -rf /tmp/v25/base && mkdir -p /tmp/v25/base && cp -r $V/src/multisplit /tmp/v25/base/
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for m in 256 128; do
  timeout 200 ncu -k "regex:block_postscan" --launch-skip 1 --launch-count 1 --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --import-source yes \
    -o $O/prof_$m $V/ms_linep --n-log2 26 --buckets $m --kinds pairs --functors delta --methods block --runs 1 --warmup 1 > $O/prof_$m.log 2>&1
  echo "prof $m rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  ncu -i $O/prof_$m.ncu-rep --page source --csv --print-source sass > $O/sass_$m.csv 2>&1
  ncu -i $O/prof_$m.ncu-rep --page details --csv > $O/details_$m.csv 2>&1
  gzip -f $O/sass_$m.csv; rm -f $O/prof_$m.ncu-rep; save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
