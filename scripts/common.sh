# Shared by run.sh and test.sh: install what is missing, find nvcc, build.
# Sourced, not executed.

SSSP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SSSP_BUILD_DIR="${SSSP_BUILD_DIR:-$SSSP_ROOT/build}"

# Debian/Ubuntu packages the build needs. Installs only what is missing.
SSSP_PACKAGES=(cmake ninja-build g++ libboost-program-options-dev libgtest-dev
               nlohmann-json3-dev zlib1g-dev libssl-dev python3-matplotlib)

# Package-manager output goes to $SSSP_INSTALL_LOG (default build/install-packages.log);
# the terminal gets one line naming the packages and the log, or the log's tail on failure.
SSSP_INSTALL_LOG="${SSSP_INSTALL_LOG:-$SSSP_BUILD_DIR/install-packages.log}"

sssp_install_packages() {
  local missing=()
  for pkg in "${SSSP_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: missing packages (${missing[*]}) and no apt-get to install them; install them by hand" >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  mkdir -p "$(dirname "$SSSP_INSTALL_LOG")" || return 1
  echo "installing: ${missing[*]} (apt-get output in $SSSP_INSTALL_LOG)" >&2
  { $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >"$SSSP_INSTALL_LOG" 2>&1 || {
      echo "error: could not install ${missing[*]}; the end of $SSSP_INSTALL_LOG:" >&2
      tail -n 20 "$SSSP_INSTALL_LOG" >&2
      return 1
    }
}

sssp_find_nvcc() {
  if command -v nvcc >/dev/null 2>&1; then return 0; fi
  for dir in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    if [ -x "$dir/nvcc" ]; then
      export PATH="$dir:$PATH"
      return 0
    fi
  done
  echo "error: nvcc (the CUDA toolkit) was not found on PATH or in /usr/local/cuda*/bin." >&2
  echo "       Install the CUDA toolkit (12.x or 13.x) and put its bin/ on PATH." >&2
  return 1
}

# sssp_build [TARGET...]: configure once, then build the given targets (all without any).
sssp_build() {
  local generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  if [ ! -f "$SSSP_BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S "$SSSP_ROOT" -B "$SSSP_BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      ${CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES} || return 1
  fi
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$SSSP_BUILD_DIR" --parallel "${SSSP_JOBS:-$(nproc)}" "${targets[@]}" || return 1
}

# sssp_prepare [TARGET...]: install what is missing, find nvcc, build the targets (all without any).
sssp_prepare() {
  sssp_install_packages && sssp_find_nvcc && sssp_build "$@"
}

# sssp_python_tests [PYTEST ARGS...]: the Python package (pyproject.toml)
# built and installed into a virtual environment of its own, then its pytest
# suite. The environment ($SSSP_PY_VENV, default build-python/venv) and the
# package's build tree (build-python/) are kept, so a second run only
# relinks. Packages come from PyPI; pip's output goes to build-python/pip.log.
sssp_python_tests() {
  local venv="${SSSP_PY_VENV:-$SSSP_ROOT/build-python/venv}" log="$SSSP_ROOT/build-python/pip.log"
  mkdir -p "$SSSP_ROOT/build-python" || return 1
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || { echo "error: python3 -m venv failed (install python3-venv)" >&2; return 1; }
  fi
  echo "python: building and installing gpu_sssp into $venv (pip output in $log)" >&2
  { "$venv/bin/pip" install -q --upgrade pip &&
      "$venv/bin/pip" install -q "scikit-build-core>=0.10" "nanobind>=2.0" numpy scipy networkx pytest &&
      (cd "$SSSP_ROOT" && CMAKE_BUILD_PARALLEL_LEVEL="${SSSP_JOBS:-$(nproc)}" \
         "$venv/bin/pip" install -v --no-build-isolation ${CUDA_ARCHITECTURES:+--config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES} .); } \
    >"$log" 2>&1 || {
      echo "error: building the Python package failed; the end of $log:" >&2
      tail -n 30 "$log" >&2
      return 1
    }
  # From outside the source tree, so `import gpu_sssp` is the installed package.
  (cd "$SSSP_ROOT/python/tests" && "$venv/bin/python" -m pytest -q -rs "$@" .)
}
