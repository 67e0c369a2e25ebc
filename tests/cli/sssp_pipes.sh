#!/usr/bin/env bash
# `sssp` for people and for pipes, on the CPU path (every GPU hidden, so it
# runs the same with or without one, and never skips):
#   - `--output -`, `--json -` and `--graph -` round trips through pipes, -q
#     leaving stdout to the data alone, `--output /dev/stdout` written in place;
#   - `--predecessors` in --output, `--json-distances`;
#   - the default report within 100 columns, -v's table without empty columns;
#   - refusals that name what works, checks made before a long phase, warnings;
#   - --help on one screen, --help-all grouped, --version;
#   - GAP's spellings (-f, -n, .wel), string labels and CSV edge lists.
# Usage: sssp_pipes.sh PATH/TO/sssp FIXTURES_DIR SCRATCH_DIR
set -u
sssp="$1"
fixtures="$2"
dir="$3"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
export CUDA_VISIBLE_DEVICES=""
gr="$fixtures/small.gr"  # distances from 1: 0 2 6 11 (1 -> 2 -> 3 -> 4)

# Every line of a report within 100 columns.
check_width() {
  local what="$1" file="$2"
  local long
  long=$(awk 'length($0) > 100 { print length($0) ": " $0 }' "$file")
  [ -z "$long" ] || fail "$what: report lines over 100 columns: $long"
}

# A report's text with its wrapped lines joined, for phrases that may wrap.
unwrapped() { tr '\n' ' ' < "$1" | tr -s ' '; }

# ---- --output - : only the data on stdout with -q, in a pipe.
got=$("$sssp" --graph "$gr" --source 1 --output - -q | sort -k2,2n | head -2 | tr '\n' ';')
[ "$got" = "1 0;2 2;" ] || fail "--output - -q | sort | head: got '$got'"
"$sssp" --graph "$gr" --source 1 --output - -q > "$dir/q.out" 2> "$dir/q.err" || fail "--output - -q failed"
[ "$(cat "$dir/q.out")" = "$(printf '1 0\n2 2\n3 6\n4 11')" ] || fail "--output - -q: stdout holds more than the data: $(cat "$dir/q.out")"
[ ! -s "$dir/q.err" ] || fail "-q printed on stderr: $(cat "$dir/q.err")"
# Without -q the report goes to stderr, the data still alone on stdout.
"$sssp" --graph "$gr" --source 1 --output - > "$dir/o.out" 2> "$dir/o.err" || fail "--output - failed"
cmp -s "$dir/q.out" "$dir/o.out" || fail "--output - without -q: stdout is not the data alone: $(cat "$dir/o.out")"
grep -q '^strategy ' "$dir/o.err" || fail "--output -: the report did not go to stderr: $(cat "$dir/o.err")"
# -q without stdout data prints nothing at all.
"$sssp" --graph "$gr" --source 1 -q > "$dir/quiet.out" 2>&1 || fail "-q failed"
[ ! -s "$dir/quiet.out" ] || fail "-q printed: $(cat "$dir/quiet.out")"
# --path-to with -q: the answer alone.
got=$("$sssp" --graph "$gr" --source 1 --path-to 4 -q | head -1)
[ "$got" = "distance 1 -> 4: 11" ] || fail "--path-to -q: got '$got'"

# ---- --predecessors: id distance predecessor (-1: none).
got=$("$sssp" --graph "$gr" --source 1 --predecessors --output - -q | tr '\n' ';')
[ "$got" = "1 0 -1;2 2 1;3 6 2;4 11 3;" ] || fail "--output - --predecessors: got '$got'"
"$sssp" --graph "$gr" --source 1 --predecessors --output "$dir/p.txt" -q || fail "--predecessors --output FILE failed"
[ "$(head -2 "$dir/p.txt" | tr '\n' ';')" = "1 0 -1;2 2 1;" ] || fail "--predecessors file: $(cat "$dir/p.txt")"

# Float weights: CPU delta-stepping gives no tree, so the file takes Dijkstra's.
"$sssp" --graph "$fixtures/small_real_general.mtx" --predecessors --output "$dir/float.txt" -q ||
  fail "--predecessors --output on float weights failed"
