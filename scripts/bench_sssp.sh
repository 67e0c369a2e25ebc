#!/usr/bin/env bash
# SSSP benchmark, one command: every GPU strategy (near-far, bucket-sort,
# bucket-multisplit, bellman-ford) and the CPU delta-stepping on generated and
# real graphs, the three relax load balancers side by side, then a delta sweep,
# and the CPU solver alone at two thread counts.
#
#   scripts/bench_sssp.sh            # full set (parts main, large, balance, sweep, roads, batch, cpu)
#   scripts/bench_sssp.sh --quick    # smaller set (parts main, sweep, roads, cpu); main and sweep take
#                                    # under 3 minutes on an H200
#   scripts/bench_sssp.sh --quick -- --random-sources 4   # after --: extra sssp_bench (= sssp bench) options
#   SSSP_BENCH_PARTS=large scripts/bench_sssp.sh   # only some parts (one file set each)
#
# Parts, one file set each (sssp_bench runs, unless the part names another tool):
#   main     sssp.json       R-MAT scale 20-22 (quick: 18-20), grids 1024^2 and 2048^2
#                            (quick: 1024^2), uniform random 2^20-2^22 (quick: 2^18-2^20),
#                            and the shared real graphs; CPU delta-stepping alongside, at
#                            its best delta per graph (--cpu-delta-c: a short probe)
#   large    sssp_large.json R-MAT scale 23 and 24, a 4096 x 4096 grid, uniform random 2^23
#                            (full mode only; 3 timed runs)
#   balance  sssp_load_balance.json  three-stage, binned and merge-path relax on R-MAT,
#                            grids, uniform random, road and social graphs (full mode only)
#   sweep    sssp_delta.json delta = c * mean weight / mean degree, c = 2..128
#   roads    sssp_roads.json the shared road graphs through the chain contraction and PHAST
#                            (src/contraction_bench): each GPU strategy plain and contracted, the
#                            CPU delta-stepping plain and contracted at its best delta of four,
#                            PHAST's GPU sweep and its host query, 4 sources, same process; its
#                            stdout (the same tables) in sssp_roads.md
#   batch    sssp_batch_{road,grid,rmat}.json  many sources at once (concurrent_sources_bench):
#                            DE with 64 sources, grid 1024^2 and rmat:20:16 with 16 each;
#                            one after another, GpuSolver::solve_batch, 8 concurrent solvers,
#                            and the CPU's batch (Dijkstra, one source per thread, every
#                            core) in the same process (full mode only; DE skipped when absent)
#   cpu      cpu_sssp.json   the CPU solver alone (graph/cpu_sssp_bench, no GPU used; its stdout in
#                            cpu_sssp.txt): Dijkstra on one thread, delta-stepping at 2 threads
#                            (the development machine's cores) and 16 (the GPU host's), at the
#                            CPU's own rule auto_delta_cpu (row "cpu-auto") and at c * mean
#                            weight / mean degree for c = 0.125..128, on rmat:20:16, urand 2^20,
#                            grids 1024^2 and 2048^2 (quick: rmat:18:16 and grid 1024^2) and the
#                            shared real graphs (not the downloads); 5 timed runs
#
# Writes into results/<device>/<YYYY-MM-DD>/ (device from nvidia-smi, e.g.
# results/nvidia-h200/2026-11-23/): NAME.json and NAME.md per part (sssp_bench
# --json/--markdown), NAME.meta.json (command, commit, date) and NAME.log (stderr).
# Then: scripts/plot_results.py DIR and scripts/make_benchmarks_doc.py DIR.
#
# Refuses (exit 2) where no GPU is present, the cpu part included (this is the
# GPU benchmark; run graph/cpu_sssp_bench directly elsewhere). Exit 3: some GPU
# result differed from the CPU reference, or in the cpu part a delta-stepping
# result from Dijkstra (the JSON says which; files are still written).
#
# Weights (the multisplit paper's rule): generated graphs and files without
# weights get uniform integers 1..1000 (random:1:1000, seed 1); road files keep
# their own weights; cond-mat's file weights contain inf, so it gets the rule.
# R-MAT: Graph500 parameters (0.57, 0.19, 0.19, 0.05) and the multisplit
# paper's (0.5, 0.1, 0.1, 0.3).
#
# Environment: SSSP_BUILD_DIR (prebuilt build folder, default build/; its
# src/sssp_bench, src/concurrent_sources_bench and graph/cpu_sssp_bench are
# used as they are, each built only if missing), SSSP_DATASETS (shared
# graphs, default ../shared/datasets), SSSP_DOWNLOADS (graphs fetched by
# datasets/download.sh, default datasets/downloads; full mode only, 0 to skip),
# SSSP_RESULTS (default results/), SSSP_BENCH_RUNS (timed solves per source:
# quick 3, full 5; the cpu part: 5 in both modes), SSSP_BENCH_PARTS
# (space-separated parts to run). Options after -- go to sssp_bench only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_parse_args bench_sssp.sh sssp_bench "$@"

