#!/usr/bin/env bash
# Call 2: whole tiles in a kernel of their own from a bucket count on.
# ms_base (main), ms_b (keys from 257, pairs from 512), ms_w33 (from 33,
# every warp-ranked tile). Then main's full bench_multisplit.sh and the
# small-n bench (the tables of docs/BENCHMARKS.md on this card).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
save() { tar czf $OUT/c2.tgz -C $O .; }
tar xJf .carry/c2bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 40 64 100 128 256 361 512 768 1024 2048 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_base ms_b ms_w33; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_base ms_b ms_w33; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$R/build
timeout 300 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
save
timeout 120 $R/build/multisplit/multisplit_small_n_bench --kinds keys pairs --json $O/small_n.json > $O/small_n.txt 2>&1; echo "small_n rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
