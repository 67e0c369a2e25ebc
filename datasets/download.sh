#!/usr/bin/env bash
# Fetch the standard SSSP benchmark graphs by name into datasets/downloads/
# (git-ignored), check them, unpack them.
#
#   datasets/download.sh --list                 # names, sizes, sources
#   datasets/download.sh belgium_osm USA-road-d.NY
#   datasets/download.sh --all                  # every graph (several GB)
#
# SuiteSparse Matrix Collection (Matrix Market .tar.gz) and the 9th DIMACS
# challenge (.gr.gz). After unpacking, the header counts (vertices, stored
# entries / arcs) are compared with the published ones and the number of data
# lines with the header, so a truncated or wrong file fails loudly.
# Exit codes: 0 done, 1 download or check failed (offline, truncated, wrong
# counts), 2 bad usage or unknown name.
# Environment: SSSP_DOWNLOADS (target folder, default datasets/downloads),
# SSSP_MIRROR (a base URL or file:// folder laid out like the sources, for
# mirrors and tests), SSSP_DOWNLOAD_TIMEOUT (seconds to connect, default 20).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${SSSP_DOWNLOADS:-$here/downloads}"
suitesparse="https://suitesparse-collection-website.herokuapp.com/MM"
dimacs="http://www.diag.uniroma1.it/challenge9/data/USA-road-d"

# name | source path | format | vertices | entries (stored entries of the .mtx, or arcs of
# the .gr; "-" where not recorded: then only the line count is checked) | kind
catalog=(
  "belgium_osm|DIMACS10/belgium_osm|mtx|1441295|1549970|road (OSM), undirected"
  "road_usa|DIMACS10/road_usa|mtx|23947347|28854312|road (TIGER), undirected"
  "europe_osm|DIMACS10/europe_osm|mtx|50912018|54054660|road (OSM), undirected"
  "soc-LiveJournal1|SNAP/soc-LiveJournal1|mtx|4847571|68993773|social, directed"
  "hollywood-2009|LAW/hollywood-2009|mtx|1139905|-|collaboration, undirected"
  "cit-Patents|SNAP/cit-Patents|mtx|3774768|16518948|citation, directed"
  "kron_g500-logn21|DIMACS10/kron_g500-logn21|mtx|2097152|-|Kronecker (Graph500), undirected"
  "USA-road-d.NY|USA-road-d.NY|gr|264346|733846|road (TIGER), distances, directed arcs"
  "USA-road-d.USA|USA-road-d.USA|gr|23947347|58333344|road (TIGER), distances, directed arcs"
)

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "download.sh: $*" >&2; exit 1; }

entry_of() {
  local e
  for e in "${catalog[@]}"; do [ "${e%%|*}" = "$1" ] && { printf '%s' "$e"; return 0; }; done
  return 1
}

url_of() {  # url_of PATH FORMAT
  if [ "$2" = mtx ]; then
    printf '%s/%s.tar.gz' "${SSSP_MIRROR:-$suitesparse}" "$1"
  else
    printf '%s/%s.gr.gz' "${SSSP_MIRROR:-$dimacs}" "$1"
  fi
}

fetch() {  # fetch URL FILE
  local tmp="$2.part"
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 --connect-timeout "${SSSP_DOWNLOAD_TIMEOUT:-20}" -o "$tmp" "$1" || return 1
  elif command -v wget >/dev/null 2>&1; then
    wget -q --tries=2 --timeout="${SSSP_DOWNLOAD_TIMEOUT:-20}" -O "$tmp" "$1" || return 1
  else
    die "neither curl nor wget is installed (apt-get install curl)"
  fi
  mv "$tmp" "$2"
}

# check FILE FORMAT VERTICES ENTRIES: header counts and line count.
check() {
  local file="$1" format="$2" want_n="$3" want_m="$4" n m lines
  if [ "$format" = mtx ]; then
    read -r n _ m < <(grep -v '^%' "$file" | head -n 1)
    lines=$(grep -vc '^%' "$file")
    lines=$((lines - 1))
  else
    read -r _ _ n m < <(grep '^p ' "$file" | head -n 1)
    lines=$(grep -c '^a ' "$file" || true)
  fi
  [ -n "${n:-}" ] && [ -n "${m:-}" ] || { echo "  $file: no header line" >&2; return 1; }
  [ "$n" = "$want_n" ] || { echo "  $file: $n vertices in the header, expected $want_n" >&2; return 1; }
  if [ "$want_m" != - ] && [ "$m" != "$want_m" ]; then
    echo "  $file: $m entries in the header, expected $want_m" >&2
    return 1
  fi
  [ "$lines" = "$m" ] || { echo "  $file: $lines data lines but the header says $m (truncated?)" >&2; return 1; }
  echo "  $file: $n vertices, $m entries: ok" >&2
}

get() {
  local entry name path format want_n want_m kind
  entry="$(entry_of "$1")" || { echo "download.sh: unknown graph '$1' (see --list)" >&2; exit 2; }
  IFS='|' read -r name path format want_n want_m kind <<<"$entry"
  local final="$dest/$name.$format"
  if [ -f "$final" ]; then
    echo "$name: already in $final; checking" >&2
    check "$final" "$format" "$want_n" "$want_m" || die "$final fails the check; delete it and run again"
    return 0
  fi
  mkdir -p "$dest"
  local url archive
  url="$(url_of "$path" "$format")"
  archive="$dest/${url##*/}"
  echo "$name: fetching $url" >&2
  if ! fetch "$url" "$archive"; then
    rm -f "$archive.part"
    die "could not download $url (offline, or the server moved it). Fetch it by hand into $dest/ and run again; it will be checked and unpacked."
  fi
  gzip -t "$archive" 2>/dev/null || die "$archive is not a complete gzip file (interrupted download?); delete it and run again"
  echo "$name: unpacking $(du -h "$archive" | cut -f1) archive" >&2
  if [ "$format" = mtx ]; then
    # SuiteSparse tarballs hold NAME/NAME.mtx (plus, for some, side files we do not use).
    tar -xzf "$archive" -C "$dest" "$name/$name.mtx" || die "$archive holds no $name/$name.mtx"
    mv "$dest/$name/$name.mtx" "$final.tmp"
    rmdir "$dest/$name" 2>/dev/null || true
  else
    gzip -dc "$archive" >"$final.tmp"
  fi
  check "$final.tmp" "$format" "$want_n" "$want_m" || { mv "$final.tmp" "$final.bad"; die "$name: check failed (kept as $final.bad)"; }
  mv "$final.tmp" "$final"
  rm -f "$archive"
  echo "$name: ready, $final" >&2
}

[ $# -gt 0 ] || { usage >&2; exit 2; }
names=()
case "$1" in
  -h|--help) usage; exit 0 ;;
  --list)
    printf '%-18s %12s %12s  %-38s %s\n' name vertices entries kind source
    for e in "${catalog[@]}"; do
      IFS='|' read -r name path format want_n want_m kind <<<"$e"
      printf '%-18s %12s %12s  %-38s %s\n' "$name" "$want_n" "$want_m" "$kind" "$(url_of "$path" "$format")"
    done
    exit 0 ;;
  --all) for e in "${catalog[@]}"; do names+=("${e%%|*}"); done ;;
  *) names=("$@") ;;
esac
for n in "${names[@]}"; do entry_of "$n" >/dev/null || { echo "download.sh: unknown graph '$n' (see --list)" >&2; exit 2; }; done
for n in "${names[@]}"; do get "$n"; done
