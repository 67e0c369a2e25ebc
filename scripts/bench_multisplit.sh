#!/usr/bin/env bash
# Multisplit benchmarks, one command, in this order:
#   multisplit_bench: every multisplit method (direct/DMS, warp/WMS, block/BMS,
#     RB-sort, auto) against CUB radix sort and DevicePartition, keys and
#     key-value pairs, delta and identity buckets (Ashkiani et al., GPU
#     Multisplit, PPoPP 2016, Figures 6 and 7);
#   sort_bench: multisplit radix sort (sort_keys/sort_pairs and its tunings)
#     against cub::DeviceRadixSort, keys and pairs;
#   histogram_bench: multisplit::histogram against cub::DeviceHistogram
#     (even and range buckets; uniform, skewed and constant samples);
#   reduce_bench: multisplit::reduce_by_bucket against sort + ReduceByKey and
#     global atomics (uniform and one-bucket labels).
#
#   scripts/bench_multisplit.sh           # every benchmark's defaults: multisplit n = 2^25 and 2^28,
#                                         # 13 bucket counts; sort n = 2^25 and 2^28, r = 4..8;
#                                         # histogram and reduce n = 2^25, m = 2..256 (several minutes)
#   scripts/bench_multisplit.sh --quick   # n = 2^25 only; multisplit m = 2 8 32 256 1024, sort r = 4 6 8,
#                                         # histogram and reduce m = 2 8 32 256 (well under 3 minutes)
#   scripts/bench_multisplit.sh -- --runs 50   # after --: extra options given to EVERY benchmark
#                                         # (--runs, --warmup; not one the mode already sets)
#
# Writes into results/<device>/<YYYY-MM-DD>/ (device from nvidia-smi), for
# NAME = multisplit, multisplit_sort, multisplit_histogram, multisplit_reduce:
#   NAME.json, NAME.txt        all measurements / the printed tables
#   NAME.meta.json, NAME.log   how they were made (command, commit, date), stderr
# Then: scripts/plot_results.py DIR and scripts/make_benchmarks_doc.py DIR.
# A benchmark that fails does not stop the others; the exit status is the
# first failure's (0 when all succeed).
#
# Refuses (exit 2) where no GPU is present. Environment: SSSP_BUILD_DIR
# (prebuilt build folder, default build/; its multisplit/<bench> binaries are
# used as they are, each built only if missing), SSSP_RESULTS (default
# results/), MULTISPLIT_BENCHES (which to run, default
# "multisplit sort histogram reduce").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_parse_args bench_multisplit.sh multisplit_bench "$@"

bench_require_gpu bench_multisplit.sh

# short name -> benchmark target and results name
declare -A target=([multisplit]=multisplit_bench [sort]=sort_bench [histogram]=histogram_bench [reduce]=reduce_bench)
declare -A result=([multisplit]=multisplit [sort]=multisplit_sort [histogram]=multisplit_histogram
                   [reduce]=multisplit_reduce)
read -r -a benches <<<"${MULTISPLIT_BENCHES:-multisplit sort histogram reduce}"
declare -A binary=()
for b in "${benches[@]}"; do
  if [ -z "${target[$b]:-}" ]; then
    echo "bench_multisplit.sh: MULTISPLIT_BENCHES: unknown benchmark '$b' (multisplit sort histogram reduce)" >&2
    exit 2
  fi
  bench_binary "multisplit/${target[$b]}" "${target[$b]}"
  binary[$b]=$bench_bin
done
bench_results_dir

# Quick: n = 2^25 and fewer bucket counts (digit widths for the sort). Full:
# each benchmark's own defaults (see its --help), so that options after --
# never repeat one given here.
bench_args() {
  args=()
  [ "$mode" = quick ] || return 0
  case "$1" in
    multisplit) args=(--n-log2 25 --buckets 2 8 32 256 1024) ;;
    sort) args=(--n-log2 25 --radix-bits 4 6 8) ;;
    histogram | reduce) args=(--n-log2 25 --buckets 2 8 32 256) ;;
  esac
}

status=0
for b in "${benches[@]}"; do
  name=${result[$b]}
  bench_args "$b"
  cmd=("${binary[$b]}" "${args[@]}" --json "$bench_out/$name.json" "${extra[@]}")
  echo "== $name: ${cmd[*]}" >&2
  t0=$SECONDS
  rc=0
  "${cmd[@]}" 2> >(tee "$bench_out/$name.log" >&2) | tee "$bench_out/$name.txt" || rc=$?
  bench_meta "$bench_out/$name.meta.json" "$name" "$mode" "$script_cmd" "$rc" "$((SECONDS - t0))" "${cmd[@]}"
  echo "== $name: exit $rc after $((SECONDS - t0)) s; results in $bench_out" >&2
  if [ "$rc" -ne 0 ]; then
    echo "bench_multisplit.sh: ${target[$b]} failed (exit $rc); see $bench_out/$name.log" >&2
    [ "$status" -ne 0 ] || status=$rc
  fi
done
exit "$status"
