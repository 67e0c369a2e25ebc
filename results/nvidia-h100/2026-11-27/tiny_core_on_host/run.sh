#!/usr/bin/env bash
# Device run 7: tiny contraction cores solved on the host. The SSSP and app
# GPU tests (ctest -L gpu without the unchanged multisplit suites), the app's
# end-to-end tests, the chain road and the five roads, stress on 1000 graphs.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run7.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/allbins.tar.xz -C "$R"
D=/work/shared/datasets/road
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 300 ctest --test-dir /work/main/build -L gpu -E "^Multisplit" -j4 --timeout 280 > $O/ctest_gpu.log 2>&1; echo "ctest rc $? at ${SECONDS}s"
grep -E "tests passed|tests failed|Failed|\*\*\*|Not Run|Timeout" $O/ctest_gpu.log | head -20
save
for t in test_app_end_to_end test_app_batch_end_to_end test_app_hostile; do
  timeout 120 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
done
for i in 1 2; do
  timeout 30 build/sssp --graph $D/chain.gr --validate --runs 9 --json $O/sssp_chain_$i.json > $O/sssp_chain_$i.txt 2>&1; echo "sssp chain rc $?"
  grep -E "^contract|solved on the host|strategy  |^bellman|^near-far|validation" $O/sssp_chain_$i.txt
done
timeout 30 build/sssp --graph $D/chain.gr --device cpu --strategy delta-stepping --validate --runs 9 > $O/sssp_chain_cpu.txt 2>&1; echo "cpu rc $?"
grep -E "^delta-stepping|validation" $O/sssp_chain_cpu.txt
timeout 90 build/src/contraction_bench --runs 5 --sources 4 --seed 1 $D/chain.gr $D/DE.gr $D/luxembourg_osm.mtx $D/andorra_osm.mtx $D/amsterdam-roads.mtx $D/rome99.gr > $O/roads.md 2>&1
echo "roads rc $?"; grep -E "^## |gpu near-far|cpu delta|best contracted" $O/roads.md | cut -c1-130
save
left=$((570 - SECONDS)); echo "stress with ${left}s left"
timeout $left build/tests/sssp_stress --graphs 1000 --seed 35001 > $O/stress.log 2>&1; echo "rc $?"; tail -2 $O/stress.log
echo "done at ${SECONDS}s"; save
