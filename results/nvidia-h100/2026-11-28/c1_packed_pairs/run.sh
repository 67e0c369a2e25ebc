#!/usr/bin/env bash
# Call 1: packed pair reorder + keys interleaved to 768 against main;
# sort_bench with the fixed-tile rows; tests; ncu source counters.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c1bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block auto cub --buckets 40 64 100 128 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_new; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
  save
done
timeout 100 $V/ms_nopack --n-log2 28 --functors delta --methods block --buckets 40 64 100 128 256 512 1024 --kinds pairs --runs 10 > $O/ms_nopack_28.txt 2>&1; echo "nopack rc $?"
for b in ms_base ms_new; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 64 128 256 512 768 1024 --kinds keys pairs --runs 10 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
done
save
timeout 200 $V/sort_new --n-log2 28 --radix-bits 6 7 --runs 10 > $O/sort_new.txt 2>&1; echo "sort rc $? at ${SECONDS}s"
save
for t in test_multisplit_sort test_multisplit_pairs test_multisplit_keys test_multisplit_api; do
  [ -x $V/$t ] || continue
  timeout 150 $V/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
done
save
S="--n-log2 21 --functors delta identity --methods block --buckets 40 64 128 256 768 --kinds keys pairs --runs 1 --warmup 0"
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $V/ms_new $S > $O/san_$tool.txt 2>&1; echo "sanitizer $tool rc $?"; tail -1 $O/san_$tool.txt
done
save
# Source counters: our pair post-scan (m = 64 chunked, 256 interleaved) and CUB's onesweep pass.
for m in 64 256; do
  timeout 100 ncu -k "regex:block_postscan|Onesweep" --launch-count 2 --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy --section SpeedOfLight --import-source yes \
    -o $O/prof_$m $V/ms_new --n-log2 24 --functors delta --methods block cub --buckets $m --kinds pairs --runs 1 --warmup 0 > $O/ncu_$m.log 2>&1; echo "ncu $m rc $?"
  ncu -i $O/prof_$m.ncu-rep --page details > $O/details_$m.txt 2>&1
  ncu -i $O/prof_$m.ncu-rep --page source --csv --print-source sass > $O/sass_$m.csv 2>&1
  ncu -i $O/prof_$m.ncu-rep --page source --csv --print-source cuda > $O/src_$m.csv 2>&1
  gzip -f $O/sass_$m.csv $O/src_$m.csv; rm -f $O/prof_$m.ncu-rep
  save
done
echo "done at ${SECONDS}s"; save
