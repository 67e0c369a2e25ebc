#!/usr/bin/env bash
# Fuzzes every graph reader with libFuzzer (clang, ASan + UBSan):
#   scripts/fuzz.sh DURATION [HARNESS...]     DURATION in seconds per harness
# Harnesses: mtx gr el cache cache_structure (default: all; cache_structure
# writes checksum-valid caches of malformed CSRs and checks the solvers on
# what is read back). Each starts from the committed seed corpus
# fuzz/corpus/<harness>/ plus what earlier runs found
# ($SSSP_FUZZ_BUILD_DIR/corpus/<harness>/, not committed). FUZZ_JOBS harnesses
# run at a time (default 2), under nice. Prints one line per harness:
# executions, executions/s, corpus size, findings; crash inputs are kept in
# $SSSP_FUZZ_BUILD_DIR/artifacts/<harness>/. Exits 1 when anything was found.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh DURATION_SECONDS [mtx|gr|el|cache|cache_structure ...]" >&2
  exit 2
fi
duration=$1
shift
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(mtx gr el cache cache_structure)
jobs=${FUZZ_JOBS:-2}
build=${SSSP_FUZZ_BUILD_DIR:-$SSSP_ROOT/build-fuzz}

# clang and its libFuzzer/sanitizer runtimes, LLVM's OpenMP for clang.
SSSP_PACKAGES=(cmake ninja-build clang-14 libclang-rt-14-dev libomp-14-dev libboost-program-options-dev
               nlohmann-json3-dev zlib1g-dev libssl-dev)
sssp_install_packages
cxx=$(command -v clang++-14 || command -v clang++)
cc=$(command -v clang-14 || command -v clang)

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=$cc CXX=$cxx cmake -S "$SSSP_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSSSP_CPU_ONLY=ON -DSSSP_BUILD_FUZZERS=ON -DSSSP_BUILD_TESTS=OFF -DSSSP_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build "$build" --parallel "${SSSP_JOBS:-2}" --target $(printf 'fuzz_%s ' "${harnesses[@]}") >/dev/null

run_one() {
  local h=$1 work="$build/corpus/$1" artifacts="$build/artifacts/$1" log="$build/logs/$1.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  local before
  before=$(find "$artifacts" -type f | wc -l)
  # -timeout: a slow input (seconds for a few KB) is a finding too.
  # -rss_limit_mb / malloc_limit: the harness allows 256 MB graphs; more is a finding.
  nice -n 10 "$build/fuzz/fuzz_$h" "$work" "$SSSP_ROOT/fuzz/corpus/$h" \
    -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || true
  local execs rate corpus after
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  corpus=$(find "$work" -type f | wc -l)
  after=$(find "$artifacts" -type f | wc -l)
  printf 'fuzz_%-15s %5ss  executions %10s  (%s/s)  corpus %5s  findings %s%s\n' "$h" "$duration" "${execs:-0}" \
    "${rate:-0}" "$corpus" "$((after - before))" "$([ "$after" -gt "$before" ] && echo "  (see $log)")"
  [ "$after" -eq "$before" ]
}

status=0
pids=()
names=()
for h in "${harnesses[@]}"; do
  run_one "$h" > "$build/logs.$h.summary" 2>&1 &
  pids+=($!)
  names+=("$h")
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    cat "$build/logs.${names[0]}.summary"
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$build/logs.${names[$i]}.summary"
done
exit $status