[ "$(tr '\n' ';' < "$dir/float.txt")" = "1 0 -1;2 1.5 1;3 1.75 2;4 4.75 3;" ] ||
  fail "--predecessors on float weights: $(cat "$dir/float.txt")"

# ---- --graph - : stdin, in every text format, equal to the file's result.
got=$(cat "$gr" | "$sssp" --graph - --format gr --source 1 --output - -q | tr '\n' ';')
[ "$got" = "1 0;2 2;3 6;4 11;" ] || fail "--graph - (pipe): got '$got'"
got=$("$sssp" --graph - --format gr --source 1 --output - -q < "$gr" | tr '\n' ';')
[ "$got" = "1 0;2 2;3 6;4 11;" ] || fail "--graph - (redirected file): got '$got'"
got=$(gzip -c "$fixtures/small_weighted.el" | "$sssp" --graph - --format el --output - -q | tr '\n' ';')
[ "$got" = "0 0;1 5;2 12;3 16;" ] || fail "--graph - (gzip edge list): got '$got'"
# Bad input on stdin: one line naming stdin and the line, exit 2, no output.
printf 'p sp 3 1\na 1 x 2\n' | "$sssp" --graph - --format gr --output - > "$dir/bad.out" 2> "$dir/bad.err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad stdin: exit $rc, expected 2"
grep -q '^sssp: stdin:2' "$dir/bad.err" || fail "bad stdin: message does not name stdin:2: $(cat "$dir/bad.err")"
[ "$(wc -l < "$dir/bad.err")" -eq 1 ] || fail "bad stdin: more than one line: $(cat "$dir/bad.err")"
[ ! -s "$dir/bad.out" ] || fail "bad stdin: partial output: $(cat "$dir/bad.out")"
# No format: refused, naming --format.
"$sssp" --graph - --output - < "$gr" > /dev/null 2> "$dir/nofmt.err"
[ $? -eq 2 ] && grep -q -- '--format' "$dir/nofmt.err" || fail "--graph - without --format: $(cat "$dir/nofmt.err")"

# ---- --json - : valid JSON alone on stdout; --json-distances holds the distances.
"$sssp" --graph "$gr" --source 1 --json - --json-distances --predecessors -q > "$dir/r.json" || fail "--json - failed"
python3 - "$dir/r.json" <<'EOF' || fail "--json - --json-distances: bad record: $(head -c 400 "$dir/r.json")"
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["distances"]["rows"]
assert j["distances"]["id_base"] == 1 and j["distances"]["targets"] is None
assert rows[0]["source"] == 1 and rows[0]["distance"] == [0, 2, 6, 11], rows
assert rows[0]["predecessor"] == [None, 1, 2, 3], rows
EOF
"$sssp" --graph "$gr" --output - --json - > /dev/null 2> "$dir/both.err"
[ $? -eq 2 ] && grep -q 'both name stdout' "$dir/both.err" || fail "--output - --json -: $(cat "$dir/both.err")"

# ---- --output /dev/stdout fills the file the shell opened, in place.
echo "# kept" > "$dir/appended.txt"
inode=$(stat -c %i "$dir/appended.txt")
"$sssp" --graph "$gr" --source 1 --output /dev/stdout -q >> "$dir/appended.txt" || fail "--output /dev/stdout failed"
[ "$(stat -c %i "$dir/appended.txt")" = "$inode" ] || fail "--output /dev/stdout replaced the file the shell opened"
[ "$(tr '\n' ';' < "$dir/appended.txt")" = "# kept;1 0;2 2;3 6;4 11;" ] ||
  fail "--output /dev/stdout >> file: $(cat "$dir/appended.txt")"

