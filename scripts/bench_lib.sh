# Shared by bench_sssp.sh and bench_multisplit.sh: GPU check, results folder,
# prebuilt-binary lookup and the run record (<name>.meta.json). Sourced, not executed.
#
# Results go to $SSSP_RESULTS/<device-slug>/<YYYY-MM-DD>/ (SSSP_RESULTS defaults
# to results/ in the repository), device slug from the driver: "NVIDIA H200" ->
# nvidia-h200. A second run on the same day overwrites files of the same name.

bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench_build_dir="${SSSP_BUILD_DIR:-$bench_root/build}"

# Exit 2 with a clear message unless nvidia-smi lists at least one GPU.
# Sets bench_device (driver's name of GPU 0) and bench_driver.
# bench_parse_args SCRIPT BENCH_NAME "$@": the options both bench scripts take.
# Sets mode (quick|full), extra (options after --, for the benchmark program)
# and script_cmd (the command line as typed, for the run record). The calling
# script's header comment (up to its `set -euo` line) is its --help.
bench_parse_args() {
  local script=$1 bench=$2
  shift 2
  mode=full
  extra=()
  script_cmd="scripts/$script${*:+ $*}"
  while [ $# -gt 0 ]; do
    case "$1" in
      --quick) mode=quick ;;
      --full) mode=full ;;
      -h|--help) bench_usage "$script"; exit 0 ;;
      --) shift; extra=("$@"); break ;;
      *) echo "$script: unknown option '$1' ($bench options go after --)" >&2; bench_usage "$script" >&2; exit 2 ;;
    esac
    shift
  done
}

bench_usage() { sed -n '2,/^set -euo/p' "$bench_root/scripts/$1" | sed '$d; s/^# \{0,1\}//'; }

bench_require_gpu() {
  local script="$1"
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "$script: no NVIDIA GPU here (nvidia-smi not found); run this on a machine with a CUDA GPU." >&2
    exit 2
  fi
  local query
  if ! query="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" ||
     [ -z "$(printf '%s' "$query" | tr -d '[:space:]')" ]; then
    echo "$script: nvidia-smi lists no GPU (driver not loaded, or no device visible); nothing to measure." >&2
    exit 2
  fi
  query="$(printf '%s\n' "$query" | head -n 1)"
  bench_device="$(printf '%s' "${query%,*}" | sed 's/^ *//; s/ *$//')"
  bench_driver="$(printf '%s' "${query##*,}" | sed 's/^ *//; s/ *$//')"
}

# "NVIDIA H200" -> "nvidia-h200"
bench_slug() {
  printf '%s' "$1" | tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//'
}

# Sets bench_out to the results folder of today's run on this device and creates it.
bench_results_dir() {
  bench_out="${SSSP_RESULTS:-$bench_root/results}/$(bench_slug "$bench_device")/$(date +%F)"
  mkdir -p "$bench_out"
}

# bench_binary RELATIVE_PATH TARGET: sets bench_bin to $SSSP_BUILD_DIR/RELATIVE_PATH.
# A prebuilt binary is used as it is: no package installation, no cmake (the
# GPU machine may have no compiled Boost). Only a missing binary is built.
bench_binary() {
  bench_bin="$bench_build_dir/$1"
  [ -x "$bench_bin" ] && return 0
  echo "$1 not found in $bench_build_dir (set SSSP_BUILD_DIR to a prebuilt build folder); building target $2" >&2
  # shellcheck source=common.sh
  source "$bench_root/scripts/common.sh"
  SSSP_BUILD_DIR="$bench_build_dir"
  sssp_install_packages >&2 && sssp_find_nvcc >&2 || exit 1
  if [ ! -f "$bench_build_dir/CMakeCache.txt" ]; then
    local generator=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
    cmake -S "$bench_root" -B "$bench_build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >&2 || exit 1
  fi
  cmake --build "$bench_build_dir" --target "$2" --parallel "${SSSP_JOBS:-$(nproc)}" >&2 || exit 1
  [ -x "$bench_bin" ] || { echo "build finished but $bench_bin is missing" >&2; exit 1; }
}

bench_json_string() {
  local s="$1"
  s="${s//\\/\\\\}"
  s="${s//\"/\\\"}"
  s="${s//$'\t'/ }"
  s="${s//$'\n'/ }"
  printf '"%s"' "$s"
}

bench_git_commit() {
  if [ -n "${SSSP_GIT_COMMIT:-}" ]; then
    printf '%s' "$SSSP_GIT_COMMIT"
  elif git -C "$bench_root" rev-parse HEAD >/dev/null 2>&1; then
    local dirty=""
    git -C "$bench_root" diff --quiet HEAD -- 2>/dev/null || dirty="-dirty"
    printf '%s%s' "$(git -C "$bench_root" rev-parse --short=12 HEAD)" "$dirty"
  else
    printf 'unknown'
  fi
}

# bench_meta FILE BENCH MODE SCRIPT_COMMAND EXIT_CODE WALL_S COMMAND...
# One JSON record of how a result file was made, read by make_benchmarks_doc.py.
bench_meta() {
  local file="$1" bench="$2" mode="$3" script_cmd="$4" rc="$5" wall_s="$6"
  shift 6
  local cmd="" arg
  for arg in "$@"; do cmd+="${cmd:+ }$(printf '%q' "$arg")"; done
  {
    printf '{\n'
    printf '  "bench": %s,\n' "$(bench_json_string "$bench")"
    printf '  "mode": %s,\n' "$(bench_json_string "$mode")"
    printf '  "date": %s,\n' "$(bench_json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
    printf '  "device": %s,\n' "$(bench_json_string "$bench_device")"
    printf '  "driver": %s,\n' "$(bench_json_string "$bench_driver")"
    printf '  "host_cpus": %s,\n' "$(nproc 2>/dev/null || echo 0)"
    printf '  "git_commit": %s,\n' "$(bench_json_string "$(bench_git_commit)")"
    printf '  "script_command": %s,\n' "$(bench_json_string "$script_cmd")"
    printf '  "command": %s,\n' "$(bench_json_string "$cmd")"
    printf '  "exit_code": %s,\n' "$rc"
    printf '  "wall_s": %s\n' "$wall_s"
    printf '}\n'
  } >"$file"
}
