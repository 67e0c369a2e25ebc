#!/usr/bin/env bash
# Randomized stress of the GPU solver: N random graphs (shapes, sizes, weights,
# sources, delta and bucket count all drawn from SEED), each solved by every
# strategy under every load balance, with the single-block loop on and off,
# and compared with Dijkstra. Builds sssp_stress first where needed, in
# $SSSP_BUILD_DIR (default build/), installing missing packages like test.sh.
#   scripts/stress.sh 500                 # a fresh random seed, printed
#   scripts/stress.sh 500 42              # the same 500 graphs every time
#   scripts/stress.sh 200 42 --max-vertices 2000 --verbose   # more options go to sssp_stress
# A failing graph prints its seed; replay it alone with
#   build/tests/sssp_stress --only-seed SEED --max-vertices V
# The last line is "P passed, F failed (K also through PHAST)". Exit status: 0 every graph passed,
# 1 some failed, 2 bad arguments or no GPU.
set -euo pipefail
usage="usage: scripts/stress.sh N [SEED] [sssp_stress options...]"
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -eq 0 ]; then
  echo "$usage" >&2
  exit 2
fi
graphs="$1"
shift
args=(--graphs "$graphs")
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then
  args+=(--seed "$1")
  shift
fi

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sssp_prepare sssp_stress >&2  # only this target (older common.sh: everything)
exec "$SSSP_BUILD_DIR/tests/sssp_stress" "${args[@]}" "$@"