# ---- The default report: within 100 columns; -v: the full table, no empty columns.
"$sssp" --generate grid:30:30 --source 5 --path-to 899 --predecessors --validate > "$dir/r1" 2>&1 || fail "grid run failed"
check_width "default report" "$dir/r1"
grep -q '^validation    passed' "$dir/r1" || fail "default report without validation: $(cat "$dir/r1")"
grep -q 'median ms  min ms  max ms  MTEPS' "$dir/r1" || fail "default report without the spread and MTEPS: $(cat "$dir/r1")"
[ "$(wc -l < "$dir/r1")" -le 25 ] || fail "default report of $(wc -l < "$dir/r1") lines: $(cat "$dir/r1")"
"$sssp" --generate rmat:10:8 --random-sources 8 --strategy all --validate --runs 2 > "$dir/r2" 2>&1 || fail "rmat run failed"
check_width "--strategy all report" "$dir/r2"
unwrapped "$dir/r2" | grep -q 'skipped: near-far, bucket-sort, bucket-multisplit, bellman-ford (they need a GPU)' ||
  fail "--strategy all does not say what it skipped: $(cat "$dir/r2")"
# A batched CPU run is one row, not one per source.
"$sssp" --generate rmat:10:8 --random-sources 8 > "$dir/r3" 2>&1 || fail "batched run failed"
check_width "batched report" "$dir/r3"
[ "$(grep -c '^dijkstra (batch)' "$dir/r3")" -eq 1 ] || fail "a batched CPU run is not one row: $(cat "$dir/r3")"
"$sssp" --generate grid:30:30 -v > "$dir/r4" 2>&1 || fail "-v failed"
grep -q 'work ratio' "$dir/r4" || fail "-v without the full table: $(cat "$dir/r4")"
! grep -q 'us/round\|narrow/wide\|local steps' "$dir/r4" || fail "-v on the CPU prints GPU-only columns: $(cat "$dir/r4")"

# --path-to in the report: a long path's two ends within 100 columns, with -v
# too (more of each end), saying how to get it whole; -q prints it whole.
for flag in "" -v; do
  "$sssp" --generate grid:2:200 --source 0 --path-to 399 --predecessors $flag > "$dir/path$flag.out" 2>&1 ||
    fail "--path-to $flag failed"
  sed -n '/^path (/,/^ *(path from/p' "$dir/path$flag.out" > "$dir/path$flag.lines"
  [ -s "$dir/path$flag.lines" ] || fail "--path-to $flag: no path: $(cat "$dir/path$flag.out")"
  check_width "--path-to $flag" "$dir/path$flag.lines"
  unwrapped "$dir/path$flag.lines" | grep -q -- '-> \.\.\. ([0-9]* more: -q prints the whole path, --json holds it) ->' ||
    fail "--path-to $flag: no elision: $(cat "$dir/path$flag.lines")"
  unwrapped "$dir/path$flag.lines" | grep -Eq -- '-> 399 \(path from' || fail "--path-to $flag: the path's end: $(cat "$dir/path$flag.lines")"
done
[ "$(wc -l < "$dir/path-v.lines")" -gt "$(wc -l < "$dir/path.lines")" ] || fail "-v shows no more of the path"
"$sssp" --generate grid:2:200 --source 0 --path-to 399 --predecessors -q > "$dir/path-q.out" || fail "--path-to -q failed"
arcs=$(sed -n 's/^path (\([0-9]*\) arcs): .*/\1/p' "$dir/path-q.out")
[ -n "$arcs" ] && [ "$(sed -n 2p "$dir/path-q.out" | grep -o -- '->' | wc -l)" -eq "$arcs" ] ||
  fail "--path-to -q: not the whole path: $(cat "$dir/path-q.out")"

# ---- Refusals name what works.
"$sssp" --generate grid:8:8 --strategy phast 2> "$dir/phast.err" > /dev/null
[ $? -eq 2 ] && grep -q 'phast-cpu' "$dir/phast.err" || fail "phast without GPU: $(cat "$dir/phast.err")"
"$sssp" --generate grid:8:8 --strategy phast-cpu > /dev/null 2>&1 || fail "the phast-cpu the refusal names does not run"
"$sssp" --generate grid:8:8 --strategy near-far 2> "$dir/nf.err" > /dev/null
[ $? -eq 2 ] && grep -q 'delta-stepping' "$dir/nf.err" || fail "near-far without GPU: $(cat "$dir/nf.err")"
"$sssp" bench --generate grid:8:8 2> "$dir/bench.err" > /dev/null
[ $? -eq 1 ] && grep -q 'cpu_sssp_bench' "$dir/bench.err" || fail "sssp bench without GPU: $(cat "$dir/bench.err")"

