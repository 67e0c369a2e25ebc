#!/usr/bin/env bash
# Scale run: the largest generated graphs this machine holds, each
# solved on the GPU with its memory use and times, then a clear refusal of the
# size above what fits. Needs a GPU machine and a built `sssp`.
#
#   scripts/scale_run.sh [--out DIR] [--validate] SPEC... [--refuse SPEC]
#
#   SPEC       generator specs, e.g. rmat:25:16 rmat:26:16 (run in order)
#   --validate compare every result with CPU Dijkstra (minutes at 10^9 arcs)
#   --refuse   a spec that must be refused cleanly: exit 2, one "sssp:" line,
#              before anything large is allocated
#   --out DIR  where logs and JSON records go (default: a fresh temporary folder)
#
# Environment: SSSP_BUILD_DIR (default build/), SSSP_SCALE_STRATEGIES (default
# near-far,bucket-sort,bucket-multisplit,bellman-ford), SSSP_SCALE_RUNS (default 3),
# SSSP_SCALE_SOURCES (default 2: random sources among vertices with out-arcs;
# R-MAT's vertex 0 is often isolated).
# Prints, per spec, the graph size, generate and upload times, GPU and host
# memory, and the per-strategy solve times; exits 1 if any run fails or the
# refusal is not clean.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sssp="${SSSP_BUILD_DIR:-$root/build}/sssp"
strategies="${SSSP_SCALE_STRATEGIES:-near-far,bucket-sort,bucket-multisplit,bellman-ford}"
runs="${SSSP_SCALE_RUNS:-3}"
sources="${SSSP_SCALE_SOURCES:-2}"
out="" validate=() specs=() refuse=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift ;;
    --validate) validate=(--validate) ;;
    --refuse) refuse="$2"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scale_run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) specs+=("$1") ;;
  esac
  shift
done
[ -x "$sssp" ] || { echo "scale_run.sh: $sssp not built (set SSSP_BUILD_DIR)" >&2; exit 2; }
[ ${#specs[@]} -gt 0 ] || [ -n "$refuse" ] || { echo "scale_run.sh: no SPEC given (see --help)" >&2; exit 2; }
out="${out:-$(mktemp -d)}"
mkdir -p "$out"
status=0

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1e6}' /proc/meminfo) host memory;" \
  "$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)"
for spec in "${specs[@]}"; do
  name="scale_${spec//:/_}"
  start=$(date +%s)
  echo "== $spec (strategies $strategies, $sources random sources, $runs timed runs after a warm-up${validate:+, validated})"
  if "$sssp" --generate "$spec" --strategy "$strategies" --random-sources "$sources" --runs "$runs" "${validate[@]}" -v \
       --json "$out/$name.json" > "$out/$name.log" 2>&1; then
    rc=0
  else
    rc=$?
    status=1
  fi
  # The full (-v) report's header and memory lines, then the per-strategy table.
  grep -E '^(vertices|arcs|generate|upload|gpu memory|host memory|validation) ' "$out/$name.log" || true
  sed -n '/^comparison/,/^$/p' "$out/$name.log"
  echo "   exit $rc, $(( $(date +%s) - start )) s wall (log $out/$name.log)"
  [ "$rc" -eq 0 ] || tail -3 "$out/$name.log"
done

if [ -n "$refuse" ]; then
  echo "== $refuse (must be refused)"
  start=$(date +%s)
  set +e
  "$sssp" --generate "$refuse" --strategy near-far > "$out/refuse.out" 2> "$out/refuse.err"
  rc=$?
  set -e
  cat "$out/refuse.err"
  if [ "$rc" -eq 2 ] && [ "$(wc -l < "$out/refuse.err")" -eq 1 ] && grep -q '^sssp: ' "$out/refuse.err"; then
    echo "   refused cleanly: exit 2 after $(( $(date +%s) - start )) s"
  else
    echo "   NOT refused cleanly: exit $rc" >&2
    status=1
  fi
fi
echo "logs and JSON: $out"
exit $status
