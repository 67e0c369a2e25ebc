#!/usr/bin/env bash
# The README's `sssp` examples, run as written (the lines of the sh block
# under "## Using `sssp`"), on the CPU path (every GPU hidden), so the README
# stays true. The files they name are made here: DE.gr / road.gr / road.mtx /
# road.el.gz, one road-like graph of 49109 vertices (a long chain with a few
# cross links, so ids 1, 4711 and 49109 exist), and depots.txt.
# An example whose comment starts with "GPU" needs one: here it must refuse
# in one line that names what runs on the CPU. Every other example must
# succeed, its report within 100 columns.
# Usage: readme_examples.sh PATH/TO/sssp README.md SCRATCH_DIR
set -u
sssp="$1"
readme="$2"
dir="$3"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
export CUDA_VISIBLE_DEVICES=""
sssp=$(cd "$(dirname "$sssp")" && pwd)/$(basename "$sssp")

# The graph: 1 - 2 - ... - 49109 both ways, and a link i -> i + 97 every 50.
awk 'BEGIN {
  n = 49109
  for (i = 1; i < n; ++i) { w = 1 + (i * 7) % 13; print i, i + 1, w; print i + 1, i, w }
  for (i = 1; i + 97 <= n; i += 50) print i, i + 97, 40
}' > "$dir/arcs.txt"
arcs=$(wc -l < "$dir/arcs.txt")
{ echo "p sp 49109 $arcs"; awk '{ print "a", $1, $2, $3 }' "$dir/arcs.txt"; } > "$dir/DE.gr"
cp "$dir/DE.gr" "$dir/road.gr"
{ echo "%%MatrixMarket matrix coordinate integer general"; echo "49109 49109 $arcs"; cat "$dir/arcs.txt"; } > "$dir/road.mtx"
awk '{ print $1 - 1, $2 - 1, $3 }' "$dir/arcs.txt" | gzip -c > "$dir/road.el.gz"
printf '# depots\n1\n4711\n' > "$dir/depots.txt"

# The examples: the sh block's lines that run build/sssp.
mapfile -t examples < <(awk '/^## Using `sssp`/ { section = 1; next }
  /^## / { section = 0 }
  section && /^```sh/ { block = 1; next }
  section && /^```/ { block = 0 }
  block && /build\/sssp/ { print }' "$readme")
[ "${#examples[@]}" -ge 8 ] || fail "found ${#examples[@]} examples in $readme"

count=0
for line in "${examples[@]}"; do
  command="${line%%  #*}"     # the command, without its comment
  comment=""
  [ "$command" != "$line" ] && comment="${line#*  # }"
  command="${command//build\/sssp/$sssp}"
  # sssp's own exit status, wherever it stands in a pipeline (a `head` at
  # the end may end the commands before it early: that is how pipes work).
  (cd "$dir" && timeout 300 bash -c "$command"'; echo "${PIPESTATUS[*]}" > pipe.status') > "$dir/out" 2> "$dir/err"
  read -ra statuses < "$dir/pipe.status"
  IFS='|' read -ra stages <<< "$command"
  rc=-1
  for i in "${!stages[@]}"; do
    case "${stages[$i]}" in *"$sssp"*) rc="${statuses[$i]}" ;; esac
  done
  if [ "${comment:0:3}" = "GPU" ]; then
    [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "'$line': exit $rc without a GPU, expected a refusal"
    [ "$(wc -l < "$dir/err")" -eq 1 ] || fail "'$line': the refusal is not one line: $(cat "$dir/err")"
    grep -q 'cpu' "$dir/err" || fail "'$line': the refusal names nothing that runs on the CPU: $(cat "$dir/err")"
  else
    [ "$rc" -eq 0 ] || fail "'$line': exit $rc; stderr: $(cat "$dir/err")"
    long=$(cat "$dir/out" "$dir/err" | awk 'length($0) > 100')
    [ -z "$long" ] || fail "'$line': report lines over 100 columns: $long"
  fi
  count=$((count + 1))
done
# What the examples wrote is what they say.
[ "$(wc -l < "$dir/dist.txt")" -eq 49109 ] || fail "the stdin example wrote $(wc -l < "$dir/dist.txt") lines"
[ "$(head -1 "$dir/table.txt")" = "# source target distance" ] || fail "table.txt: $(head -2 "$dir/table.txt")"
[ "$(wc -l < "$dir/table.txt")" -eq 5 ] || fail "table.txt holds $(wc -l < "$dir/table.txt") lines"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["batches"]) == 1' "$dir/results.json" ||
  fail "results.json is not the batched run's record"

echo "README: all $count sssp examples ran as written"
rm -rf "$dir"
