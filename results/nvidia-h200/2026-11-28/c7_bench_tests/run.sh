#!/usr/bin/env bash
# Call 7: scripts/bench_multisplit.sh (full) and the small-n bench at the
# final commit; then the rest of the GPU tests (block and grid collectives,
# SmallN, histogram, reduce, the SSSP engine).
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
for t in test_multisplit_block test_multisplit_grid test_multisplit_small_n test_multisplit_histogram test_multisplit_reduce test_sssp_engine; do
  timeout 200 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c SKIPPED $O/$t.txt)" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
