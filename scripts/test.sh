#!/usr/bin/env bash
# Quick start, part 2: build (installing what is missing) and run every test.
# GPU tests skip with a message where no GPU exists; CTest lists them as skipped.
# Extra arguments go to ctest, e.g.  scripts/test.sh -L cpu
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sssp_prepare
cd "$SSSP_BUILD_DIR"
ctest --output-on-failure --parallel "${SSSP_JOBS:-$(nproc)}" "$@"
