#!/usr/bin/env bash
# Quick start, part 1: build (installing what is missing) and run the main job.
# With no arguments: every SSSP strategy on a built-in generated graph,
# validated against Dijkstra. Any arguments are passed to `sssp` instead.
#   scripts/run.sh
#   scripts/run.sh --graph road.mtx --source 1 --strategy all --validate
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sssp_prepare sssp >&2  # only the command this script runs; scripts/test.sh builds everything
if [ $# -eq 0 ]; then
  set -- --generate rmat:18:16 --random-sources 4 --strategy all --validate
fi
exec "$SSSP_BUILD_DIR/sssp" "$@"