bench_require_gpu bench_sssp.sh
bench_results_dir
data="${SSSP_DATASETS:-$(cd "$bench_root/.." && pwd)/shared/datasets}"
downloads="${SSSP_DOWNLOADS:-$bench_root/datasets/downloads}"

# --weights is left at its default, file: generated graphs and files without
# weights get random:1:1000, files with weights keep theirs (the rule above).
common=(--seed 1)
# The CPU baseline at its best delta per graph: auto_delta_cpu or c * mean
# weight / mean degree for these c, whichever a short probe finds fastest.
cpu_best=(--cpu-delta-c 1,2,4,8,16,32)
paper_rmat=0.5:0.1:0.1:0.3
if [ "$mode" = quick ]; then
  runs="${SSSP_BENCH_RUNS:-3}"
  generate=(rmat:18:16 rmat:19:16 rmat:20:16 "rmat:20:16:$paper_rmat" grid:1024:1024
            urand:262144:16 urand:524288:16 urand:1048576:16)
  sweep_generate=(rmat:20:16)
  cpu_generate=(rmat:18:16 grid:1024:1024)
  parts="${SSSP_BENCH_PARTS:-main sweep roads cpu}"
else
  runs="${SSSP_BENCH_RUNS:-5}"
  generate=(rmat:20:16 rmat:21:16 rmat:22:16 "rmat:20:16:$paper_rmat" "rmat:21:16:$paper_rmat"
            "rmat:22:16:$paper_rmat" grid:1024:1024 grid:2048:2048
            urand:1048576:16 urand:2097152:16 urand:4194304:16)
  sweep_generate=(rmat:20:16 grid:1024:1024)
  cpu_generate=(rmat:20:16 urand:1048576:16 grid:1024:1024 grid:2048:2048)
  parts="${SSSP_BENCH_PARTS:-main large balance sweep roads batch cpu}"
fi
large_generate=(rmat:23:16 rmat:24:16 grid:4096:4096 urand:8388608:16)
balance_generate=(rmat:20:16 rmat:22:16 "rmat:20:16:$paper_rmat" grid:1024:1024 grid:2048:2048 urand:1048576:16)
balance_files=(road/DE.gr road/amsterdam-roads.mtx road/luxembourg_osm.mtx social/email-Enron.mtx
               social/as-22july06.mtx)
for p in $parts; do
  case "$p" in
    main|large|balance|sweep|roads|batch|cpu) ;;
    *) echo "bench_sssp.sh: unknown part '$p' in SSSP_BENCH_PARTS (main, large, balance, sweep, roads, batch, cpu)" >&2
       exit 2 ;;
  esac
done
want() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# sssp_bench only where a part runs it (the roads, batch and cpu parts run their own tools).
bench_bin=""
if want main || want large || want balance || want sweep; then bench_binary src/sssp_bench sssp_bench; fi

# FILE[@RULE]; files missing here are skipped with a message.
shared=(road/DE.gr road/rome99.gr road/andorra_osm.mtx road/amsterdam-roads.mtx road/luxembourg_osm.mtx
        social/email-Enron.mtx social/pgp-strong-2009.mtx social/cond-mat-2005.mtx@random:1:1000
        social/as-22july06.mtx mesh/copter2.mtx)
shared_graphs=()
for f in "${shared[@]}"; do
  if [ -f "$data/${f%@*}" ]; then shared_graphs+=(--graph "$data/$f"); else echo "skipping $f: not under $data" >&2; fi
done
graphs=("${shared_graphs[@]}")
if [ "$mode" = full ] && [ "$downloads" != 0 ] && [ -d "$downloads" ]; then
  # Standard collections fetched by datasets/download.sh (the GPU machine may have none).
  while IFS= read -r f; do graphs+=(--graph "$f"); done < <(find "$downloads" -maxdepth 1 -type f \
    \( -name '*.mtx' -o -name '*.gr' \) | sort)
fi
sweep_graph=()
[ -f "$data/road/DE.gr" ] && sweep_graph=(--graph "$data/road/DE.gr")
balance_graphs=()
for f in "${balance_files[@]}"; do
  [ -f "$data/$f" ] && balance_graphs+=(--graph "$data/$f")
done

rc_all=0
# run_recorded NAME TOOL STDOUT CMD...: runs CMD with its stderr in NAME.log
# (and on the terminal) and its stdout in STDOUT, writes NAME.meta.json, and
# keeps the first failing exit in rc_all (3, results that differ from
# Dijkstra, without a message: the tool printed them).
run_recorded() {
  local name="$1" tool="$2" stdout="$3"
  shift 3
  echo "== $name: $*" >&2
  local t0=$SECONDS rc=0
  "$@" 2> >(tee "$bench_out/$name.log" >&2) >"$stdout" || rc=$?
  bench_meta "$bench_out/$name.meta.json" sssp "$mode" "$script_cmd" "$rc" "$((SECONDS - t0))" "$@"
  echo "== $name: exit $rc after $((SECONDS - t0)) s" >&2
  if [ "$rc" -ne 0 ]; then
    [ "$rc_all" -eq 0 ] && rc_all=$rc
    [ "$rc" -ne 3 ] && echo "bench_sssp.sh: $tool failed (exit $rc); see $bench_out/$name.log" >&2
  fi
  return 0
}

