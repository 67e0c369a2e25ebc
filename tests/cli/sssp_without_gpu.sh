#!/usr/bin/env bash
# `sssp` on a machine without a usable GPU, simulated on any machine
# by hiding every device (CUDA_VISIBLE_DEVICES=""), so this test runs -- and
# never skips -- with or without a GPU:
#   --device gpu : exit 1, one clear line on stderr, no output files, no hang;
#   --device auto: falls back to the CPU, says so, and succeeds.
# Usage: sssp_without_gpu.sh PATH/TO/sssp SCRATCH_DIR
set -u
sssp="$1"
dir="$2"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
export CUDA_VISIBLE_DEVICES=""

timeout 60 "$sssp" --generate grid:8:8 --device gpu --output "$dir/d.txt" --json "$dir/r.json" \
  > "$dir/out" 2> "$dir/err"
rc=$?
[ "$rc" -eq 1 ] || fail "--device gpu without a GPU: exit $rc, expected 1 (124 = hang); stderr: $(cat "$dir/err")"
[ "$(wc -l < "$dir/err")" -eq 1 ] || fail "expected one line on stderr, got: $(cat "$dir/err")"
grep -q '^sssp: --device gpu: no usable GPU (' "$dir/err" || fail "unclear message: $(cat "$dir/err")"
grep -q -- '--device cpu runs the CPU solvers' "$dir/err" || fail "the refusal names no alternative: $(cat "$dir/err")"
[ ! -e "$dir/d.txt" ] && [ ! -e "$dir/r.json" ] || fail "a failed run left output files"
[ ! -s "$dir/out" ] || fail "a failed run printed to stdout: $(cat "$dir/out")"

timeout 120 "$sssp" --generate grid:8:8 --validate > "$dir/out" 2> "$dir/err"
rc=$?
[ "$rc" -eq 0 ] || fail "--device auto without a GPU: exit $rc; stderr: $(cat "$dir/err")"
# The report wraps at 100 columns: the note is read with its lines joined.
tr '\n' ' ' < "$dir/out" | tr -s ' ' | grep -q 'auto: no usable GPU (.*), running on the CPU' ||
  fail "auto fallback not reported: $(cat "$dir/out")"
grep -q '^validation    passed' "$dir/out" || fail "auto fallback did not validate: $(cat "$dir/out")"

echo "sssp without a GPU: --device gpu refused clearly (exit 1), --device auto ran on the CPU"
rm -rf "$dir"
