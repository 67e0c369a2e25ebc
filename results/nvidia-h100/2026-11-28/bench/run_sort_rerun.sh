#!/usr/bin/env bash
# Call 9: bench_multisplit.sh's sort part after the n-dependent digit width.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
tar xJf .carry/c9bins.tar.xz -C "$R"
export SSSP_GIT_COMMIT=$(cat .carry/commit.txt) SSSP_RESULTS=$O/res MULTISPLIT_BENCHES=sort
timeout 200 scripts/bench_multisplit.sh > $O/bench_sort.log 2>&1; echo "rc $? at ${SECONDS}s"; tail -2 $O/bench_sort.log
tar czf $OUT/c9.tgz -C $O .
