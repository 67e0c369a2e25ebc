#!/usr/bin/env bash
# Call 7: the final build: scripts/bench_multisplit.sh (full) and the small-n
# bench (the multisplit tables of docs/BENCHMARKS.md), the split and
# device-count GPU tests, memcheck and racecheck on the compact split subsets.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
save() { tar czf $OUT/c7.tgz -C $O .; }
tar xJf .carry/c7bins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$R/build
timeout 300 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
timeout 120 $R/build/multisplit/multisplit_small_n_bench --kinds keys pairs --json $O/small_n.json > $O/small_n.txt 2>&1; echo "small_n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
V=$R/var
for t in test_multisplit_keys test_multisplit_pairs test_multisplit_device_count; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
done
save
sub=(
  "test_multisplit_keys --gtest_filter=MultisplitKeysCompact.*"
  "test_multisplit_pairs --gtest_filter=MultisplitPairsCompact.*"
)
for tool in memcheck racecheck synccheck; do
  for s in "${sub[@]}"; do
    read -r exe args <<< "$s"
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 $V/$exe $args > $O/san_${tool}_$exe.txt 2>&1; rc=$?
    echo "$tool $exe rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards displayed)' $O/san_${tool}_$exe.txt | tail -1)" | tee -a $O/summary.txt
  done
  save
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $V/test_multisplit_device_count > $O/san_memcheck_device_count.txt 2>&1
echo "memcheck device_count rc $? at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_device_count.txt | tail -1)" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
