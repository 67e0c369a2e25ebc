#!/usr/bin/env bash
# Multisplit benchmark, one command: every multisplit method (direct/DMS,
# warp/WMS, block/BMS, RB-sort, auto) against CUB radix sort and
# DevicePartition, keys and key-value pairs, delta and identity buckets
# (Ashkiani et al., GPU Multisplit, PPoPP 2016, Figures 6 and 7).
#
#   scripts/bench_multisplit.sh           # n = 2^25 and 2^28, 13 bucket counts (a few minutes)
#   scripts/bench_multisplit.sh --quick   # n = 2^25, m = 2 8 32 256 1024 (well under 3 minutes)
#   scripts/bench_multisplit.sh -- --runs 50   # after --: extra multisplit_bench options
#
# Writes into results/<device>/<YYYY-MM-DD>/ (device from nvidia-smi):
#   multisplit.json, multisplit.txt   all measurements / the printed tables
#   multisplit.meta.json, .log        how they were made (command, commit, date), stderr
# Then: scripts/plot_results.py DIR and scripts/make_benchmarks_doc.py DIR.
#
# Refuses (exit 2) where no GPU is present. Environment: SSSP_BUILD_DIR
# (prebuilt build folder, default build/; its multisplit/multisplit_bench is
# used as is, built only if missing), SSSP_RESULTS (default results/).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_parse_args bench_multisplit.sh multisplit_bench "$@"

bench_require_gpu bench_multisplit.sh
bench_binary multisplit/multisplit_bench multisplit_bench
bench_results_dir

if [ "$mode" = quick ]; then
  args=(--n-log2 25 --buckets 2 8 32 256 1024 --kinds keys pairs --functors delta identity --runs 20)
else
  args=(--n-log2 25 28 --buckets 2 4 8 16 32 64 128 256 40 100 361 1024 4096 --kinds keys pairs
        --functors delta identity --runs 20)
fi
cmd=("$bench_bin" "${args[@]}" --json "$bench_out/multisplit.json" "${extra[@]}")
echo "== multisplit: ${cmd[*]}" >&2
t0=$SECONDS
rc=0
"${cmd[@]}" 2> >(tee "$bench_out/multisplit.log" >&2) | tee "$bench_out/multisplit.txt" || rc=$?
bench_meta "$bench_out/multisplit.meta.json" multisplit "$mode" "$script_cmd" "$rc" "$((SECONDS - t0))" "${cmd[@]}"
echo "== multisplit: exit $rc after $((SECONDS - t0)) s; results in $bench_out" >&2
[ "$rc" -eq 0 ] || echo "bench_multisplit.sh: multisplit_bench failed (exit $rc); see $bench_out/multisplit.log" >&2
exit "$rc"