# ---- Checks before long phases.
start=$(date +%s)
"$sssp" --generate rmat:24:16 --source 99999999 > /dev/null 2> "$dir/src.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'before generating' "$dir/src.err" || fail "source beyond the spec: exit $rc: $(cat "$dir/src.err")"
[ $(( $(date +%s) - start )) -le 5 ] || fail "the source check waited for the generation"
# Ids against the vertex count a .gr or .mtx header declares, before the file
# is parsed: a body the loader would refuse shows the check comes first.
printf 'c bad body\np sp 4 2\na 1 2 3\na 2 x 4\n' > "$dir/badbody.gr"
"$sssp" --graph "$dir/badbody.gr" --source 9 > /dev/null 2> "$dir/hdr.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$dir/hdr.err")" -eq 1 ] &&
  grep -q "^sssp: --source 9 is not a vertex of $dir/badbody.gr (4 vertices declared on line 2, ids 1 to 4); checked before loading it\$" "$dir/hdr.err" ||
  fail "a source beyond the .gr header: exit $rc: $(cat "$dir/hdr.err")"
gzip -c "$dir/badbody.gr" > "$dir/badbody.gr.gz"
"$sssp" --graph "$dir/badbody.gr.gz" --source 1 --path-to 0 > /dev/null 2> "$dir/hdr.err"
[ $? -eq 2 ] && grep -q -- '--path-to 0 is not a vertex of .*badbody.gr.gz (4 vertices' "$dir/hdr.err" ||
  fail "--path-to 0 of a gzip .gr: $(cat "$dir/hdr.err")"
printf '%%%%MatrixMarket matrix coordinate integer general\n3 5 1\n1 x 2\n' > "$dir/badbody.mtx"
printf '2\n6\n' > "$dir/far.txt"
"$sssp" --graph "$dir/badbody.mtx" --targets "$dir/far.txt" --output - > /dev/null 2> "$dir/hdr.err"
[ $? -eq 2 ] && grep -q -- "^sssp: $dir/far.txt:2: --targets 6 is not a vertex of .*badbody.mtx (5 vertices declared on line 2" "$dir/hdr.err" ||
  fail "--targets FILE beyond the .mtx header: $(cat "$dir/hdr.err")"
