#!/usr/bin/env bash
# Call 5: the final build (a55baf2): scripts/bench_multisplit.sh (full) and
# the small-n bench (the multisplit tables of docs/BENCHMARKS.md); the
# device-count, small-n, block and grid GPU tests and memcheck on the first
# two; ncu warp states of the key post-scan at m = 8. (Call 6: the rest.)
set -uo pipefail
R=$PWD; O=/tmp/o20c5; rm -rf $O; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
save() { tar czf $OUT/c5.tgz -C $O .; }
tar xJf .carry/c5.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$R/build
timeout 300 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
timeout 120 $R/build/multisplit/multisplit_small_n_bench --kinds keys pairs --json $O/small_n.json > $O/small_n.txt 2>&1; echo "small_n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
for t in test_multisplit_device_count test_multisplit_small_n test_multisplit_block test_multisplit_grid; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
sub=(
  "test_multisplit_device_count"
  "test_multisplit_small_n"
)
for s in "${sub[@]}"; do
  read -r exe args <<< "$s"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $V/$exe $args > $O/san_memcheck_$exe.txt 2>&1; rc=$?
  echo "memcheck $exe rc $rc at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_$exe.txt | tail -1)" | tee -a $O/summary.txt
done
save
timeout 90 ncu -k regex:postscan --section WarpStateStats --section SpeedOfLight --section Occupancy --section LaunchStats \
  $R/build/multisplit/multisplit_bench --n-log2 26 --buckets 8 --kinds keys --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_keys8.txt 2>&1
echo "ncu rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
