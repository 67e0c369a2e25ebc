#!/usr/bin/env python3
"""Regenerate docs/BENCHMARKS.md from one results folder, numbers and all.

    scripts/make_benchmarks_doc.py results/nvidia-h200/2026-11-23
    scripts/make_benchmarks_doc.py DIR --out /tmp/B.md --allow-synthetic   # tests only

Draws the plots first (scripts/plot_results.py, into DIR/plots/), then writes
tables, plots, the exact commands (from DIR/*.meta.json), graph provenance, the
weight rule and a short reading of the numbers. Every number and every
sentence that states one comes from the JSON: never edit the output by hand,
rerun this script. Refuses the synthetic test fixture unless --allow-synthetic.
DIR/python.json (scripts/bench_python.py --json), where present, adds the
Python section (gpu_sssp against scipy, NetworkX and igraph); absent: none.
"""
import argparse
import math
import os
import statistics
import sys

try:
    import matplotlib  # noqa: F401  (only to find out whether this python has it)
except ImportError:  # same retry as plot_results.py: Debian's package belongs to /usr/bin/python3
    if (os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3")
            and not os.environ.get("SSSP_PLOT_REEXEC")):
        os.environ["SSSP_PLOT_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_results as pr  # noqa: E402
import benchmarks_doc_extra  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GPU_STRATEGIES = ["near-far", "bucket-sort", "bucket-multisplit", "bellman-ford"]

# Where the real graphs come from (../shared/datasets/README.md, datasets/README.md).
PROVENANCE = {
    "DE": "DIMACS 9th challenge road network (TIGER/Line, Delaware), distances as weights",
    "rome99": "DIMACS 9th challenge road network (Rome), file weights",
    "andorra_osm": "OpenStreetMap (ODbL), one-way streets, great-circle length in decimetres",
    "amsterdam-roads": "OpenStreetMap (ODbL), Euclidean length",
    "luxembourg_osm": "SuiteSparse DIMACS10 (OpenStreetMap), pattern only",
    "email-Enron": "SNAP e-mail network, pattern only",
    "pgp-strong-2009": "PGP web of trust (graph-tool collection), pattern only",
    "cond-mat-2005": "Newman co-authorship network (graph-tool), real weights with inf",
    "as-22july06": "Internet AS graph (Newman), pattern only",
    "copter2": "finite-element mesh (METIS documentation), pattern only",
    "belgium_osm": "SuiteSparse DIMACS10/belgium_osm (OpenStreetMap), pattern only",
    "road_usa": "SuiteSparse DIMACS10/road_usa, pattern only",
    "europe_osm": "SuiteSparse DIMACS10/europe_osm (OpenStreetMap), pattern only",
    "soc-LiveJournal1": "SuiteSparse SNAP/soc-LiveJournal1, pattern only",
    "hollywood-2009": "SuiteSparse LAW/hollywood-2009, pattern only",
    "cit-Patents": "SuiteSparse SNAP/cit-Patents, pattern only",
    "kron_g500-logn21": "SuiteSparse DIMACS10/kron_g500-logn21 (Graph500 Kronecker), pattern only",
    "USA-road-d.NY": "DIMACS 9th challenge, New York road distances",
    "USA-road-d.USA": "DIMACS 9th challenge, full USA road distances",
}
FILE_WEIGHTED = {"DE", "rome99", "andorra_osm", "amsterdam-roads", "USA-road-d.NY", "USA-road-d.USA"}


def fmt(v, digits=None):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if digits is None:
        digits = 0 if abs(v) >= 100 else (1 if abs(v) >= 10 else 2)
    return f"{v:,.{digits}f}"


xrange_ = pr.ratio_range


def span(values, form):
    lo, hi = form.format(min(values)), form.format(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def names(graphs):
    return ", ".join(pr.graph_label(g) for g in graphs)


def generated_description(g):
    p = g.split(":")
    if p[0] == "rmat":
        abcd = "(" + ", ".join(p[3:7]) + ")" if len(p) >= 7 else "Graph500 (0.57, 0.19, 0.19, 0.05)"
        return f"R-MAT, 2^{p[1]} vertices, {p[2]} x 2^{p[1]} edges mirrored, (a, b, c, d) = {abcd}"
    if p[0] == "grid":
        return f"{p[1]} x {p[2]} grid, 4 neighbours, arcs both ways"
    if p[0] == "urand":
        return f"uniform random, {p[1]} vertices, {p[2]} x n edges mirrored"
    return g


def weight_rule(g, default_rule):
    if "@" in g:
        return g.split("@", 1)[1] + " (overrides the file's)"
    if ":" in g:
        return default_rule
    return "file weights" if pr.graph_label(g) in FILE_WEIGHTED else f"{default_rule} (file has none or is not used)"


class Doc:
    def __init__(self):
        self.lines = []

    def add(self, *lines):
        self.lines.extend(lines)

    def table(self, header, rows, align=None):
        align = align or ["---"] + ["---:"] * (len(header) - 1)
        self.add("| " + " | ".join(header) + " |", "|" + "|".join(align) + "|")
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")


def by_graph(rows):
    out = {}
    for r in rows:
        out.setdefault(r["graph"], {})[pr.strategy_key(r["method"])] = r
    return out


def sssp_section(doc, data, meta, rel_plot, plots):
    rows = data["rows"]
    graphs = pr.graphs_in_order(rows)
    table = by_graph(rows)
    rule = data.get("weights_for_unweighted", "random:1:1000")
    doc.add("## SSSP: strategies compared", "")
    doc.add(f"One random source with out-arcs per graph (seed {data.get('seed', 1)}; "
            f"{data.get('sources_per_graph', 1)} source(s) per graph), one warm-up solve, then the median of "
            f"{data.get('runs', '?')} timed solves (CUDA events around the solve only; loading and upload excluded). "
            "MTEPS = arcs leaving reached vertices / solve time (Gunrock's definition); work ratio = arcs relaxed / "
            "arcs leaving reached vertices (1.0 = Dijkstra). GPU delta = c x mean weight / mean degree (Davidson et al.) "
            "with the GPU's rule for c (sssp::choose_delta_c: 128 from a hop diameter estimate of 32 up, else 16; "
            "until commit 082f5aa, 32 for every graph) unless swept; the CPU delta-stepping runs at its best delta per graph (the fastest of "
            "graph::auto_delta_cpu and c x mean weight / mean degree for c = 1, 2, 4, 8, 16, 32 in a 3-solve "
            "probe; `delta_choice` in the JSON), shown in its rows. Every GPU result is compared with the CPU "
            "delta-stepping's distances.", "")

    doc.add("### Graphs and weights", "")
    rows_out = []
    for g in graphs:
        any_row = next(iter(table[g].values()))
        label = pr.graph_label(g)
        source = generated_description(g) if ":" in g.split("@")[0] else PROVENANCE.get(label, "file " + g)
        rows_out.append([label, pr.graph_kind(g), f"{any_row['vertices']:,}", f"{any_row['arcs']:,}",
                         weight_rule(g, rule), source])
    doc.table(["graph", "family", "vertices", "arcs", "weights", "source"], rows_out,
              ["---", "---", "---:", "---:", "---", "---"])
    doc.add(f"Weight rule (the multisplit paper's): generated graphs and files without weights get uniform "
            f"integers 1..1000 (`{rule}`, seed {data.get('seed', 1)}); road files keep their own weights; "
            "cond-mat-2005's file weights contain inf, so it gets the rule. Real files: "
            "`../shared/datasets/` (see its README) and `datasets/download.sh` (see `datasets/README.md`).", "")

    doc.add("### Summary: fastest strategy per graph", "")
    summary = []
    for g in graphs:
        t = table[g]
        gpu = {s: t[s] for s in GPU_STRATEGIES if s in t and pr.row_ok(t[s])}
        best = min(gpu.values(), key=lambda r: r["median_ms"]) if gpu else None
        cpu = t.get("cpu")
        nf = t.get("near-far")
        summary.append([pr.graph_label(g),
                        pr.strategy_label(best["method"]) if best else "none valid",
                        fmt(best["median_ms"], 3) if best else "-",
                        fmt(best["mteps"], 0 if best["mteps"] >= 10 else 1) if best else "-",
                        f"{nf['median_ms'] / best['median_ms']:.2f}x" if best and nf and nf["median_ms"] > 0 else "-",
                        fmt(cpu["median_ms"], 3) if cpu else "-",
                        f"{cpu['median_ms'] / best['median_ms']:.2f}x" if best and cpu else "-"])
    doc.table(["graph", "fastest GPU strategy", "ms", "MTEPS", "vs near-far", "CPU delta-stepping ms",
               "fastest GPU vs CPU"], summary, ["---", "---", "---:", "---:", "---:", "---:", "---:"])
    for name in ("sssp_mteps.png", "sssp_work_ratio.png"):
        if name in plots:
            doc.add(f"![{plots[name]}]({rel_plot(name)})", "")

    doc.add("### What the SSSP numbers show", "")
    doc.add(*sssp_reading(rows, graphs, table), "")

    doc.add("### All SSSP results", "")
    full = []
    for g in graphs:
        for s in pr.STRATEGY_ORDER:
            r = table[g].get(s)
            if r is None:
                continue
            full.append([pr.graph_label(g), pr.strategy_label(r["method"]), fmt(r["delta"], 0),
                         fmt(r["median_ms"], 3), f"{fmt(r['min_ms'], 3)}-{fmt(r['max_ms'], 3)}", fmt(r["mteps"]),
                         fmt(r["work_ratio"], 2), r["iterations"], r["buckets_processed"],
                         f"{r['speedup_vs_near_far']:.2f}x" if r.get("speedup_vs_near_far") else "-",
                         f"{r['speedup_vs_cpu']:.2f}x" if r.get("speedup_vs_cpu") else "-", r["valid"]])
    doc.table(["graph", "strategy", "delta", "median ms", "min-max ms", "MTEPS", "work ratio", "iterations",
               "buckets", "vs near-far", "vs CPU", "valid"], full,
              ["---", "---"] + ["---:"] * 9 + ["---"])


def sssp_reading(rows, graphs, table):
    out = []
    bad = [r for r in rows if not pr.row_ok(r) and r.get("valid") not in ("yes", "reference")]
    out.append(f"- Validity: {len(rows) - len(bad)} of {len(rows)} results match the CPU reference"
               + (f"; NOT valid: {', '.join(pr.graph_label(r['graph']) + ' ' + r['method'] for r in bad)}."
                  if bad else "."))
    families = {}
    for g in graphs:
        families.setdefault(pr.graph_kind(g), []).append(g)
    for kind in pr.KIND_ORDER:
        gs = families.get(kind)
        if not gs:
            continue
        winners, vs_cpu, per_round = {}, [], []
        for g in gs:
            t = table[g]
            valid = {s: r for s, r in t.items() if pr.row_ok(r)}
            if not valid:
                continue
            w = min(valid, key=lambda s: valid[s]["median_ms"])
            winners.setdefault(w, []).append(g)
            gpu = [valid[s] for s in GPU_STRATEGIES if s in valid]
            if gpu and "cpu" in valid:
                vs_cpu.append(valid["cpu"]["median_ms"] / min(r["median_ms"] for r in gpu))
            nf = valid.get("near-far")
            if nf and nf["iterations"] > 0:
                per_round.append((nf["iterations"], nf["median_ms"] * 1000 / nf["iterations"],
                                  nf["reached_vertices"] / nf["iterations"], nf.get("local_steps"),
                                  nf.get("us_per_step")))
        parts = [f"{pr.strategy_label(next(table[g][w]['method'] for g in ws))} on {len(ws)} "
                 f"({names(ws)})" for w, ws in sorted(winners.items(), key=lambda kv: -len(kv[1]))]
        text = f"- {kind[0].upper() + kind[1:]} ({len(gs)} graph{'s' if len(gs) > 1 else ''}): fastest is " + \
               "; ".join(parts) + "."
        if vs_cpu:
            text += f" The fastest GPU strategy runs at {xrange_(vs_cpu)} the speed of the CPU delta-stepping."
        if per_round:
            its = [p[0] for p in per_round]
            us = [p[1] for p in per_round]
            front = [p[2] for p in per_round]
            text += (f" Near-far needs {span(its, '{:,.0f}')} rounds here, about {span(us, '{:.1f}')} us per round "
                     f"(solve time / rounds), {span(front, '{:,.0f}')} reached vertices per round on average")
            if statistics.median(front) < 2000:
                text += ": many small dependent rounds, so per-round latency, not bandwidth, sets the time."
            elif kind.startswith("grid") or kind == "mesh":
                # High hop diameter, yet few, wide rounds: the cluster's rounds,
                # each block cascading on its own output before the barrier.
                text += (": most rounds are the cluster regime's, whose blocks each take local steps (up to kClusterLocalSteps) "
                         "before its barrier (docs/ARCHITECTURE.md, \"Cluster\"), so a round here counts "
                         "barriers, not hops.")
            else:
                text += ": rounds are wide enough to fill the GPU, so work and load balance decide."
            steps = [p for p in per_round if p[3] is not None and p[4]]
            if steps and max(p[3] for p in steps) > 0:
                text += (f" Counting the cluster's local steps (the hops its blocks take between its barriers: "
                         f"{span([p[3] for p in steps], '{:,.0f}')} here), a dependent step costs "
                         f"{span([p[4] for p in steps], '{:.2f}')} us (solve time / (rounds + local steps)).")
        out.append(text)
    # Bucketing vs near-far and Bellman-Ford's extra work.
    for s in ("bucket-sort", "bucket-multisplit", "bellman-ford"):
        ratios = {g: table[g]["near-far"]["median_ms"] / table[g][s]["median_ms"] for g in graphs
                  if s in table[g] and "near-far" in table[g] and pr.row_ok(table[g][s])
                  and pr.row_ok(table[g]["near-far"])}
        if not ratios:
            continue
        wins = [g for g, v in ratios.items() if v > 1.05]
        text = (f"- {pr.strategy_label(s)} vs Near-Far: {xrange_(ratios.values())} of its speed "
                f"(geometric mean {geomean(ratios.values()):.2f}x); clearly faster (> 1.05x) on "
                + (f"{len(wins)} graph(s): {names(wins)}." if wins else "no graph."))
        if s == "bellman-ford":
            w_bf = [table[g][s]["work_ratio"] for g in ratios]
            w_nf = [table[g]["near-far"]["work_ratio"] for g in ratios]
            text += (f" It relaxes each arc {min(w_bf):.1f}-{max(w_bf):.1f} times (near-far: "
                     f"{min(w_nf):.1f}-{max(w_nf):.1f}), yet needs no bucket bookkeeping; it wins where few "
                     "rounds and cheap extra work beat ordering.")
        out.append(text)
    return out


def rule_c(points, main_rows, graph):
    """The sweep's c whose delta is the one the main run used on `graph` (the GPU rule's), or None."""
    deltas = [r["delta"] for r in main_rows
              if r.get("graph") == graph and r.get("method") == "near-far" and r.get("delta", 0) > 0]
    if not deltas:
        return None
    near = [p for p in points if abs(p[1] / deltas[0] - 1) < 0.01]
    return near[0][0] if near else None


def bucket_vs_near_far(doc, rows, graph):
    """Why bucketing is (or is not) faster than near-far at the same delta: their rounds and times per c."""
    per = {}
    for r in rows:
        m = pr.SWEEP_NAME.match(r["graph"])
        if m and m.group(1) == graph and r.get("median_ms", 0) > 0:
            per.setdefault(float(m.group(2)), {})[r["method"]] = r
    pairs = [(c, v["near-far"], v["bucket-multisplit"]) for c, v in sorted(per.items())
             if "near-far" in v and "bucket-multisplit" in v]
    if not pairs:
        return
    speed = [nf["median_ms"] / bm["median_ms"] for _, nf, bm in pairs]
    same = sum(1 for _, nf, bm in pairs if nf.get("rounds") == bm.get("rounds"))
    rounds = ", ".join(f"c = {c:g}: {nf.get('rounds', 0):,} / {bm.get('rounds', 0):,}" for c, nf, bm in pairs)
    doc.add(f"Bucketing (multisplit) against near-far at the same c: {min(speed):.2f}-{max(speed):.2f}x its speed; "
            f"rounds near-far / bucketing {rounds} (equal at {same} of {len(pairs)} c). Both run the same "
            "windows and the same rounds; a full split saves only near-far's per-phase scan of the far pile, "
            "which runs inside the round's kernels.", "")


def sweep_section(doc, data, rel_plot, plots, main_rows):
    series = pr.sweep_series(data.get("rows", []))
    if not series:
        return
    doc.add("### Delta sweep", "")
    doc.add("delta = c x mean weight / mean degree; the GPU rule picks c from the graph's shape (docs/TUNING.md, "
            "\"GPU delta rule\"), its row marked *. Median solve time in ms per strategy (CPU timing skipped).", "")
    for g in sorted(series, key=lambda x: (pr.KIND_ORDER.index(pr.graph_kind(x)), x)):
        strategies = [s for s in pr.STRATEGY_ORDER if s in series[g]]
        cs = sorted({p[0] for s in strategies for p in series[g][s]})
        chosen = rule_c([p for s in strategies for p in series[g][s]], main_rows, g)
        rows = []
        for c in cs:
            cells = []
            delta = None
            for s in strategies:
                p = next((p for p in series[g][s] if p[0] == c), None)
                cells.append(f"{p[2]:.3f} ({p[3]:.2f})" if p else "-")
                delta = delta or (p[1] if p else None)
            rows.append([f"{c:g}" + (" *" if c == chosen else ""), fmt(delta, 0)] + cells)
        doc.add(f"**{pr.graph_label(g)}** (ms, work ratio in parentheses)", "")
        doc.table(["c", "delta"] + [pr.STRATEGY_STYLE[s][0] for s in strategies], rows)
        best = []
        for s in strategies:
            pts = series[g][s]
            b = min(pts, key=lambda p: p[2])
            at_rule = next((p for p in pts if p[0] == chosen), None)
            best.append(f"{pr.STRATEGY_STYLE[s][0]} is fastest at c = {b[0]:g} ({b[2]:.3f} ms"
                        + (f", {at_rule[2] / b[2]:.2f}x the rule's c = {chosen:g})" if at_rule else ")"))
        doc.add("Reading: " + "; ".join(best) + ".", "")
        bucket_vs_near_far(doc, data.get("rows", []), g)
    if "sssp_delta_sweep.png" in plots:
        doc.add(f"![{plots['sssp_delta_sweep.png']}]({rel_plot('sssp_delta_sweep.png')})", "")


def paper_section(doc, data):
    table = by_graph(data["rows"])
    graphs = [g for g in pr.graphs_in_order(data["rows"])
              if g.startswith("rmat:") and g.endswith(":0.5:0.1:0.1:0.3") or ":" not in g.split("@")[0]]
    doc.add("## Reproduction: the multisplit paper's SSSP comparison", "")
    doc.add("Ashkiani et al. (GPU Multisplit, PPoPP 2016, section 7) compare Near-Far (Davidson et al.), "
            "bucketing with a radix sort, and bucketing with multisplit on R-MAT graphs with (a, b, c, d) = "
            "(0.5, 0.1, 0.1, 0.3) and on real graphs, weights uniform 1..1000. Here the same three on our "
            "R-MAT with those parameters and on every real graph of this run (MTEPS; speed-up = near-far time / "
            "strategy time).", "")
    rows, sp_sort, sp_ms = [], [], []
    for g in graphs:
        t = table[g]
        if not all(s in t and pr.row_ok(t[s]) for s in ("near-far", "bucket-sort", "bucket-multisplit")):
            continue
        nf, bs, bm = t["near-far"], t["bucket-sort"], t["bucket-multisplit"]
        a, b = nf["median_ms"] / bs["median_ms"], nf["median_ms"] / bm["median_ms"]
        sp_sort.append(a)
        sp_ms.append(b)
        rows.append([pr.graph_label(g), pr.graph_kind(g), fmt(nf["mteps"], 0), fmt(bs["mteps"], 0), fmt(bm["mteps"], 0),
                     f"{a:.2f}x", f"{b:.2f}x"])
    if not rows:
        doc.add("No graph of this run has valid near-far, bucket-sort and bucket-multisplit results.", "")
        return
    doc.table(["graph", "family", "Near-Far MTEPS", "Bucketing (sort) MTEPS", "Multisplit-SSSP MTEPS",
               "sort vs NF", "multisplit vs NF"], rows, ["---", "---"] + ["---:"] * 5)
    doc.add(f"Reading: multisplit bucketing runs at {xrange_(sp_ms)} of near-far's speed (geometric mean "
            f"{geomean(sp_ms):.2f}x), sort bucketing at {xrange_(sp_sort)} (geometric mean {geomean(sp_sort):.2f}x). "
            "The project's target (>= 1.3x near-far on R-MAT and social graphs; the multisplit paper reports "
            "1.28-2.17x) is "
            + ("met." if min(sp_ms) >= 1.3 else "not met on this run. Note that our bucketing strategies run "
               "near-far's device loop and differ from it only in how the far pile is split (src/sssp/bench/NOTES.md), "
               "so their times track near-far's.") , "")


# The CPU's own delta rule counts as good on a graph within this factor of the
# best delta's time (the criterion it was validated with, docs/TUNING.md).
CPU_AUTO_TOLERANCE = 1.15
GRAPH500_RMAT = ":0.57:0.19:0.19:0.05"


def cpu_graph_name(name):
    """cpu_sssp_bench's graph name as sssp_bench writes it, for pr.graph_label: a file by its
    base name, R-MAT without the Graph500 parameters that the generator's description spells out."""
    if name.split(":")[0] in ("rmat", "grid", "urand"):
        return name[:-len(GRAPH500_RMAT)] if name.startswith("rmat:") and name.endswith(GRAPH500_RMAT) else name
    return os.path.basename(name)


def unit_delta(rows):
    """The delta at c = 1 (mean weight / mean degree): the c=1 row's, else the largest c's / c
    (auto_delta never clamps a large c to the smallest weight)."""
    cs = [(float(r["delta_rule"][2:]), r["delta"]) for r in rows if r["delta_rule"].startswith("c=")]
    one = [d for c, d in cs if c == 1]
    if one:
        return one[0]
    if cs:
        c, d = max(cs)
        return d / c
    return None


def c_text(c):
    """A c value, two significant digits: 0.67, 6.8, 16, 128."""
    return f"{c:.2g}" if c < 100 else f"{c:.0f}"


def delta_label(rule):
    """cpu_sssp_bench's delta_rule for the table: "c=4" -> "c = 4", "cpu-auto" -> "auto"."""
    return "auto" if rule == "cpu-auto" else rule.replace("c=", "c = ")


def cpu_cells(rows, dijkstra_ms):
    """The four cells of one thread count: auto ms (c), best ms (its delta), auto / best, best vs
    Dijkstra; and auto / best as a number (None without an auto row)."""
    if not rows:
        return ["-"] * 4, None
    best = min(rows, key=lambda r: r["median_ms"])
    auto = next((r for r in rows if r["delta_rule"] == "cpu-auto"), None)
    unit = unit_delta(rows)
    ratio = auto["median_ms"] / best["median_ms"] if auto else None
    auto_cell = "-"
    if auto:
        auto_cell = fmt(auto["median_ms"], 3) + (f" (c = {c_text(auto['delta'] / unit)})" if unit else "")
    return [auto_cell, f"{fmt(best['median_ms'], 3)} ({delta_label(best['delta_rule'])})",
            f"{ratio:.2f}x" if ratio else "-", f"{dijkstra_ms / best['median_ms']:.2f}x"], ratio


def cpu_command(meta):
    """The command as run, from the run record; bench_meta's printf %q escapes the commas."""
    return meta["command"].replace("\\,", ",") if meta and meta.get("command") else None


def cpu_intro(data, meta, threads, cs):
    """How the CPU table was measured: from the JSON, and the command from the run record."""
    host = data.get("max_threads", 0)
    over = [t for t in threads if host and t > host]
    runs = data.get("runs", "?")
    command = cpu_command(meta)
    text = (f"`cpu_sssp_bench` (bench_sssp.sh's cpu part) on a host with {host or '?'} hardware threads "
            f"(omp_get_max_threads): Dijkstra on one thread and delta-stepping at {' and '.join(map(str, threads))} "
            + (f"threads ({', '.join(map(str, over))} oversubscribed)" if over else "threads")
            + f", each the median of {runs} timed solves after a warm-up, the deltas of one thread count "
            f"interleaved (a warm-up round, then {runs} rounds of every delta, so that load from other processes "
            "hits all deltas alike); wall time of the whole solve, the distance array allocated inside the timed "
            "region; every delta-stepping result checked against Dijkstra's distances. Deltas: the CPU's own rule "
            "`graph::auto_delta_cpu` (auto; its c = its delta / (mean weight / mean degree)) and c x mean weight / "
            f"mean degree for c = {', '.join(f'{c:g}' for c in cs)}; best = the fastest of them all. Command"
            + (":" if command else ": not recorded (no meta file)."))
    return [text, ""] + (["```", command, "```", ""] if command else [])


def cpu_section(doc, data, meta):
    graphs = {cpu_graph_name(g["graph"]): g for g in data.get("graphs", [])}
    order = pr.graphs_in_order([{"graph": g} for g in graphs])
    results = [(name, r) for name in order for r in graphs[name].get("delta_stepping", [])]
    threads = sorted({r["threads"] for _, r in results})
    cs = sorted({float(r["delta_rule"][2:]) for _, r in results if r["delta_rule"].startswith("c=")})
    doc.add("## CPU delta-stepping (cpu_sssp_bench)", "")
    doc.add(*cpu_intro(data, meta, threads, cs))
    table, ratios = [], {t: {} for t in threads}
    for name in order:
        dijkstra_ms = graphs[name]["dijkstra"]["median_ms"]
        row = [pr.graph_label(name), fmt(dijkstra_ms, 3)]
        for t in threads:
            cells, ratio = cpu_cells([r for n, r in results if n == name and r["threads"] == t], dijkstra_ms)
            row += cells
            if ratio:
                ratios[t][name] = ratio
        table.append(row)
    header = ["graph", "Dijkstra ms (1 thread)"]
    for t in threads:
        header += [f"{t} thr: auto ms (c)", f"{t} thr: best ms (delta)", f"{t} thr: auto / best",
                   f"{t} thr: best vs Dijkstra"]
    doc.table(header, table)
    doc.add(cpu_summary(ratios, results), "")


def cpu_summary(ratios, results):
    """How often the CPU's rule is within CPU_AUTO_TOLERANCE of the best delta, per thread
    count, with the worst graph; then the check against Dijkstra."""
    parts = []
    for t, by_graph in ratios.items():
        if by_graph:
            good = sum(1 for v in by_graph.values() if v <= CPU_AUTO_TOLERANCE)
            worst = max(by_graph, key=by_graph.get)
            parts.append(f"at {t} threads on {good} of {len(by_graph)} graphs (worst {by_graph[worst]:.2f}x, "
                         f"{pr.graph_label(worst)})")
    if parts:
        text = (f"Summary: the CPU's rule is within {CPU_AUTO_TOLERANCE:g}x of the best delta's time "
                + "; ".join(parts) + ".")
    else:
        text = "Summary: no auto rows (cpu_sssp_bench ran without --delta auto)."
    bad = [f"{pr.graph_label(n)} {r['threads']} threads {delta_label(r['delta_rule'])}"
           for n, r in results if r.get("mismatches")]
    return (text + f" Check: {len(results) - len(bad)} of {len(results)} delta-stepping results equal Dijkstra's"
            + (f"; MISMATCH: {', '.join(bad)}." if bad else "."))


MS_COLS = ["direct", "warp", "block", "sort", "auto", "cub_sort_top_bits", "cub_partition"]


def multisplit_section(doc, data, rel_plot, plots):
    res = data["results"]
    copy = data.get("copy_gbps", 0)
    doc.add("## Multisplit: methods compared", "")
    doc.add(f"{data.get('device', 'Device not recorded')}; n uniform random 32-bit keys (and 32-bit values for "
            f"pairs); median of {data.get('runs', '?')} "
            f"timed calls after {data.get('warmup', '?')} warm-ups, CUDA events. Speed of light: 12 bytes per key "
            f"(read twice, write once), 20 per pair, at the measured device-to-device copy rate of {copy:.0f} GB/s "
            f"= {copy / 12:.0f} Gkeys/s and {copy / 20:.0f} Gpairs/s. Every method's output is compared with "
            "RB-sort's on the device. 'delta' buckets = equal slices of the key range; 'identity' = key is the "
            "bucket id.", "")
    bad = [r for r in res if not r.get("matches_rb_sort", True)]
    doc.add(f"Output check: {len(res) - len(bad)} of {len(res)} measurements match RB-sort"
            + (f"; MISMATCH: {', '.join(r['method'] + ' m=' + str(r['buckets']) for r in bad)}." if bad else "."), "")
    for n in sorted({r["n"] for r in res}, reverse=True):
        lg = int(round(math.log2(n)))
        for functor in ("delta", "identity"):
            for kind in ("keys", "pairs"):
                sel = [r for r in res if r["n"] == n and r["functor"] == functor and r["kind"] == kind]
                if not sel:
                    continue
                unit = "Gkeys/s" if kind == "keys" else "Gpairs/s"
                cols = [c for c in MS_COLS if any(r["method"] == c for r in sel)]
                rows = []
                for m in sorted({r["buckets"] for r in sel}):
                    cells = {r["method"]: r for r in sel if r["buckets"] == m}
                    row = [m]
                    for c in cols:
                        r = cells.get(c)
                        if r is None:
                            row.append("-")
                        elif c == "auto":
                            row.append(f"{r['g_items_per_s']:.1f} ({r['method_ran']})")
                        else:
                            row.append(f"{r['g_items_per_s']:.1f}")
                    ours = [cells[c] for c in ("direct", "warp", "block") if c in cells]
                    best = max(ours, key=lambda r: r["g_items_per_s"]) if ours else None
                    row.append(f"{best['speedup_vs_rb_sort']:.2f}x" if best else "-")
                    row.append(f"{100 * best['speed_of_light_fraction']:.0f}%" if best else "-")
                    rows.append(row)
                doc.add(f"**n = 2^{lg}, {functor} buckets, {kind}** ({unit})", "")
                doc.table(["m"] + [pr.METHOD_STYLE[c][0] for c in cols] + ["best DMS/WMS/BMS vs RB-sort",
                                                                           "best, % of light"], rows)
        for name in (f"multisplit_rate_delta_n{lg}.png", f"multisplit_rate_identity_n{lg}.png",
                     f"multisplit_speedup_n{lg}.png", f"multisplit_sol_n{lg}.png"):
            if name in plots:
                doc.add(f"![{plots[name]}]({rel_plot(name)})", "")
    doc.add("### What the multisplit numbers show", "")
    doc.add(*multisplit_reading(res), "")


def multisplit_reading(res):
    out = []
    n = max(r["n"] for r in res)
    lg = int(round(math.log2(n)))
    for kind, unit in (("keys", "Gkeys/s"), ("pairs", "Gpairs/s")):
        sel = [r for r in res if r["n"] == n and r["functor"] == "delta" and r["kind"] == kind]
        if not sel:
            continue
        ms = sorted({r["buckets"] for r in sel})
        best_of = {}
        for m in ms:
            ours = [r for r in sel if r["buckets"] == m and r["method"] in ("direct", "warp", "block", "sort")]
            best_of[m] = max(ours, key=lambda r: r["g_items_per_s"])
        winners = {}
        for m in ms:
            winners.setdefault(best_of[m]["method"], []).append(m)
        txt = f"- n = 2^{lg}, delta buckets, {kind}: fastest of our methods is " + "; ".join(
            f"{pr.METHOD_STYLE[w][0]} for m = {', '.join(map(str, v))}" for w, v in winners.items()) + "."
        sp = [best_of[m]["speedup_vs_rb_sort"] for m in ms]
        txt += f" Best over RB-sort: {xrange_(sp)}."
        top = {r["buckets"]: r for r in sel if r["method"] == "cub_sort_top_bits"}
        beat = [m for m in ms if m in top and top[m]["g_items_per_s"] > best_of[m]["g_items_per_s"]]
        if beat:
            txt += (f" CUB's radix sort on the top log2 m bits (a multisplit only when buckets are bit ranges) is "
                    f"faster for m = {', '.join(map(str, beat))}.")
        out.append(txt)
        # The library's targets (2^28, delta buckets; multisplit/README.md):
        # Auto at least CUB's top-bits sort from 2 to 256 buckets, at least
        # 250 Gkeys/s or 150 Gpairs/s up to 8 buckets, and at least 1.5x
        # RB-sort wherever Auto does not pick RB-sort itself.
        if lg == 28:
            auto = {r["buckets"]: r for r in sel if r["method"] == "auto"}
            verdict = []
            vs_cub = [(m, auto[m]["g_items_per_s"] / top[m]["g_items_per_s"]) for m in ms
                      if 2 <= m <= 256 and m in auto and m in top]
            if vs_cub:
                # Three decimals where two would round a miss up to 1.00x.
                short = [f"{m} ({r:.3f}x)" if r >= 0.995 else f"{m} ({r:.2f}x)" for m, r in vs_cub if r < 1.0]
                verdict.append(f"Auto vs CUB's top-bits sort at m = 2..256: {xrange_([r for _, r in vs_cub])} "
                               + (f"(target >= 1.0x: not met at m = {', '.join(short)})" if short
                                  else "(target >= 1.0x: met)"))
            floor = 250 if kind == "keys" else 150
            small = [auto[m]["g_items_per_s"] for m in ms if m <= 8 and m in auto]
            if small:
                verdict.append(f"Auto at m <= 8: {min(small):.0f}-{max(small):.0f} {unit} "
                               f"(target >= {floor}: {'met' if min(small) >= floor else 'not met'})")
            over_rb = [auto[m]["speedup_vs_rb_sort"] for m in ms if m in auto and auto[m].get("method_ran") != "sort"]
            if over_rb:
                verdict.append(f"Auto over RB-sort where it does not pick it: {min(over_rb):.2f}x or more "
                               f"(target >= 1.5x: {'met' if min(over_rb) >= 1.5 else 'not met'})")
            if verdict:
                out.append(f"- Targets ({kind}): " + "; ".join(verdict) + ".")
    return out


def python_label(r):
    return f"{pr.graph_label(r['graph'])} ({r['vertices']:,} vertices)"


def python_cells(r):
    v = r.get("vs_scipy")
    vs = "-" if not v else f"{v:.2f}x" if v >= 0.1 else f"{v:.3f}x"
    spread = f"{r['min_ms']:.3f}-{r['max_ms']:.3f}" if r.get("runs", 1) > 1 else "(1 run)"
    method = r["method"] if r.get("ok") in ("ok", "-", None) else f"{r['method']} (**{r['ok']}**)"
    return [python_label(r), method, f"{r['median_ms']:.3f}", spread, vs]


def python_section(doc, data):
    """python.json (scripts/bench_python.py --json): gpu_sssp from Python against scipy, NetworkX, igraph."""
    rows = data.get("rows", [])
    v = data.get("versions", {})
    others = ", ".join(f"{name} {v[key]}" for name, key in (("numpy", "numpy"), ("scipy", "scipy"),
                                                             ("NetworkX", "networkx"), ("igraph", "igraph"))
                       if v.get(key))
    commit = str(data.get("commit", "unknown"))[:10]
    doc.add("## Python: gpu_sssp against scipy, NetworkX and igraph", "")
    doc.add(f"`{data.get('command', 'scripts/bench_python.py')}` on {data.get('device', '?')} "
            f"({data.get('date', '?')}, commit `{commit}`; Python {v.get('python', '?')}, {others}), all in one "
            f"process. One source (vertex {data.get('source', '?')}), graph already built: one warm-up call, then "
            f"{data.get('runs', '?')} timed calls (`time.perf_counter`), median and min-max in ms. \"vs scipy\": "
            "`scipy.sparse.csgraph.dijkstra`'s median over the row's (above 1: faster than scipy). "
            "\"report's solve time\" is the solve time `gpu_sssp.solve` reports (CUDA events on the GPU, as the "
            "command line prints it); `shortest_paths` minus it is the Python call's overhead. Every distance is "
            "checked against scipy's (exact for integer weights).", "")
    for kind, title in (("solve", "One source"), ("convert", None), ("apsp", None)):
        sel = [r for r in rows if r.get("kind") == kind]
        if not sel:
            continue
        if kind == "convert":
            doc.add(f"Conversions, timed apart ({data.get('convert_runs', '?')} runs each, none untimed; the "
                    "backend's first call once):", "")
        elif kind == "apsp":
            doc.add(f"`all_pairs_dijkstra_path_length`, the generator consumed for its first "
                    f"{data.get('apsp_sources', '?')} sources (one run; NetworkX's own is slow), with scipy's "
                    "Dijkstra from the same sources. The backend solves its sources in blocks of "
                    "min(n, 2^26 / n), so its first item pays for a whole block:", "")
        else:
            doc.add(f"{title}:", "")
        doc.table(["graph", "method", "median ms", "min-max", "vs scipy"], [python_cells(r) for r in sel],
                  ["---", "---", "---:", "---:", "---:"])
    for o in data.get("overhead", []):
        doc.add(f"- {pr.graph_label(o['graph'])}: `shortest_paths` {o['shortest_paths_ms']:.3f} ms, the report's "
                f"solve time {o['report_solve_ms']:.3f} ms ({o.get('device', '?')}, {o.get('strategy', '?')}): "
                f"overhead {o['overhead_us']:.1f} us (target: within 50 us: "
                f"{'met' if o['overhead_us'] <= 50 else 'not met'})"
                + (f"; per `solve` call, its wall time minus the solve time it reports: "
                   f"{o['paired_overhead_us']:.1f} us (median)" if o.get("paired_overhead_us") is not None else "")
                + ".")
    for r in rows:
        if r.get("vs_networkx"):
            doc.add(f"- {pr.graph_label(r['graph'])}: `all_pairs_dijkstra_path_length` through the backend "
                    f"{r['vs_networkx']:.1f}x NetworkX's own (first {r.get('sources', '?')} sources).")
    bad = [r for r in rows if r.get("ok") not in ("ok", "-", None)]
    checked = [r for r in rows if r.get("ok") not in ("-", None)]
    doc.add(f"- Validity: {len(checked) - len(bad)} of {len(checked)} checked results equal scipy's.")
    for note in data.get("notes", []):
        doc.add(f"- Note: {note}")
    doc.add("")


def closing_note(sssp, ms):
    out = ["## Closing note: what the numbers say", ""]
    if sssp:
        table = by_graph(sssp["rows"])
        gs = pr.graphs_in_order(sssp["rows"])
        fam = {}
        cpu_label = next((pr.strategy_label(r["method"]) for r in sssp["rows"] if r["method"].startswith("cpu")),
                         "CPU delta-stepping")
        for g in gs:
            t = table[g]
            gpu = [t[s] for s in GPU_STRATEGIES if s in t and pr.row_ok(t[s])]
            if gpu and "cpu" in t and pr.row_ok(t["cpu"]):
                fam.setdefault(pr.graph_kind(g), []).append(t["cpu"]["median_ms"] / min(r["median_ms"] for r in gpu))
        for kind in pr.KIND_ORDER:
            if kind in fam:
                v = fam[kind]
                verdict = ("the GPU wins" if min(v) > 1 else "the CPU wins" if max(v) < 1 else "mixed")
                out.append(f"- {kind}: best GPU strategy vs {cpu_label} {xrange_(v)} "
                           f"({verdict}).")
    if ms:
        res = ms["results"]
        n = max(r["n"] for r in res)
        for kind in ("keys", "pairs"):
            sel = [r for r in res if r["n"] == n and r["functor"] == "delta" and r["kind"] == kind
                   and r["method"] in ("direct", "warp", "block")]
            if sel:
                b = max(sel, key=lambda r: r["g_items_per_s"])
                out.append(f"- multisplit {kind}, n = 2^{int(round(math.log2(n)))}: peak {b['g_items_per_s']:.0f} "
                           f"G/s ({pr.METHOD_STYLE[b['method']][0]}, m = {b['buckets']}), "
                           f"{100 * b['speed_of_light_fraction']:.0f}% of the speed of light.")
    out.append("")
    return out


# bench_multisplit.sh's files beside multisplit.json: the "Multisplit as a building block" tables.
MULTISPLIT_BLOCKS = ("multisplit_sort", "multisplit_histogram", "multisplit_reduce")


def draw_plots(rd, plot_dir, ms_dir, ms_plot_dir):
    """{png name: (caption, folder)}: the multisplit plots from the folder the multisplit tables
    come from (--multisplit-from), so that plots and tables show the same run."""
    if ms_dir == rd:
        if not any(os.path.exists(os.path.join(rd, p + ".json")) for p in pr.PLOT_PARTS):
            return {}  # python.json alone: nothing to plot
        return {name: (caption, plot_dir) for name, caption in pr.plot_all(rd, plot_dir)}
    drawn = {}
    for folder, dest, parts in ((rd, plot_dir, [p for p in pr.PLOT_PARTS if p != "multisplit"]),
                                (ms_dir, ms_plot_dir, ["multisplit"])):
        parts = [p for p in parts if os.path.exists(os.path.join(folder, p + ".json"))]
        if parts:  # plot_all refuses a folder with nothing to draw
            drawn.update((name, (caption, dest)) for name, caption in pr.plot_all(folder, dest, parts))
    return drawn


# The README's headline: one representative graph per class, the best GPU
# strategy against the CPU delta-stepping (16 threads, its best delta) in
# the same run; roads through the chain contraction (sssp_roads.json).
HEADLINE_GRAPHS = [("rmat:20:16", "R-MAT 2^20 (power law)"), ("urand:1048576:16", "uniform random 2^20"),
                   ("grid:2048:2048", "grid 2048 x 2048"), ("copter2.mtx", "mesh (copter2)"),
                   ("email-Enron.mtx", "social (email-Enron)")]
HEADLINE_BEGIN = "<!-- headline: generated by scripts/make_benchmarks_doc.py; do not edit by hand -->"
HEADLINE_END = "<!-- headline end -->"


def headline_table(sssp, roads, meta):
    rows = ["| graph | vertices | best GPU strategy | GPU ms | CPU delta-stepping, 16 threads, ms | GPU vs CPU |",
            "|---|---:|---|---:|---:|---:|"]
    by_graph = {}
    for r in (sssp or {}).get("rows", []):
        by_graph.setdefault(r["graph"], []).append(r)
    for key, label in HEADLINE_GRAPHS:
        rs = by_graph.get(key)
        if not rs:
            continue
        cpu = [r for r in rs if r["method"].startswith("cpu delta-stepping")]
        gpu = [r for r in rs if not r["method"].startswith("cpu")]
        if not cpu or not gpu:
            continue
        best = min(gpu, key=lambda r: r["median_ms"])
        rows.append(f"| {label} | {best['vertices']:,} | {best['method']} | {best['median_ms']:.2f} | "
                    f"{cpu[0]['median_ms']:.2f} | {cpu[0]['median_ms'] / best['median_ms']:.1f}x |")
    for g in (roads or {}).get("graphs", []):
        if g["graph"] != "DE.gr":
            continue
        gpu = [x for x in g["solvers"] if x["solver"].startswith("gpu")]
        cpu = [x for x in g["solvers"] if x["solver"].startswith("cpu")]
        if gpu and cpu:
            best = min(gpu, key=lambda x: x["contracted"]["ms"])
            c = cpu[0]["plain"]["ms"]
            rows.append(f"| road (DE), contracted | {g['vertices']:,} | {best['solver'][4:]} | "
                        f"{best['contracted']['ms']:.2f} | {c:.2f} | {c / best['contracted']['ms']:.1f}x |")
    when = (meta or {}).get("date", "?")[:10]
    device = (sssp or {}).get("device", "?")
    caption = (f"Median single-source solve, {device}, {when} (`scripts/bench_sssp.sh`; every table, "
               f"with spreads: `docs/BENCHMARKS.md`).")
    return "\n".join([caption, ""] + rows)


def write_readme_headline(readme, table):
    """Replaces the text between the README's headline markers; False when the markers are missing."""
    with open(readme) as f:
        text = f.read()
    a, b = text.find(HEADLINE_BEGIN), text.find(HEADLINE_END)
    if a < 0 or b < a:
        return False
    text = text[:a + len(HEADLINE_BEGIN)] + "\n" + table + "\n" + text[b:]
    with open(readme, "w") as f:
        f.write(text)
    return True


def meta_row(name, m):
    """One row of "How these numbers were made" from NAME.meta.json."""
    return [f"`{name}.json`", m.get("mode", "?"), m.get("date", "?"), f"`{m.get('git_commit', '?')}`",
            m.get("driver", "?"), f"{m.get('wall_s', '?')} s", f"`{m.get('script_command', '?')}`"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results_dir")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "BENCHMARKS.md"))
    ap.add_argument("--plots", help="folder for the PNGs (default: RESULTS_DIR/plots)")
    ap.add_argument("--readme", help="also rewrite the headline table in this README (default: the project's "
                                     "README.md when --out is the default docs/BENCHMARKS.md)")
    ap.add_argument("--allow-synthetic", action="store_true", help="accept the test fixture (tests only)")
    ap.add_argument("--roads-from", metavar="DIR",
                    help="read sssp_roads.json (bench_sssp.sh's roads part, run on its own) and its run record "
                         "from DIR instead of RESULTS_DIR")
    ap.add_argument("--small-n-from", metavar="DIR",
                    help="read small_n.json (multisplit_small_n_bench, run on its own) from DIR instead of "
                         "RESULTS_DIR/small_n")
    ap.add_argument("--multisplit-from", metavar="DIR",
                    help="read multisplit.json, multisplit_sort.json, multisplit_histogram.json and "
                         "multisplit_reduce.json (bench_multisplit.sh, run on its own) and their run records from "
                         "DIR instead of RESULTS_DIR; the multisplit plots go to DIR/plots unless --plots is given")
    args = ap.parse_args()
    rd = os.path.abspath(args.results_dir)
    if not os.path.isdir(rd):
        print(f"make_benchmarks_doc.py: {rd} is not a folder", file=sys.stderr)
        return 2
    ms_dir = os.path.abspath(args.multisplit_from) if args.multisplit_from else rd
    load = lambda name, folder=rd: pr.load_json(os.path.join(folder, name + ".json")) if os.path.exists(  # noqa: E731
        os.path.join(folder, name + ".json")) else None
    sssp, sweep, ms, large = load("sssp"), load("sssp_delta"), load("multisplit", ms_dir), load("sssp_large")
    cpu = load("cpu_sssp")
    py = load("python")  # scripts/bench_python.py --json: the Python section, where present
    if py is not None and not py.get("rows"):
        py = None
    for d in (sssp, sweep, ms, large, py):
        if d and str(d.get("device", "")).startswith("SYNTHETIC") and not args.allow_synthetic:
            print("make_benchmarks_doc.py: refusing the synthetic fixture (numbers are not measurements); "
                  "pass a real results folder", file=sys.stderr)
            return 2
    if large and large.get("rows"):
        # bench_sssp.sh's "large" part: the same table, more graphs.
        if sssp and sssp.get("rows"):
            sssp = dict(sssp, rows=sssp["rows"] + large["rows"])
        else:
            sssp = large
    if sssp is not None and not sssp.get("rows"):
        sssp = None
    if ms is not None and not ms.get("results"):
        ms = None
    if not (sssp or ms or py):
        where = rd if ms_dir == rd else f"{rd} (multisplit: {ms_dir})"
        print(f"make_benchmarks_doc.py: no SSSP, multisplit or Python results in {where}", file=sys.stderr)
        return 2
    plot_dir = os.path.abspath(args.plots or os.path.join(rd, "plots"))
    # Plots live beside the data they draw, as RESULTS_DIR's do, unless --plots gathers them all.
    ms_plot_dir = os.path.abspath(args.plots or os.path.join(ms_dir, "plots"))
    drawn = draw_plots(rd, plot_dir, ms_dir, ms_plot_dir)
    plots = {name: caption for name, (caption, _) in drawn.items()}
    out_dir = os.path.dirname(os.path.abspath(args.out))
    rel_plot = lambda name: os.path.relpath(os.path.join(drawn[name][1], name), out_dir)  # noqa: E731
    roads_dir = os.path.abspath(args.roads_from) if args.roads_from else rd
    meta_names = ["sssp", "sssp_large", "sssp_delta", "sssp_roads", "multisplit"]
    if ms_dir != rd:
        # From another run, the building-block tables need rows of their own; from RESULTS_DIR
        # they come from the bench_multisplit.sh run whose multisplit.json row is shown.
        meta_names += MULTISPLIT_BLOCKS
    meta_dir = lambda n: roads_dir if n == "sssp_roads" else ms_dir if n.startswith("multisplit") else rd  # noqa: E731
    metas = {n: pr.read_meta(meta_dir(n), n) for n in meta_names}
    cpu_meta = pr.read_meta(rd, "cpu_sssp") if cpu else None

    doc = Doc()
    device = (sssp or ms or py)["device"]
    if sssp and ms and not str(device).startswith(str(ms.get("device", device))):
        # Parts from runs of their own may come from another card: say which.
        device += f"; the multisplit, sort, histogram and reduce tables: {ms['device']}"
    rel_rd = os.path.relpath(rd, ROOT)
    command = f"scripts/make_benchmarks_doc.py {rel_rd}"
    sources = f"`{rel_rd}`"
    elsewhere = []
    if roads_dir != rd:
        rel_roads = os.path.relpath(roads_dir, ROOT)
        command += f" --roads-from {rel_roads}"
        elsewhere.append(f"the roads part from `{rel_roads}`")
    if args.small_n_from:
        rel_small = os.path.relpath(os.path.abspath(args.small_n_from), ROOT)
        command += f" --small-n-from {rel_small}"
        elsewhere.append(f"the small-n table from `{rel_small}`")
    if ms_dir != rd:
        rel_ms = os.path.relpath(ms_dir, ROOT)
        command += f" --multisplit-from {rel_ms}"
        elsewhere.append(f"the multisplit tables from `{rel_ms}`")
    if elsewhere:
        sources += " (" + "; ".join(elsewhere) + ")"
    doc.add("# Benchmarks", "",
            f"<!-- Generated by {command}; do not edit by hand. -->", "",
            f"Generated from {sources} by `{command}`. Device: {device}.", "")
    doc.add("## How these numbers were made", "")
    rows = []
    for name, m in metas.items():
        if m:
            rows.append(meta_row(name, m))
        elif ((name == "sssp" and sssp) or (name == "multisplit" and ms) or (name == "sssp_delta" and sweep)
              or (name in MULTISPLIT_BLOCKS and os.path.exists(os.path.join(ms_dir, name + ".json")))):
            rows.append([f"`{name}.json`", "?", "?", "?", "?", "?", "not recorded (no meta file)"])
    if cpu_meta:  # not in `metas`: its command is shown in its own section
        rows.append(meta_row("cpu_sssp", cpu_meta))
    if py:  # python.json is its own run record
        rows.append(["`python.json`", "-", py.get("date", "?"), f"`{str(py.get('commit', '?'))[:10]}`", "-",
                     f"{py.get('wall_s', '?')} s", f"`{py.get('command', '?')}`"])
    doc.table(["file", "mode", "date (UTC)", "commit", "driver", "wall", "command"], rows,
              ["---"] * 7)
    doc.add("To reproduce on a GPU machine (prebuilt binaries in `$SSSP_BUILD_DIR`, default `build/`):", "",
            "```", "scripts/bench_sssp.sh [--quick]        # SSSP: all strategies + delta sweep",
            "scripts/bench_multisplit.sh [--quick]  # multisplit methods vs CUB",
            "scripts/bench_python.py --graph G.gr ... --json DIR/python.json   # gpu_sssp from Python",
            "scripts/make_benchmarks_doc.py results/<device>/<date>   # plots + this file", "```", "")
    expanded = [(n, m["command"]) for n, m in metas.items() if m and m.get("command")]
    if expanded:
        doc.add("<details><summary>Exact benchmark command lines as run</summary>", "")
        for n, c in expanded:
            doc.add(f"`{n}`:", "", "```", c, "```", "")
        doc.add("</details>", "")
    if sssp:
        sssp_section(doc, sssp, metas["sssp"], rel_plot, plots)
    if sweep:
        sweep_section(doc, sweep, rel_plot, plots, sssp["rows"] if sssp else [])
    if sssp:
        paper_section(doc, sssp)
    else:
        doc.add("## SSSP", "", f"No SSSP results in `{rel_rd}` (run `scripts/bench_sssp.sh`).", "")
    if cpu:
        cpu_section(doc, cpu, cpu_meta)
    if ms:
        multisplit_section(doc, ms, rel_plot, plots)
    else:
        doc.add("## Multisplit", "", f"No multisplit results in `{os.path.relpath(ms_dir, ROOT)}` "
                "(run `scripts/bench_multisplit.sh`).", "")
    small_n_dir = os.path.abspath(args.small_n_from) if args.small_n_from else None
    benchmarks_doc_extra.add_sections(doc, rd, roads_dir, small_n_dir, ms_dir)
    if py:
        python_section(doc, py)
    doc.add(*closing_note(sssp, ms))
    os.makedirs(out_dir, exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(doc.lines).rstrip() + "\n")
    folders = sorted({folder for _, folder in drawn.values()}) or [plot_dir]
    print(f"wrote {args.out} ({len(plots)} plots in {' and '.join(folders)})")
    default_out = os.path.abspath(args.out) == os.path.join(ROOT, "docs", "BENCHMARKS.md")
    readme = args.readme or (os.path.join(ROOT, "README.md") if default_out else None)
    if readme and sssp:
        roads_path = os.path.join(roads_dir, "sssp_roads.json")
        roads = pr.load_json(roads_path) if os.path.exists(roads_path) else None
        table = headline_table(sssp, roads, pr.read_meta(rd, "sssp"))
        if write_readme_headline(readme, table):
            print(f"wrote the headline table in {readme}")
        else:
            print(f"make_benchmarks_doc.py: {readme} has no headline markers; its table was not written",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
