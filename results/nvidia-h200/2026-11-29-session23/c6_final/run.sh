#!/usr/bin/env bash
# Session 23, call 6: d63b8b4 (ms_fin, sort_fin) against main before it
# (363904f: ms_main, sort_main): pairs at 128-1024 buckets, 2^21-2^28;
# the pair sort at 2^20-2^28; scripts/bench_multisplit.sh (multisplit and
# sort tables for docs/BENCHMARKS.md).
set -uo pipefail
R=$PWD; O=/tmp/o23c6; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c5.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block cub --kinds pairs --buckets 128 176 200 256 361 450 480 1024 --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3; local B=$V/$b; [ $b = ms_fin ] && B=$V/build/multisplit/multisplit_bench
  timeout 60 $B --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do run_ms ms_main 28 $r; run_ms ms_fin 28 $r; done
for n in 25 22 21; do run_ms ms_main $n 1; run_ms ms_fin $n 1; done
save
for r in 1 2; do for b in sort_main sort_fin; do B=$V/$b; [ $b = sort_fin ] && B=$V/build/multisplit/sort_bench
  timeout 120 $B --n-log2 20 21 22 23 24 25 26 27 28 --radix-bits 7 8 --kinds pairs --runs 10 --warmup 3 > $O/${b}_$r.txt 2>&1
  echo "$b r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save; done; done
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 300 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
