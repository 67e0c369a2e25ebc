#!/usr/bin/env bash
# Call 1: branch tiny-core-on-host (test_sssp_contraction, app e2e, chain,
# roads contraction_bench, stress) and the small-n latency table again.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c1.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/c1bins.tar.xz -C "$R"
D=/work/shared/datasets/road
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_sssp_contraction test_app_end_to_end; do
  timeout 200 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]|SKIPPED \]" $O/$t.log | head -5
done
save
for i in 1 2; do
  timeout 30 build/sssp --graph $D/chain.gr --validate --runs 9 > $O/sssp_chain_$i.txt 2>&1; echo "sssp chain rc $?"
  grep -E "solved on the host|^near-far|^auto|validation|total" $O/sssp_chain_$i.txt | head -6
done
timeout 120 build/src/contraction_bench --runs 5 --sources 4 --seed 1 $D/chain.gr $D/DE.gr $D/luxembourg_osm.mtx $D/andorra_osm.mtx $D/amsterdam-roads.mtx $D/rome99.gr > $O/roads.md 2>&1
echo "roads rc $?"; grep -E "^## |gpu near-far|cpu delta|best contracted|host" $O/roads.md | cut -c1-150 | head -40
save
timeout 120 build/multisplit/multisplit_small_n_bench --kinds keys pairs > $O/small_n.txt 2>&1; echo "small_n rc $?"; grep -E "^\| 2\^" $O/small_n.txt
save
timeout 200 build/tests/sssp_stress --graphs 400 --seed 36001 > $O/stress.log 2>&1; echo "stress rc $?"; tail -2 $O/stress.log
echo "done at ${SECONDS}s"; save
