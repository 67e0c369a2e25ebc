#!/usr/bin/env bash
# SSSP benchmark: every GPU strategy (near-far, bucket-sort, bucket-multisplit,
# bellman-ford) and the CPU delta-stepping on generated graphs sized for the
# GPU and on the shared real graphs; writes a markdown table and JSON.
#
#   scripts/bench_sssp.sh                 # standard set, results in results/
#   SSSP_BENCH_QUICK=1 scripts/bench_sssp.sh   # small graphs only (a smoke run)
#
# Weights: generated graphs and files without weights get the multisplit
# paper's rule, uniform integers 1..1000 (random:1:1000, seed 1); road files
# keep their own weights. Environment: SSSP_BENCH (the sssp_bench binary;
# default build/src/sssp_bench, built if missing), SSSP_DATASETS (default
# ../shared/datasets), SSSP_RESULTS (default results/), SSSP_BENCH_RUNS (5).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${SSSP_BENCH:-$root/build/src/sssp_bench}"
if [ ! -x "$bench" ]; then
  source "$root/scripts/common.sh"
  sssp_install_packages && sssp_find_nvcc
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$root/build" --target sssp_bench --parallel "${SSSP_JOBS:-$(nproc)}"
  bench="$root/build/src/sssp_bench"
fi
data="${SSSP_DATASETS:-$root/../shared/datasets}"
out="${SSSP_RESULTS:-$root/results}"
runs="${SSSP_BENCH_RUNS:-5}"
mkdir -p "$out"

args=(--runs "$runs" --weights random:1:1000 --seed 1)
if [ "${SSSP_BENCH_QUICK:-0}" = 1 ]; then
  args+=(--generate rmat:16:16 --generate grid:256:256 --generate urand:65536:16)
else
  args+=(--generate rmat:20:16 --generate rmat:21:16 --generate rmat:22:16
         --generate grid:2048:2048 --generate urand:1048576:16)
fi
# FILE[@RULE]: cond-mat's own weights include inf, so it gets the rule too.
for f in road/DE.gr road/rome99.gr road/andorra_osm.mtx road/amsterdam-roads.mtx road/luxembourg_osm.mtx \
         social/email-Enron.mtx social/pgp-strong-2009.mtx social/cond-mat-2005.mtx@random:1:1000 mesh/copter2.mtx; do
  if [ -f "$data/${f%@*}" ]; then args+=(--graph "$data/$f"); else echo "skipping $f: not found under $data" >&2; fi
done
stamp="$(date +%Y%m%d-%H%M%S)"
"$bench" "${args[@]}" --json "$out/sssp_bench-$stamp.json" --markdown "$out/sssp_bench-$stamp.md" "$@"
echo "wrote $out/sssp_bench-$stamp.md and .json" >&2
