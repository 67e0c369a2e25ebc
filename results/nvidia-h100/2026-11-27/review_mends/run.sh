#!/usr/bin/env bash
# Call 9: after the review mends (one contracted solve path for host and GPU
# cores; the interleaved plan as its own branch): contraction and app tests,
# the multisplit API and device-count suites, chain.gr and the roads.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c9.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/c9bins.tar.xz -C "$R"
D=/work/shared/datasets/road
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/device.txt
for t in test_sssp_contraction test_app_end_to_end test_multisplit_api test_multisplit_device_count; do
  timeout 150 build/tests/$t > $O/$t.log 2>&1; echo "$t rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/$t.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" $O/$t.log | head -5
done
save
timeout 30 build/sssp --graph $D/chain.gr --validate --runs 9 > $O/sssp_chain.txt 2>&1; echo "chain rc $?"; grep -E "solved on the host|^bellman|^near-far|validation" $O/sssp_chain.txt
timeout 60 build/src/contraction_bench --runs 5 --sources 4 --seed 1 $D/chain.gr $D/andorra_osm.mtx $D/rome99.gr > $O/roads.md 2>&1; echo "roads rc $?"; grep -E "gpu near-far" $O/roads.md
echo "done at ${SECONDS}s"; save
