#!/usr/bin/env bash
# Session 23, call 9: the commit in commit.txt (the 512- and 384-thread pair tiles; see
# commit.txt) against main before the session (ms_main): pairs 128-1024
# buckets at 2^28 twice, 2^25, 2^22; the pair, device-count, sort, API, key
# and SSSP tests; memcheck and racecheck on the compact and temp-size pair
# tests; scripts/bench_multisplit.sh.
set -uo pipefail
R=$PWD; O=/tmp/o23c9; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c9.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
A="--functors delta identity --methods block cub --kinds pairs --buckets 128 176 256 361 450 480 512 600 768 900 1024 --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3; local B=$V/$b; [ $b = ms_fin ] && B=$V/build/multisplit/multisplit_bench
  timeout 60 $B --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do run_ms ms_main 28 $r; run_ms ms_fin 28 $r; done
for n in 25 22; do run_ms ms_main $n 1; run_ms ms_fin $n 1; done
save
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_pairs compact 120 --gtest_filter='*Compact.*:*Temp*'
san racecheck test_multisplit_pairs wide 120 --gtest_filter='*Compact.WidePairTile'
t test_multisplit_device_count 90
t test_multisplit_sort 80
t test_multisplit_api 30
t test_sssp_random_graphs 40
t test_sssp_engine 30
t test_sssp_batch 30
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 200 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
t test_multisplit_pairs 200
t test_multisplit_keys 80
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
