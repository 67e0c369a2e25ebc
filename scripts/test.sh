#!/usr/bin/env bash
# Quick start, part 2: build (installing what is missing) and run every test.
# GPU tests skip with a message where no GPU exists; CTest lists them as skipped.
# Extra arguments go to ctest, e.g.  scripts/test.sh -L cpu
# Then the Python package's tests (python/tests, in a virtual environment it
# makes: build-python/venv); SSSP_SKIP_PYTHON=1 leaves them out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sssp_prepare
(cd "$SSSP_BUILD_DIR" && ctest --output-on-failure --parallel "${SSSP_JOBS:-$(nproc)}" "$@")
if [ "${SSSP_SKIP_PYTHON:-0}" != 1 ]; then
  start=$SECONDS
  sssp_python_tests
  echo "python: package built and tested in $((SECONDS - start)) s"
fi
