#!/usr/bin/env bash
# Session 24, call 1: where the interleaved pre-scan (tile_counting_kernel)
# loses to CUB's histogram pass. ncu times of the pre-scan in main and in
# diagnostic builds (nw: no count-matrix stores; ng: no per-group zero,
# flush and barriers -- both give wrong counts, timing only), and in two
# candidates (ct: the block streams its group's tiles contiguously; pad:
# matrix rows padded to whole sectors). Whole splits of the candidates
# against main. Tests left unverified on a GPU last session: the pair
# test SizeServesSmallerNAcrossTileWidths (b0858f6) and the sort tests (a2c0dd3).
# Builds: multisplit_bench of main (b0858f6) and of main + variants.patch
# with -DMS_TC_VARIANT=1 (nw), 2 (ng), 3 (ct), -DMS_TC_PAD (pad); every
# variant's tile-counting kernel has __launch_bounds__(512, 3) (40 registers,
# as main's).
set -uo pipefail
R=$PWD; O=/tmp/o24c1; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c1.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
t test_multisplit_pairs 60 --gtest_filter='*SizeServesSmallerNAcrossTileWidths*'
t test_multisplit_sort 80
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
prof() { local b=$1 kind=$2 m=$3 f=$4
  timeout 90 ncu --clock-control none -k "regex:tile_counting|Histogram" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds $kind --functors $f --methods block cub --runs 1 --warmup 1 > $O/ncu_${b}_${kind}_${m}_$f.csv 2>&1
  echo "ncu $b $kind $m $f rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for b in ms_main ms_nw ms_ng ms_ct ms_pad; do prof $b keys 256 delta; prof $b pairs 128 delta; done
prof ms_main keys 256 identity
save
# source-level stalls of main's pre-scan and CUB's histogram pass
# (the two first matching launches were CUB's histogram kernels: no
# source counters of the tile-counting kernel came out of this)
timeout 150 ncu --clock-control none -k "regex:tile_counting|Histogram" --launch-count 2 --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --import-source no \
  -o $O/prof_keys_256 $V/ms_main --n-log2 28 --buckets 256 --kinds keys --functors delta --methods block cub --runs 1 --warmup 0 > $O/prof_keys_256.log 2>&1
echo "prof rc $? at ${SECONDS}s" | tee -a $O/summary.txt
ncu -i $O/prof_keys_256.ncu-rep --page source --csv --print-source sass > $O/sass_keys_256.csv 2>&1
ncu -i $O/prof_keys_256.ncu-rep --page details --csv > $O/details_keys_256.csv 2>&1
gzip -f $O/sass_keys_256.csv; rm -f $O/prof_keys_256.ncu-rep; save
A="--functors delta --methods block cub --buckets 64 100 128 256 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do for b in ms_main ms_ct ms_pad; do
  timeout 60 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; done; save; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
