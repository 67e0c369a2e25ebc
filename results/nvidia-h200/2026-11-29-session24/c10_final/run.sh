#!/usr/bin/env bash
# Session 24, call 10: the final commit (commit.txt, 8bcb16b: keys back to
# one interleaved kernel with the whole-tile path; every key kernel's SASS
# is ea2d278's, every pair kernel's ea483ed's): the key tests, memcheck and
# racecheck on them, scripts/bench_multisplit.sh (docs/BENCHMARKS.md).
set -uo pipefail
R=$PWD; O=/tmp/o24c10; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c10.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c10.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt; cat $V/commit.txt | tee -a $O/device.txt
t() { local name=$1 lim=$2; shift 2
  timeout $lim $V/$name "$@" > $O/$name.txt 2>&1; rc=$?
  echo "$name rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]' $O/$name.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$name.txt)" | tee -a $O/summary.txt; save; }
san() { local tool=$1 name=$2 tag=$3 lim=$4; shift 4
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $V/$name "$@" > $O/san_${tool}_${name}_$tag.txt 2>&1; rc=$?
  echo "$tool $name $tag rc $rc at ${SECONDS}s: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors|hazards displayed)' $O/san_${tool}_${name}_$tag.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $O/san_${tool}_${name}_$tag.txt | tr '\n' ' ')" | tee -a $O/summary.txt; save; }
san memcheck test_multisplit_keys compact 120 --gtest_filter='*Compact.*'
san racecheck test_multisplit_keys every 150 --gtest_filter='*Compact.EveryCodePath'
export SSSP_GIT_COMMIT=$(cat $V/commit.txt) SSSP_RESULTS=$O/res SSSP_BUILD_DIR=$V/build MULTISPLIT_BENCHES="multisplit sort"
timeout 200 scripts/bench_multisplit.sh > $O/bench.log 2>&1; echo "bench rc $? at ${SECONDS}s" | tee -a $O/summary.txt; save
t test_multisplit_keys 80
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
