#!/usr/bin/env bash
# Session 24, call 5: the commit in commit.txt (the lean pre-scan count and
# padded count-matrix rows) against main before the session (ms_main,
# b0858f6) and a variant of it interleaving from 100 keys / 40 pairs
# (ms_iv: -DMULTISPLIT_INTERLEAVED_MIN_KEY_BUCKETS=100
# -DMULTISPLIT_INTERLEAVED_MIN_PAIR_BUCKETS=40); the multisplit, sort and
# multisplit GPU tests (the SSSP ones: call 6); memcheck and racecheck on the pre-scans' tests;
# scripts/bench_multisplit.sh.
set -uo pipefail
R=$PWD; O=/tmp/o24c5; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c5.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c5.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
A="--functors delta identity --methods block cub --buckets 40 64 100 128 200 256 361 512 768 1024 --kinds keys pairs --runs 10 --warmup 3"
run_ms() { local b=$1 n=$2 r=$3; local B=$V/$b; [ $b = ms_fin ] && B=$V/build/multisplit/multisplit_bench
  timeout 90 $B --n-log2 $n $A > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for r in 1 2; do for b in ms_main ms_fin ms_iv; do run_ms $b 28 $r; done; save; done
for n in 25 22; do for b in ms_main ms_fin ms_iv; do run_ms $b $n 1; done; save; done
timeout 60 $V/build/multisplit/multisplit_bench --n-log2 28 --keys constant --functors delta --methods block auto cub --buckets 40 64 128 256 512 1024 --kinds keys pairs --runs 10 --warmup 3 > $O/ms_fin_28_constant.txt 2>&1; echo "constant rc $? at ${SECONDS}s" | tee -a $O/summary.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_pairs compact 120 --gtest_filter='*Compact.*:*Temp*'
san memcheck test_multisplit_keys compact 120 --gtest_filter='*Compact.*'
san memcheck test_multisplit_device_count small 100 --gtest_filter='*SmallMaxItems:*ZeroMaxItems*:*GraphCaptureReplays*'
san racecheck test_multisplit_keys every 150 --gtest_filter='*Compact.EveryCodePath'
t test_multisplit_device_count 90
t test_multisplit_sort 80
t test_multisplit_api 30
t test_multisplit_grid 30
t test_multisplit_small_n 30
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 200 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
t test_multisplit_pairs 200
t test_multisplit_keys 80
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