# Ids within the header go on to the loader, which names the bad line; a
# pipe is not read ahead of the loader.
"$sssp" --graph "$dir/badbody.gr" --source 4 > /dev/null 2> "$dir/hdr.err"
[ $? -eq 2 ] && grep -q "badbody.gr:4:" "$dir/hdr.err" || fail "the loader's error after the header check: $(cat "$dir/hdr.err")"
got=$("$sssp" --graph <(cat "$gr") --format gr --source 1 --output - -q | tr '\n' ';')
[ "$got" = "1 0;2 2;3 6;4 11;" ] || fail "--graph <(cat small.gr): got '$got'"
# An unwritable --json directory: one the kernel refuses even to root
# (/proc/self), and a mode-555 one (as an unprivileged user where this runs as root).
"$sssp" --generate grid:8:8 --json /proc/self/r.json > /dev/null 2> "$dir/ro.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'not writable' "$dir/ro.err" || fail "unwritable --json directory: exit $rc: $(cat "$dir/ro.err")"
mkdir -p "$dir/ro" && chmod 555 "$dir/ro" && chmod 755 "$dir"
as_user=()
[ "$(id -u)" -eq 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" -ne 0 ] || "${as_user[@]}" "$sssp" --version > /dev/null 2>&1; then
  "${as_user[@]}" "$sssp" --generate grid:8:8 --json "$dir/ro/r.json" > /dev/null 2> "$dir/ro.err"
  rc=$?
  [ "$rc" -eq 2 ] && grep -q 'not writable' "$dir/ro.err" || fail "mode-555 --json directory: exit $rc: $(cat "$dir/ro.err")"
fi
"$sssp" --generate grid:8:8 --threads 1000 > /dev/null 2> "$dir/threads.err" || fail "--threads 1000 failed"
grep -q 'warning: --threads 1000 is more than' "$dir/threads.err" || fail "--threads above the cores not said"
# A generation longer than a second says so on stderr; -q silences it; a
# graph refused at once (too large to build) gets its one line only.
"$sssp" --generate rmat:20:8 --strategy dijkstra > /dev/null 2> "$dir/gen.err" || fail "rmat:20:8 failed"
grep -q '^sssp: generating rmat:20:8' "$dir/gen.err" && grep -q '^sssp: generated in ' "$dir/gen.err" ||
  fail "no progress for a long generation: $(cat "$dir/gen.err")"
"$sssp" --generate rmat:20:8 --strategy dijkstra -q > /dev/null 2> "$dir/gen-q.err" || fail "rmat:20:8 -q failed"
[ ! -s "$dir/gen-q.err" ] || fail "-q printed progress: $(cat "$dir/gen-q.err")"
"$sssp" --generate rmat:31:16 --strategy dijkstra > /dev/null 2> "$dir/huge.err"
[ $? -eq 2 ] && [ "$(wc -l < "$dir/huge.err")" -eq 1 ] || fail "rmat:31:16: $(cat "$dir/huge.err")"
# A source that reaches almost nothing is said to.
{ echo "0 1"; for i in $(seq 2 300); do echo "$i $((i + 1))"; done; } > "$dir/islands.el"
"$sssp" --graph "$dir/islands.el" --source 0 > /dev/null 2> "$dir/reach.err" || fail "islands run failed"
grep -q 'warning: source 0 reaches 2 of 302 vertices' "$dir/reach.err" || fail "no reach warning: $(cat "$dir/reach.err")"

# ---- Help and version.
"$sssp" --help > "$dir/help" || fail "--help failed"
[ "$(wc -l < "$dir/help")" -le 40 ] || fail "--help is $(wc -l < "$dir/help") lines"
check_width "--help" "$dir/help"
grep -q -- '\.csv' "$dir/help" && grep -q -- '--labels' "$dir/help" || fail "--help does not name .csv and --labels"
"$sssp" --help-all > "$dir/help-all" || fail "--help-all failed"
for group in Input Query Output 'GPU tuning'; do
  grep -q "^$group:" "$dir/help-all" || fail "--help-all lacks the group '$group'"
done
grep -q -- '--vertex-order' "$dir/help-all" || fail "--help-all lacks --vertex-order"
! grep -q -- '--vertex-order' "$dir/help" || fail "--help lists GPU tuning"
"$sssp" --version > "$dir/version" || fail "--version failed"
grep -q '^git commit ' "$dir/version" && grep -q '^CUDA ' "$dir/version" || fail "--version: $(cat "$dir/version")"

# ---- GAP's spellings: -f FILE, -n TRIALS, .wel.
cp "$fixtures/small_weighted.el" "$dir/g.wel"
got=$("$sssp" -f "$dir/g.wel" -n 3 --output - -q | tr '\n' ';')
[ "$got" = "0 0;1 5;2 12;3 16;" ] || fail "-f g.wel -n 3: got '$got'"
"$sssp" -f "$dir/g.wel" -n 3 --json - -q | python3 -c 'import json,sys; assert json.load(sys.stdin)["options"]["runs"] == 3' ||
  fail "-n 3 is not --runs 3"

# ---- NetworkX's habits: string labels (--labels, printed back) and CSV with a header.
printf 'source,target,weight\nA,B,5\nB,C,7\n"C",A,1\nC,D,4\n' > "$dir/g.csv"
printf '# labels\nA B 5\nB C 7\nC A 1\nC D 4\n' > "$dir/labels.el"
got=$("$sssp" --graph "$dir/g.csv" --labels --source A --output - -q | tr '\n' ';')
[ "$got" = "A 0;B 5;C 12;D 16;" ] || fail "CSV with labels: got '$got'"
got=$(cat "$dir/g.csv" | "$sssp" --graph - --format csv --labels --source A --output - -q | tr '\n' ';')
[ "$got" = "A 0;B 5;C 12;D 16;" ] || fail "CSV with labels from stdin: got '$got'"
got=$("$sssp" --graph "$dir/labels.el" --labels --source B --predecessors --output - -q | tr '\n' ';')
[ "$got" = "A 8 C;B 0 -1;C 7 B;D 11 C;" ] || fail "labels with --predecessors: got '$got'"
got=$("$sssp" --graph "$dir/labels.el" --labels --source A,C --targets D,A --output - -q | tr '\n' ';')
[ "$got" = "# source target distance;A D 16;A A 0;C D 4;C A 1;" ] || fail "labels with --targets: got '$got'"
got=$("$sssp" --graph "$dir/labels.el" --labels --source A --path-to D --predecessors -q | head -2 | tr '\n' ';')
[ "$got" = "distance A -> D: 16;path (3 arcs): A -> B -> C -> D;" ] || fail "labels with --path-to: got '$got'"
# The report names labelled sources by their labels, not by the loader's
# numbering: the sources line (default and -v), -v's source column, the reach warning.
"$sssp" --graph "$dir/labels.el" --labels --source C,B > "$dir/lab.out" 2>&1 || fail "labels report failed"
grep -q '^sources       C, B, by label$' "$dir/lab.out" || fail "labels: the sources line: $(cat "$dir/lab.out")"
"$sssp" --graph "$dir/labels.el" --labels > "$dir/lab0.out" 2>&1 || fail "labels report (default source) failed"
grep -q '^sources       A (the first vertex), by label$' "$dir/lab0.out" ||
  fail "labels: the default source's line: $(cat "$dir/lab0.out")"
"$sssp" --graph "$dir/labels.el" --labels --source C,B -v > "$dir/lab-v.out" 2>&1 || fail "labels -v failed"
grep -q '^sources       C, B, by label$' "$dir/lab-v.out" || fail "labels -v: the sources line: $(cat "$dir/lab-v.out")"
grep -Eq '^dijkstra +cpu +C ' "$dir/lab-v.out" && grep -Eq '^dijkstra +cpu +B ' "$dir/lab-v.out" ||
  fail "labels -v: the source column: $(cat "$dir/lab-v.out")"
{ echo "src dst"; for i in $(seq 1 300); do echo "n$i n$((i + 1))"; done; } > "$dir/islands-labels.el"
"$sssp" --graph "$dir/islands-labels.el" --labels --source src > /dev/null 2> "$dir/lab-reach.err" ||
  fail "labelled islands run failed"
grep -q 'warning: source src reaches 2 of 303 vertices' "$dir/lab-reach.err" ||
  fail "labels: the reach warning: $(cat "$dir/lab-reach.err")"
printf '# depots\nC\n' > "$dir/depots.txt"
got=$("$sssp" --graph "$dir/labels.el" --labels --sources "$dir/depots.txt" --output - -q | head -1)
[ "$got" = "A 1" ] || fail "labels from --sources FILE: got '$got'"
"$sssp" --graph "$dir/labels.el" --labels --source Z > /dev/null 2> "$dir/label.err"
[ $? -eq 2 ] && grep -q "'Z' is not a vertex label" "$dir/label.err" || fail "an unknown label: $(cat "$dir/label.err")"
printf 'u,v\n0,1,3\n' > "$dir/bad.csv"
"$sssp" --graph "$dir/bad.csv" > /dev/null 2> "$dir/csv.err"
[ $? -eq 2 ] && grep -q "bad.csv:2: this line has 3 fields but the header names 2" "$dir/csv.err" ||
  fail "a bad CSV line: $(cat "$dir/csv.err")"
printf 'source,target,weight\n0,1,4\n1,2,5\n' > "$dir/numbers.csv"
got=$("$sssp" --graph "$dir/numbers.csv" --output - -q | tr '\n' ';')
[ "$got" = "0 0;1 4;2 9;" ] || fail "a numeric CSV: got '$got'"

echo "sssp pipes: stdout/stdin round trips, short report, refusals, checks, help, GAP spellings, labels, CSV all hold"
rm -rf "$dir"
