#!/usr/bin/env bash
# Call 6: the other multisplit GPU suites and the SSSP tests that run the
# bucketing strategies (they call split_keys), on the final build.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/c6bins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_multisplit_block test_multisplit_grid test_multisplit_small_n test_multisplit_histogram test_multisplit_reduce test_sssp_random_graphs test_sssp_batch test_app_end_to_end; do
  timeout 200 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
  save
done
left=$((520 - SECONDS)); echo "stress with ${left}s left"
timeout $left build/tests/sssp_stress --graphs 600 --seed 37001 > $O/stress.log 2>&1; echo "stress rc $?"; tail -2 $O/stress.log
echo "done at ${SECONDS}s"; save
