#!/usr/bin/env bash
# Device run 2: bench_sssp.sh parts main, sweep, roads (full mode); the chain
# road; the randomized stress on 1,000 graphs.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run2.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/allbins.tar.xz -C "$R"
D=/work/shared/datasets/road
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
echo "=== bench_sssp.sh main sweep roads"
SSSP_GIT_COMMIT=ab3bee8 SSSP_BENCH_PARTS="main sweep roads" SSSP_RESULTS=$O/res SSSP_DATASETS=/work/shared/datasets \
  timeout 300 scripts/bench_sssp.sh > $O/bench.log 2>&1; echo "rc $? at ${SECONDS}s"; tail -5 $O/bench.log
save
timeout 30 build/src/contraction_bench --runs 5 --sources 4 --seed 1 $D/chain.gr > $O/chain.md 2>&1
echo "chain rc $?"; grep -E "^## |gpu near-far|cpu delta|best contracted" $O/chain.md | cut -c1-160
timeout 30 build/sssp --graph $D/chain.gr --validate --runs 5 > $O/sssp_chain.txt 2>&1; echo "sssp chain rc $?"; head -30 $O/sssp_chain.txt
save
left=$((575 - SECONDS)); echo "=== stress, ${left}s left"
timeout $left build/tests/sssp_stress --graphs 1000 --seed 33001 > $O/stress.log 2>&1; echo "rc $?"; tail -3 $O/stress.log
echo "done at ${SECONDS}s"; save
