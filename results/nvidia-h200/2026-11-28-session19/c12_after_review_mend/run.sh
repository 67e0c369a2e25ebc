#!/usr/bin/env bash
# Call 12: after the review mend (77d4c48: interleaving threshold in
# Policies, tiles' full_tile_path, shared_address in cp.async, divide
# without apply; identical SASS for the delta/identity key and delta pair
# splits): the split, API and small-n tests, memcheck on the compact pair
# subset, and a short multisplit_bench against 6fde04c.
set -uo pipefail
R=$PWD; O=/tmp/o12; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c12.tgz -C $O .; }
tar xJf .carry/c12bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta --methods block auto cub --buckets 2 8 128 256 --kinds keys pairs --runs 10 --warmup 3"
for b in ms_new ms_mend; do
  timeout 60 $V/$b --n-log2 28 $A > $O/${b}_28_1.txt 2>&1; echo "$b 28 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
for t in test_multisplit_api test_multisplit_small_n test_multisplit_keys test_multisplit_pairs; do
  timeout 150 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $V/test_multisplit_pairs --gtest_filter='MultisplitPairsCompact.*' > $O/san_memcheck_pairs.txt 2>&1
echo "memcheck pairs compact rc $? at ${SECONDS}s: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' $O/san_memcheck_pairs.txt | tail -1)" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