# run NAME ARGS...: one sssp_bench call -> NAME.json, NAME.md, NAME.log, NAME.meta.json
run() {
  local name="$1"
  shift
  run_recorded "$name" sssp_bench /dev/null "$bench_bin" "$@" --json "$bench_out/$name.json" \
    --markdown "$bench_out/$name.md" "${extra[@]}"
}

# generate_args SPEC...: --generate SPEC for each
generate_args() { for g in "$@"; do printf '%s\n' --generate "$g"; done; }

if want main; then
  mapfile -t gen_args < <(generate_args "${generate[@]}")
  run sssp "${common[@]}" "${cpu_best[@]}" --runs "$runs" "${gen_args[@]}" "${graphs[@]}"
fi
if want large && [ "$mode" = full ]; then
  mapfile -t gen_args < <(generate_args "${large_generate[@]}")
  run sssp_large "${common[@]}" "${cpu_best[@]}" --runs "${SSSP_BENCH_RUNS:-3}" "${gen_args[@]}"
fi
if want balance && [ "$mode" = full ]; then
  mapfile -t gen_args < <(generate_args "${balance_generate[@]}")
  run sssp_load_balance "${common[@]}" --runs "$runs" --no-cpu --load-balance three-stage,binned,merge-path \
    "${gen_args[@]}" "${balance_graphs[@]}"
fi
if want sweep; then
  mapfile -t gen_args < <(generate_args "${sweep_generate[@]}")
  run sssp_delta "${common[@]}" --runs "$runs" --no-cpu --delta-c 2,4,8,16,32,64,128,256 "${gen_args[@]}" \
    "${sweep_graph[@]}"
fi

if want roads; then
  road_files=()
  for f in road/DE.gr road/luxembourg_osm.mtx road/andorra_osm.mtx road/amsterdam-roads.mtx road/rome99.gr; do
    if [ -f "$data/$f" ]; then road_files+=("$data/$f"); else echo "skipping $f in the roads part: not under $data" >&2; fi
  done
  if [ "${#road_files[@]}" -gt 0 ]; then
    sssp_bench_bin="$bench_bin"
    bench_binary src/contraction_bench contraction_bench
    roads_bin="$bench_bin"
    bench_bin="$sssp_bench_bin"
    run_recorded sssp_roads contraction_bench "$bench_out/sssp_roads.md" \
      "$roads_bin" --runs "$runs" --sources 4 --seed 1 --json "$bench_out/sssp_roads.json" "${road_files[@]}"
  fi
fi

if want batch && [ "$mode" = full ]; then
  sssp_bench_bin="$bench_bin"
  bench_binary src/concurrent_sources_bench concurrent_sources_bench
  batch_bin="$bench_bin"
  bench_bin="$sssp_bench_bin"
  # run_batch NAME K GRAPH: one concurrent_sources_bench call -> NAME.json, NAME.md, NAME.log, NAME.meta.json
  run_batch() {
    run_recorded "$1" concurrent_sources_bench "$bench_out/$1.md" \
      "$batch_bin" --sources "$2" --solvers 8 --seed 1 --json "$bench_out/$1.json" "$3"
  }
  if [ -f "$data/road/DE.gr" ]; then
    run_batch sssp_batch_road 64 "$data/road/DE.gr"
  else
    echo "skipping the batch part's road graph: road/DE.gr not under $data" >&2
  fi
  run_batch sssp_batch_grid 16 gen:grid:1024:1024
  run_batch sssp_batch_rmat 16 gen:rmat:20:16
fi

if want cpu; then
  gpu_bench_bin="$bench_bin"
  bench_binary graph/cpu_sssp_bench cpu_sssp_bench
  cpu_bin="$bench_bin"
  bench_bin="$gpu_bench_bin"
  # The CPU baseline on its own, at 2 threads (the development machine's
  # cores, where auto_delta_cpu was fitted) and 16 (the GPU host's: the
  # "16-core CPU" the GPU solver is compared with), at its own rule and every
  # c of the main part's probe and beyond: how far the rule is from the CPU's
  # best delta per graph. Shared real graphs only: 12 deltas at 2 thread
  # counts on the downloads (road_usa, europe_osm) would outlast every other
  # part. A generated spec cannot carry its own weight rule (--weights is one
  # for all graphs), so there is no R-MAT with weights 1..255 here.
  mapfile -t gen_args < <(generate_args "${cpu_generate[@]}")
  run_recorded cpu_sssp cpu_sssp_bench "$bench_out/cpu_sssp.txt" \
    "$cpu_bin" --threads 2,16 --runs "${SSSP_BENCH_RUNS:-5}" "${common[@]}" \
    --delta auto --delta-c 0.125,0.25,0.5,1,2,4,8,16,32,64,128 --json "$bench_out/cpu_sssp.json" \
    "${gen_args[@]}" "${shared_graphs[@]}"
fi

echo "results in $bench_out (plots: scripts/plot_results.py $bench_out)" >&2
exit "$rc_all"
