#!/usr/bin/env bash
# GPU correctness check (issue "Reliability"): the GPU tests as they are, then a
# compact subset of them under compute-sanitizer's memcheck, racecheck and
# synccheck. Prints one summary line per tool and exits non-zero on any
# failure, error or hazard. Needs a CUDA GPU and an existing build:
#   scripts/gpu_check.sh                 # uses build/
#   SSSP_BUILD_DIR=/path/to/build scripts/gpu_check.sh
#   scripts/gpu_check.sh --sanitizers-only   # skip the plain test run
# Environment: SSSP_CHECK_TOOLS (default "memcheck racecheck synccheck"),
# SSSP_CHECK_TIMEOUT (seconds per sanitizer run, default 900: on an H200,
# racecheck needed 220 s for the first five of the SSSP subset's tests and did
# not finish it in 380 s), SSSP_CHECK_LOGS.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SSSP_BUILD_DIR:-$root/build}"
tests="$build/tests"
run_plain_tests=1
case "${1:-}" in
  "") ;;
  --sanitizers-only) run_plain_tests=0 ;;
  *) echo "gpu_check.sh: unknown option '$1' (only --sanitizers-only)" >&2; exit 2 ;;
esac

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then
  echo "gpu_check.sh: no NVIDIA GPU found (nvidia-smi lists none); run this on a GPU machine" >&2
  exit 2
fi
sanitizer="$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)"
if [ -z "$sanitizer" ]; then
  echo "gpu_check.sh: compute-sanitizer not found (it ships with the CUDA toolkit)" >&2
  exit 2
fi
for exe in test_multisplit_keys test_multisplit_pairs test_multisplit_api test_multisplit_sort \
           test_multisplit_histogram test_multisplit_reduce test_sssp_random_graphs; do
  [ -x "$tests/$exe" ] || { echo "gpu_check.sh: $tests/$exe not built (build the project first)" >&2; exit 2; }
done
log_dir="${SSSP_CHECK_LOGS:-$(mktemp -d)}"
mkdir -p "$log_dir"
status=0

echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
if [ "$run_plain_tests" -eq 0 ]; then
  echo "gpu tests: not run (--sanitizers-only)"
elif ctest --test-dir "$build" -L gpu --output-on-failure > "$log_dir/ctest_gpu.log" 2>&1; then
  echo "gpu tests: $(grep -E 'tests passed|tests failed' "$log_dir/ctest_gpu.log" | tail -1)"
else
  status=1
  echo "gpu tests: FAILED: $(grep -E 'tests passed|tests failed' "$log_dir/ctest_gpu.log" | tail -1) (log $log_dir/ctest_gpu.log)"
fi

# Small inputs that still reach every code path: sanitizers slow kernels
# down by one to two orders of magnitude.
subsets=(
  "test_multisplit_keys --gtest_filter=MultisplitKeysCompact.*"
  "test_multisplit_pairs --gtest_filter=MultisplitPairsCompact.*"
  "test_multisplit_api --gtest_filter=-MultisplitApi.LargestSizeCheckedOnDevice"
  "test_multisplit_sort --gtest_filter=MultisplitSort.InPlace:MultisplitSort.UnalignedPointersAndOwnStream:MultisplitSort.EmptyInputNeedsNoPointers:MultisplitSort.CapturesIntoCudaGraph"
  "test_multisplit_histogram --gtest_filter=MultisplitHistogram.BothCountingTuningsAgree:MultisplitHistogram.RangeBucketsWithSplittersInSharedMemory:MultisplitHistogram.UnalignedInputOwnStreamAndGraphCapture:MultisplitHistogram.EmptyInputWritesZeros"
  "test_multisplit_reduce --gtest_filter=MultisplitReduce.UserOperatorWideValuesAndNoCounts:MultisplitReduce.RangeBucketsWithSplittersInSharedMemory:MultisplitReduce.UnalignedInputOwnStreamAndGraphCapture:MultisplitReduce.EmptyInputGivesIdentityAndZeroCounts"
  "test_sssp_random_graphs --gtest_filter=SsspRandomGraphs.BinnedWithoutPersistentGrid:SsspRandomGraphs.TinyAndEdgeless:SsspRandomGraphs.SourceWithoutOutArcs:SsspRandomGraphs.ZeroWeightsAndZeroCycles:SsspRandomGraphs.StarHub:SsspRandomGraphs.DisconnectedParts:SsspSolver.*"
)

for tool in ${SSSP_CHECK_TOOLS:-memcheck racecheck synccheck}; do
  problems=0 failed=0 runs=0
  for subset in "${subsets[@]}"; do
    read -r exe args <<< "$subset"
    log="$log_dir/${tool}_${exe}.log"
    runs=$((runs + 1))
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    timeout "${SSSP_CHECK_TIMEOUT:-900}" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$tests/$exe" $args > "$log" 2>&1
    rc=$?
    # memcheck/synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards displayed".
    n=$(grep -Eo '(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+)' "$log" | grep -Eo '[0-9]+$' | awk '{s+=$1} END {print s+0}')
    problems=$((problems + n))
    if [ "$rc" -ne 0 ]; then
      failed=$((failed + 1))
      echo "  $tool $exe: exit $rc, $n reported (log $log)" >&2
    fi
  done
  [ "$problems" -ne 0 ] || [ "$failed" -ne 0 ] && status=1
  echo "$tool: $problems errors/hazards, $failed of $runs runs failed"
done
echo "logs: $log_dir"
exit $status
