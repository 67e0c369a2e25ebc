#!/usr/bin/env bash
# Call 2: the split and API GPU tests at 6fde04c (multiply-add divide; the
# other test binaries did not fit the carry limit with these), memcheck on
# their compact subsets, pairs at 128-512 buckets alternated three times
# against main (call 1 saw -5% at 256 at 2^28), and ncu source counters
# (SASS, per instruction) of the post-scan: keys m = 8 and 256, pairs m = 64.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
tar xJf .carry/c2bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_api; do
  timeout 240 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
done
save
sub=(
  "test_multisplit_keys --gtest_filter=MultisplitKeysCompact.*"
  "test_multisplit_pairs --gtest_filter=MultisplitPairsCompact.*"
  "test_multisplit_api --gtest_filter=-MultisplitApi.LargestSizeCheckedOnDevice"
)
for s in "${sub[@]}"; do
  read -r exe args <<< "$s"
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$exe $args > $O/san_memcheck_$exe.txt 2>&1; rc=$?
  echo "memcheck $exe rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$exe.txt | tail -1)" | tee -a $O/summary.txt
done
save
A="--functors delta identity --methods block --buckets 100 128 256 512 --kinds pairs --runs 10 --warmup 3"
for r in 1 2 3; do
  for b in ms_base ms_new; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
save
for cfg in "keys 8" "keys 256" "pairs 64"; do
  set -- $cfg
  timeout 120 ncu -k regex:block_postscan --launch-count 1 --section SourceCounters --section InstructionStats --section WarpStateStats --section Occupancy -o $O/src_$1_$2 $V/ms_new --n-log2 26 --buckets $2 --kinds $1 --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_src_$1_$2.log 2>&1
  echo "ncu $cfg rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  ncu -i $O/src_$1_$2.ncu-rep --page source --csv --print-source sass > $O/sass_$1_$2.csv 2> $O/sass_$1_$2.err
  echo "export rc $? lines $(wc -l < $O/sass_$1_$2.csv)" | tee -a $O/summary.txt
  ncu -i $O/src_$1_$2.ncu-rep --page details --csv > $O/details_$1_$2.csv 2>/dev/null
  gzip -f $O/sass_$1_$2.csv; rm -f $O/src_$1_$2.ncu-rep
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
