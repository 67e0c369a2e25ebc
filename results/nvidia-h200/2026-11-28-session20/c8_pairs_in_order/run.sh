#!/usr/bin/env bash
# Call 8: pair tiles taken in order from a counter after the first round
# (keys as on main), the final build: multisplit_bench against main
# (ms_fin, a55baf2) for pairs at 64-1024 buckets, 2^28, 2^27 and 2^25;
# scripts/bench_multisplit.sh for the multisplit and sort tables
# (histogram and reduce do not use the post-scan: their tables stay those
# of a55baf2); the pair split tests (the compact subsets under the
# sanitizers would not reach a second round of tiles; sort_bench checks
# every sort it times against CUB's).
set -uo pipefail
R=$PWD; O=/tmp/o20c8; rm -rf $O; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
save() { tar czf $OUT/c8.tgz -C $O .; }
tar xJf .carry/c8.tar.xz -C "$R"
V=$R/var; B=$R/build/multisplit
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --buckets 64 100 128 200 256 361 512 768 1024 --kinds pairs --runs 10 --warmup 3"
for r in 1 2; do
  timeout 90 $V/ms_fin --n-log2 28 $A > $O/ms_fin_28_$r.txt 2>&1; echo "ms_fin 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  timeout 90 $B/multisplit_bench --n-log2 28 $A > $O/ms_new_28_$r.txt 2>&1; echo "ms_new 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
for n in 27 25; do
  timeout 60 $V/ms_fin --n-log2 $n $A > $O/ms_fin_${n}_1.txt 2>&1; echo "ms_fin $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  timeout 60 $B/multisplit_bench --n-log2 $n $A > $O/ms_new_${n}_1.txt 2>&1; echo "ms_new $n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$R/build MULTISPLIT_BENCHES="multisplit sort"
timeout 200 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
for t in test_multisplit_pairs; do
  timeout 150 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
