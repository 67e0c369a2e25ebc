#!/usr/bin/env bash
# Device run 3: the rest of the full benchmark set on the same kind of card:
# multisplit benches, the small-n table, bench_sssp.sh parts large, balance,
# batch and cpu.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/run3.tgz -C $O .; }
if [ "$R" != /work/main ]; then mkdir -p /work; rm -rf /work/main; ln -s "$R" /work/main; fi
mkdir -p /work/shared && tar xJf .carry/datasets.tar.xz -C /work/shared
tar xJf .carry/benchbins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
export SSSP_GIT_COMMIT=ab3bee8 SSSP_RESULTS=$O/res SSSP_DATASETS=/work/shared/datasets
timeout 120 scripts/bench_multisplit.sh > $O/ms.log 2>&1; echo "multisplit rc $? at ${SECONDS}s"; tail -2 $O/ms.log; save
mkdir -p $O/small_n
timeout 60 build/multisplit/multisplit_small_n_bench --kinds keys pairs --json $O/small_n/small_n.json > $O/small_n/small_n.txt 2>&1
echo "small_n rc $? at ${SECONDS}s"; save
for p in large balance batch cpu; do
  left=$((585 - SECONDS)); [ $left -lt 20 ] && break
  SSSP_BENCH_PARTS=$p timeout $left scripts/bench_sssp.sh > $O/bench_$p.log 2>&1; echo "$p rc $? at ${SECONDS}s"; save
done
echo "done at ${SECONDS}s"
