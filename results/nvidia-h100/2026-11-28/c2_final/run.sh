#!/usr/bin/env bash
# Call 2: the final build. Keys interleaved to 768 against main; the
# multisplit GPU tests; sanitizers on what changed; bench_multisplit.sh and
# the small-n table for docs/BENCHMARKS.md; ncu source counters of the pair
# post-scan.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c2bins.tar.xz -C "$R"
V=$R/var; ln -sf $R/build/multisplit/multisplit_bench $V/ms_final
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--n-log2 28 --functors delta --methods block auto cub --buckets 256 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_final; do
    timeout 100 $V/$b $A > $O/${b}_28_$r.txt 2>&1; echo "$b r$r rc $? at ${SECONDS}s"
  done
done
for b in ms_base ms_final; do
  timeout 100 $V/$b --n-log2 25 --functors delta identity --methods block --buckets 512 768 1024 --kinds keys --runs 10 > $O/${b}_25.txt 2>&1; echo "$b 25 rc $?"
done
save
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_api test_multisplit_sort test_multisplit_device_count; do
  timeout 150 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
done
save
S="--n-log2 21 --functors delta identity --methods block auto --buckets 512 768 1024 --kinds keys --runs 1 --warmup 0"
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/ms_final $S > $O/san_$tool.txt 2>&1; echo "sanitizer $tool rc $?"; tail -1 $O/san_$tool.txt
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build/multisplit/sort_bench --n-log2 18 --radix-bits 5 7 --runs 1 --warmup 0 > $O/san_sort_memcheck.txt 2>&1; echo "sanitizer sort memcheck rc $?"; tail -1 $O/san_sort_memcheck.txt
save
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res
timeout 240 scripts/bench_multisplit.sh > $O/bench_multisplit.log 2>&1; echo "bench_multisplit rc $? at ${SECONDS}s"; tail -2 $O/bench_multisplit.log; save
mkdir -p $O/small_n
timeout 60 build/multisplit/multisplit_small_n_bench --kinds keys pairs --json $O/small_n/small_n.json > $O/small_n/small_n.txt 2>&1
echo "small_n rc $? at ${SECONDS}s"; save
for m in 64 256; do
  timeout 60 ncu -k "regex:block_postscan" --launch-count 1 --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --import-source yes \
    -o $O/prof_$m $V/ms_final --n-log2 24 --functors delta --methods block --buckets $m --kinds pairs --runs 1 --warmup 0 > $O/ncu_$m.log 2>&1; echo "ncu $m rc $?"
  ncu -i $O/prof_$m.ncu-rep --page details > $O/details_$m.txt 2>&1
  ncu -i $O/prof_$m.ncu-rep --page source --csv --print-source sass > $O/sass_$m.csv 2>&1
  ncu -i $O/prof_$m.ncu-rep --page source --csv --print-source cuda > $O/src_$m.csv 2>&1
  gzip -f $O/sass_$m.csv $O/src_$m.csv; rm -f $O/prof_$m.ncu-rep
  save
done
echo "done at ${SECONDS}s"; save
