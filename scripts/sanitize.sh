#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build of the CPU parts (graph
# library, tools, CPU tests; no CUDA), then every CPU test under it. Any
# report fails the run: UBSan findings abort (-fno-sanitize-recover=all),
# ASan reports abort, LeakSanitizer runs at exit.
#   scripts/sanitize.sh [ctest arguments, e.g. -R test_dimacs]
# Build directory: $SSSP_ASAN_BUILD_DIR (default build-asan). Prints one
# summary line: "sanitize: N CPU tests, F failed (address,undefined)".
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=${SSSP_ASAN_BUILD_DIR:-$SSSP_ROOT/build-asan}

# The production compiler (g++, as nvcc's host compiler) with its own
# runtimes: libgomp, not LLVM's libomp, whose internal allocations
# LeakSanitizer reports as leaks; and the code is checked as it is shipped
# (clang's OpenMP initialises a min-reduction over double to DBL_MAX, not
# infinity, which changes behaviour the gcc build never shows).
SSSP_PACKAGES=(cmake ninja-build g++ libasan8 libubsan1 libboost-program-options-dev libgtest-dev
               nlohmann-json3-dev zlib1g-dev libssl-dev)
sssp_install_packages

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=gcc CXX=g++ cmake -S "$SSSP_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSSSP_CPU_ONLY=ON -DSSSP_SANITIZE=address,undefined -DSSSP_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build "$build" --parallel "${SSSP_JOBS:-$(nproc)}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
log=$(mktemp)
status=0
ctest -L cpu --output-on-failure --parallel "${SSSP_JOBS:-$(nproc)}" "$@" 2>&1 | tee "$log" || status=$?
summary=$(grep -E '^[0-9]+% tests passed' "$log" || echo "no tests ran")
rm -f "$log"
echo "sanitize: $summary (address,undefined; CPU tests, no CUDA)"
exit $status
