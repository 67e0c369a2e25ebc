# Shared by run.sh and test.sh: install what is missing, find nvcc, build.
# Sourced, not executed.

SSSP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SSSP_BUILD_DIR="${SSSP_BUILD_DIR:-$SSSP_ROOT/build}"

# Debian/Ubuntu packages the build needs. Installs only what is missing.
SSSP_PACKAGES=(cmake ninja-build g++ libboost-program-options-dev libgtest-dev
               nlohmann-json3-dev zlib1g-dev python3-matplotlib)

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
