#!/usr/bin/env bash
# Multisplit benchmark (issue 3's tables): builds multisplit_bench if needed
# and runs it, keeping the text table and the JSON under results/.
#   scripts/bench_multisplit.sh                      # full paper-style run
#   scripts/bench_multisplit.sh --n-log2 25 --buckets 2 32 256 --runs 20
# Needs a CUDA GPU; extra arguments go to multisplit_bench (see --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sssp_install_packages >&2 && sssp_find_nvcc >&2
if [ ! -f "$SSSP_BUILD_DIR/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  cmake -S "$SSSP_ROOT" -B "$SSSP_BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$SSSP_BUILD_DIR" --target multisplit_bench --parallel "${SSSP_JOBS:-$(nproc)}" >&2
results="$SSSP_ROOT/results"
mkdir -p "$results"
stamp="$(date +%Y%m%d-%H%M%S)"
"$SSSP_BUILD_DIR/multisplit/multisplit_bench" --json "$results/multisplit_bench-$stamp.json" "$@" |
  tee "$results/multisplit_bench-$stamp.txt"
echo "results: $results/multisplit_bench-$stamp.{txt,json}" >&2
