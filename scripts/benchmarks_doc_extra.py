"""Sections of docs/BENCHMARKS.md beyond the SSSP and multisplit-method tables:
multisplit as a building block (sort, histogram, reduce_by_bucket), the SSSP
load-balancing comparison and the scale run. Used by make_benchmarks_doc.py;
every number comes from the results folder's JSON, as there.

Inputs (all optional; a section is left out when its file is absent):
  multisplit_sort.json, multisplit_histogram.json, multisplit_reduce.json
                           (from multisplit_dir when given: make_benchmarks_doc.py --multisplit-from)
  sssp_load_balance.json   sssp_bench JSON with several load balancers (or the older list of
                           {graph, strategy, load_balance, median_ms, mteps})
  scale/scale_*.json       records written by `sssp --json` (scripts/scale_run.sh)
  sssp_batch*.json         concurrent_sources_bench --json (bench_sssp.sh's batch part): many
                           sources one after another, batched, concurrent, and the CPU's batch
  sssp_roads.json          contraction_bench --json (bench_sssp.sh's roads part): road graphs
                           plain, through the chain contraction, and by PHAST, beside the CPU
"""
import glob
import math
import os

import plot_results as pr


def _load(path):
    return pr.load_json(path) if os.path.exists(path) else None


def _lg(n):
    return int(round(math.log2(n)))


def sort_section(doc, data):
    res = data["results"]
    doc.add("### Radix sort: `multisplit::sort_keys` / `sort_pairs` vs `cub::DeviceRadixSort`", "")
    doc.add(f"LSD passes of r-bit bit-digit multisplit; uniform 32-bit keys (32-bit values for pairs); median of "
            f"{data.get('runs', '?')} runs after {data.get('warmup', '?')} warm-ups; CUB {data.get('cub_version', '?')} "
            "in the same process. 'default' is what `sort_keys`/`sort_pairs` run; the best row is the fastest "
            "variant and digit split tried.", "")
    rows = []
    for n in sorted({r["n"] for r in res}):
        for kind in ("keys", "pairs"):
            sel = [r for r in res if r["n"] == n and r["kind"] == kind]
            cub = next((r for r in sel if r["variant"].startswith("cub::")), None)
            default = next((r for r in sel if r["variant"].startswith("default")), None)
            ours = [r for r in sel if not r["variant"].startswith("cub::")]
            if not (cub and default and ours):
                continue
            best = max(ours, key=lambda r: r["g_items_per_s"])
            ok = all(r.get("matches_cub", True) for r in sel)
            rows.append([f"2^{_lg(n)}", kind, f"{cub['g_items_per_s']:.1f}",
                         f"{default['g_items_per_s']:.1f} ({default['digit_bits']})",
                         f"{default['ratio_to_cub']:.2f}x",
                         f"{best['g_items_per_s']:.1f} ({best['variant']}, {best['digit_bits']})",
                         "yes" if ok else "NO"])
    doc.table(["n", "kind", "CUB G/s", "ours: default G/s (digits)", "default vs CUB", "ours: best G/s",
               "output = CUB"], rows, ["---", "---"] + ["---:"] * 5)
    ratios = [float(r[4].rstrip("x")) for r in rows]
    if ratios:
        who = "CUB's onesweep sort wins every row" if max(ratios) < 1 else "the fastest differs by row"
        doc.add(f"Default vs CUB: {pr.ratio_range(ratios)}; {who}. A multisplit pass reads the keys twice (pre-scan and "
                "post-scan) where onesweep reads them once per pass.", "")


def histogram_section(doc, data):
    res = data["results"]
    n = max(r["n"] for r in res)
    doc.add("### Histogram: `multisplit::histogram` vs `cub::DeviceHistogram`", "")
    doc.add(f"n = 2^{_lg(n)} float samples in [0, 1024) (uniform; skewed = 1024 u^8; constant); even-width buckets "
            "vs `HistogramEven`, splitters vs `HistogramRange`; Gsamples/s and the speedup over CUB "
            f"(median of {data.get('runs', '?')} runs, same process).", "")
    dists = [d for d in ("uniform", "skewed", "constant") if any(r["distribution"] == d for r in res)]
    header, rows = ["m"], []
    for h in ("even", "range"):
        for d in dists:
            header.append(f"{h}, {d}")
    for m in sorted({r["buckets"] for r in res}):
        row = [m]
        for h in ("even", "range"):
            for d in dists:
                r = next((x for x in res if x["buckets"] == m and x["histogram"] == h and x["distribution"] == d
                          and x["implementation"] == "multisplit"), None)
                row.append(f"{r['g_samples_per_s']:.0f} ({r['speedup_vs_cub']:.2f}x)" if r else "-")
        rows.append(row)
    doc.table(header, rows)
    bad = [r for r in res if not r.get("matches_cub", True)]
    doc.add(f"Output check: {len(res) - len(bad)} of {len(res)} measurements equal CUB's counts.", "")


def reduce_section(doc, data):
    res = data["results"]
    n = max(r["n"] for r in res)
    doc.add("### Multireduce: `multisplit::reduce_by_bucket`", "")
    doc.add(f"n = 2^{_lg(n)} pairs, {data.get('operation', 'sum per bucket')}; Gpairs/s of ours, and how many times "
            "longer sort + `cub::DeviceReduce::ReduceByKey` and a plain global-atomics kernel take "
            f"(median of {data.get('runs', '?')} runs, same process). Labels uniform, or all in one bucket.", "")
    header = ["m"]
    labels = [lab for lab in ("uniform", "one-bucket") if any(r["labels"] == lab for r in res)]
    for lab in labels:
        header += [f"{lab}: ours", "sort+ReduceByKey", "atomics", "generic operator"]
    rows = []
    for m in sorted({r["buckets"] for r in res}):
        row = [m]
        for lab in labels:
            get = lambda impl: next((x for x in res if x["buckets"] == m and x["labels"] == lab  # noqa: E731
                                     and x["implementation"] == impl), None)
            ours, srt, atom, gen = (get("multisplit"), get("cub_sort_reduce_by_key"), get("global_atomics"),
                                    get("multisplit_generic_op"))
            row += [f"{ours['g_pairs_per_s']:.0f}" if ours else "-",
                    f"{srt['time_over_multisplit']:.1f}x" if srt else "-",
                    f"{atom['time_over_multisplit']:.0f}x" if atom else "-",
                    f"{gen['g_pairs_per_s']:.0f}" if gen else "-"]
        rows.append(row)
    doc.table(header, rows)
    bad = [r for r in res if not r.get("results_agree", True)]
    doc.add(f"Output check: {len(res) - len(bad)} of {len(res)} measurements agree with the other methods.", "")


def load_balance_rows(data):
    """Rows {graph, strategy, load_balance, median_ms, mteps} from sssp_bench's JSON
    (bench_sssp.sh's balance part) or from the older hand-made list of such rows."""
    if isinstance(data, dict):
        # sssp_bench names a method with its balancer ("near-far [binned]"):
        # the table's rows are the strategy, its columns the balancers.
        return [{"graph": r["graph"], "strategy": r["method"].split(" [")[0], "load_balance": r["load_balance"],
                 "median_ms": r["median_ms"], "mteps": r["mteps"], "heavy": r.get("heavy_arc_share")}
                for r in data.get("rows", []) if r.get("load_balance") and not r["method"].startswith("cpu")]
    return data


def load_balance_section(doc, data):
    rows = load_balance_rows(data)
    balancers = []
    for r in rows:
        if r["load_balance"] not in balancers:
            balancers.append(r["load_balance"])
    doc.add("## SSSP load balancing: " + " vs ".join(balancers), "")
    what = {"three-stage": "three-stage = CTA/warp/scan stages per frontier tile (relax.cuh)",
            "binned": "binned = the frontier binned by out-degree with multisplit's warp collectives "
                      "(binned_relax.cuh)",
            "merge-path": "merge-path = equal chunks of the round's arcs per block, each arc's vertex found by "
                          "binary search (merge_path_relax.cuh)"}
    doc.add("Median solve ms per strategy with each load balancer (`sssp_bench --load-balance "
            + ",".join(balancers) + "`): " + "; ".join(what.get(b, b) for b in balancers)
            + ". The fastest is in bold. `--load-balance auto` (the default) picks merge-path; where its 64-bit "
            "counter cannot hold the graph's sizes, binned when at least half the arcs leave vertices of "
            "out-degree >= 32, three-stage otherwise (src/sssp/solver.hpp).", "")
    graphs, strategies = [], []
    for r in rows:
        if r["graph"] not in graphs:
            graphs.append(r["graph"])
        if r["strategy"] not in strategies:
            strategies.append(r["strategy"])
    out = []
    for g in graphs:
        for s in strategies:
            t = {r["load_balance"]: r["median_ms"] for r in rows if r["graph"] == g and r["strategy"] == s}
            if not t:
                continue
            best = min(t, key=t.get)
            cells = [(f"**{t[b]:.3f}**" if b == best else f"{t[b]:.3f}") if b in t else "-" for b in balancers]
            ratio = (f"{t['three-stage'] / t[best]:.2f}x" if "three-stage" in t else "-")
            out.append([g, s] + cells + [best, ratio])
    doc.table(["graph", "strategy"] + [f"{b} ms" for b in balancers] + ["fastest", "fastest vs three-stage"], out,
              ["---", "---"] + ["---:"] * len(balancers) + ["---", "---:"])


def scale_section(doc, records):
    doc.add("## Scale: the largest generated graphs", "")
    doc.add("`scripts/scale_run.sh` (R-MAT, edge factor 16, both directions, weights 1..1000): graph size, "
            "generation and upload time, device memory the solver holds, the host's peak resident memory, and "
            "the mean per-source median solve time of each GPU strategy.", "")
    rows = []
    for rec in records:
        g, d = rec["graph"], rec["device"]
        best = min(rec["summary"], key=lambda s: s["solve_ms"])
        val = rec.get("validation", {})
        rows.append([g["source"].split(":0.")[0], f"{g['vertices'] / 1e6:.1f}M", f"{g['arcs'] / 1e9:.2f}G",
                     f"{g['load_ms']['total'] / 1e3:.1f} s", f"{d['upload_ms'] / 1e3:.2f} s",
                     f"{d['gpu_bytes'] / 1e9:.1f} GB", f"{d['host_peak_bytes'] / 1e9:.1f} GB",
                     f"{best['solve_ms']:.0f} ms ({best['strategy']})", f"{best['mteps'] / 1e3:.2f}",
                     f"{best['work_ratio']:.2f}",
                     ("exact vs Dijkstra" if val.get("passed") else "FAILED") if val.get("performed") else "not run"])
    doc.table(["graph", "vertices", "arcs", "generate", "upload", "GPU memory", "host peak", "fastest solve",
               "GTEPS", "work ratio", "validation"], rows, ["---"] + ["---:"] * 9 + ["---"])


def small_n_section(doc, data):
    """multisplit_small_n_bench: latency of one split at small n, against CUB."""
    doc.add("### Small n: one split's latency (`multisplit_small_n_bench`)", "",
            f"{data.get('device', '?')}; microseconds per split, from CUDA events around a batch of "
            f"{data.get('batch', '?')} back-to-back stream-ordered calls after warm-up, median of "
            f"{data.get('batches', '?')} batches; m = 10 delta buckets. `small-n` is the one-launch path "
            "(a cooperative kernel, one tile per block, one grid barrier); `auto` names the method it ran; "
            "CUB = `cub::DeviceRadixSort` over the top bits; `in-kernel` (where measured) is "
            "`multisplit::GridMultisplit` called inside one running cooperative kernel, the batch's splits "
            "one after another (no launch per split). Every output matched the Block method's.", "")
    rows = data.get("results", [])
    in_kernel = any(r.get("method") == "grid_in_kernel" for r in rows)
    for kind in ("keys", "pairs"):
        by_n = {}
        for r in rows:
            if r.get("kind") != kind:
                continue
            by_n.setdefault(r["n"], {})[r["method"]] = r
        if not by_n:
            continue
        table = []
        for n in sorted(by_n):
            cells = by_n[n]
            def us(method):
                r = cells.get(method)
                return f"{r['us_per_split']:.1f}" if r and r.get("us_per_split") is not None else "-"
            auto = cells.get("auto")
            auto_cell = f"{auto['us_per_split']:.1f} ({auto.get('method_ran', '?')})" if auto else "-"
            row = [f"2^{_lg(n)}", auto_cell, us("small_n"), us("block"), us("cub_sort_top_bits")]
            table.append(row + [us("grid_in_kernel")] if in_kernel else row)
        doc.add(f"{kind}:", "")
        head = ["n", "auto", "small-n", "block", "CUB top bits"] + (["in-kernel (grid)"] if in_kernel else [])
        doc.table(head, table, ["---:"] * len(head))


def batch_rows(results_dir):
    """Every graph record of the batch part's files, in file order; [] when there are none."""
    rows = []
    for path in sorted(glob.glob(os.path.join(results_dir, "sssp_batch*.json"))):
        data = _load(path)
        if not isinstance(data, dict):
            continue
        for g in data.get("graphs") or []:
            if all(k in g for k in ("sequential", "batched", "cpu_batch")):
                rows.append(dict(g, _cpu_threads=data.get("cpu_threads")))
    return rows


def batch_detail(bat):
    parts = [f"{bat['sources_per_launch']} per launch"]
    if "solved_together" in bat:
        parts.append(f"{bat['solved_together']} together")
    parts.append(f"{bat['finished_alone']} alone")
    if "first_call_wall_ms" in bat:
        parts.append(f"first call {bat['first_call_wall_ms']:.2f}")
    return ", ".join(parts)


def batch_section(doc, rows):
    doc.add("## Batched sources", "")
    doc.add("`concurrent_sources_bench` (bench_sssp.sh's batch part): K sources of one graph solved one after "
            "another by one GPU solver, together by `GpuSolver::solve_batch` (one block per source in shared "
            "launches: a resident block, the whole solve in its SM's shared memory, where single solves run "
            "there, as on DE; otherwise a small block, and the sources whose frontier outgrows it are then "
            "solved together, one multi-source solve over a copy of the graph per source), by 8 concurrent "
            "solvers, and "
            "by the CPU's batch (`graph::dijkstra_batch`: Dijkstra, one source per thread, every core) in the "
            "same process. Wall times of the whole batch in ms, distance read-back included (the GPU batch: "
            "median of three calls after a first call, whose time, with the building of the copies, is given "
            "apart); every result checked against Dijkstra.", "")
    table = []
    for g in rows:
        seq, bat, cpu = g["sequential"], g["batched"], g["cpu_batch"]
        conc = min(g.get("concurrent") or [], key=lambda c: c["wall_ms"], default=None)
        exact = seq["exact"] and bat["exact"] and cpu["exact"] and all(c["exact"] for c in g.get("concurrent") or [])
        ratio = g.get("gpu_vs_cpu_batch") or (cpu["wall_ms"] / bat["wall_ms"] if bat["wall_ms"] else 0)
        table.append([g["graph"], g["sources"], g["strategy"], f"{seq['wall_ms']:.2f}",
                      f"{bat['wall_ms']:.2f} ({batch_detail(bat)})",
                      f"{seq['wall_ms'] / bat['wall_ms']:.2f}x" if bat["wall_ms"] else "-",
                      f"{conc['wall_ms']:.2f} ({conc['solvers']})" if conc else "-",
                      f"{cpu['wall_ms']:.2f} ({cpu['threads']} threads)", f"{ratio:.2f}x",
                      "yes" if exact else "NO"])
    doc.table(["graph", "sources", "strategy", "one after another", "GPU batch", "batch vs one after another",
               "concurrent (solvers)", "CPU batch", "GPU batch vs CPU batch", "exact"], table,
              ["---", "---:", "---"] + ["---:"] * 6 + ["---"])
    doc.add("GPU batch vs CPU batch: the CPU batch's time over the GPU batch's (above 1: the GPU is faster).", "")


def _solver(record, name):
    return next((s for s in record["solvers"] if s["solver"] == name), None)


def _ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"


def roads_section(doc, data):
    graphs = [g for g in data.get("graphs", []) if g.get("solvers")]
    if not graphs:
        return
    doc.add("## Road graphs: chain contraction and PHAST", "")
    doc.add(f"`contraction_bench` (bench_sssp.sh's roads part) on {data['device']}: the same "
            f"{data['sources_per_graph']} random sources per graph (seed {data['seed']}) solved plain and through "
            "the chain contraction (the default of `sssp` where it pays: the core solve plus the host's piece "
            "search and read-off, all timed), by each GPU strategy and by the CPU delta-stepping "
            "(all threads), each at its best delta of "
            + ", ".join(f"{f:g}" for f in data["delta_factors"])
            + " times its own rule; then PHAST over a contraction hierarchy of the core (`--strategy phast`: "
            "the host's piece and upward searches, the GPU sweep and read-off; and the same query on one host "
            f"thread, `phast-cpu`). Mean over the sources of the per-source median of {data['runs']} timed "
            "solves, ms; the contraction and the hierarchy are built once per graph, like loading, and shown "
            "apart. Every result checked against Dijkstra.", "")
    rows = []
    default_ratios, phast_ratios, phast_core_ratios = [], [], []
    for g in graphs:
        cpu = _solver(g, "cpu delta-stepping")
        nf = _solver(g, "gpu near-far")
        h = g.get("hierarchy")
        exact = all(s["plain"]["exact"] and s["contracted"]["exact"] for s in g["solvers"]) and (
            not h or (h["gpu"]["exact"] and h["cpu_one_thread"]["exact"]))
        cpu_plain, cpu_core = cpu["plain"]["ms"], cpu["contracted"]["ms"]
        default_ratios.append(cpu_plain / nf["contracted"]["ms"])
        if h:
            phast_ratios.append(cpu_plain / h["gpu"]["ms"])
            phast_core_ratios.append(cpu_core / h["gpu"]["ms"])
        rows.append([g["graph"], g["vertices"], f"{100.0 * g['core_vertices'] / g['vertices']:.1f}%",
                     f"{cpu_plain:.3f}", f"{cpu_core:.3f}", f"{nf['plain']['ms']:.3f} ({nf['plain']['rounds']:.0f})",
                     f"{nf['contracted']['ms']:.3f} ({nf['contracted']['rounds']:.0f})",
                     f"{h['gpu']['ms']:.3f}" if h else "-", f"{h['cpu_one_thread']['ms']:.3f}" if h else "-",
                     _ratio(cpu_plain, nf["contracted"]["ms"]),
                     _ratio(cpu_plain, h["gpu"]["ms"]) if h else "-", _ratio(cpu_core, h["gpu"]["ms"]) if h else "-",
                     f"{g['contract_ms']:.1f} / " + (f"{h['build_ms']:.0f}" if h else "-"),
                     "yes" if exact else "NO"])
    doc.table(["graph", "vertices", "core", "CPU ms", "CPU contracted", "GPU near-far (rounds)",
               "GPU near-far contracted (rounds)", "PHAST GPU", "PHAST host", "contracted near-far vs CPU",
               "PHAST vs CPU", "PHAST vs CPU contracted", "contraction / hierarchy build ms", "exact"], rows,
              ["---"] + ["---:"] * 12 + ["---"])
    doc.add("CPU: delta-stepping on the whole graph at its best delta; \"vs\" columns: its time over ours (above "
            "1: ours is faster). Contracted near-far is what `sssp --graph ROAD` runs by default where "
            "`--contract auto` contracts (its rule: docs/ARCHITECTURE.md, `--contract auto|on|off`).", "")
    text = (f"Across these graphs contracted near-far runs at {min(default_ratios):.2f}-"
            f"{max(default_ratios):.2f}x the CPU delta-stepping on the whole graph")
    if phast_ratios:
        text += (f"; PHAST at {min(phast_ratios):.1f}-{max(phast_ratios):.1f}x, and at "
                 f"{min(phast_core_ratios):.1f}-{max(phast_core_ratios):.1f}x the CPU delta-stepping on the "
                 "contracted core")
    doc.add(text + ".", "")
    doc.add("<details><summary>Every solver, plain and contracted</summary>", "")
    for g in graphs:
        doc.add(f"{g['graph']}: core {g['core_vertices']} of {g['vertices']} vertices, {g['core_arcs']} of "
                f"{g['arcs']} arcs ({g['shortcuts']} shortcuts)", "")
        doc.table(["solver", "plain ms", "rounds", "delta", "contracted ms", "rounds", "delta",
                   "of it on the host", "speed-up", "exact"],
                  [[s["solver"], f"{s['plain']['ms']:.3f}", f"{s['plain']['rounds']:.0f}",
                    f"{s['plain']['delta']:.0f}", f"{s['contracted']['ms']:.3f}", f"{s['contracted']['rounds']:.0f}",
                    f"{s['contracted']['delta']:.0f}", f"{s['host_ms']:.3f}",
                    _ratio(s["plain"]["ms"], s["contracted"]["ms"]),
                    "yes" if s["plain"]["exact"] and s["contracted"]["exact"] else "NO"] for s in g["solvers"]],
                  ["---"] + ["---:"] * 8 + ["---"])
    doc.add("</details>", "")


def add_sections(doc, results_dir, roads_dir=None, small_n_dir=None, multisplit_dir=None):
    ms_dir = multisplit_dir or results_dir  # make_benchmarks_doc.py --multisplit-from
    sort = _load(os.path.join(ms_dir, "multisplit_sort.json"))
    hist = _load(os.path.join(ms_dir, "multisplit_histogram.json"))
    red = _load(os.path.join(ms_dir, "multisplit_reduce.json"))
    if sort or hist or red:
        doc.add("## Multisplit as a building block", "")
        if sort:
            sort_section(doc, sort)
        if hist:
            histogram_section(doc, hist)
        if red:
            reduce_section(doc, red)
    small = _load(os.path.join(small_n_dir, "small_n.json") if small_n_dir
                  else os.path.join(results_dir, "small_n", "small_n.json"))
    if small and small.get("results"):
        if not (sort or hist or red):
            doc.add("## Multisplit as a building block", "")
        small_n_section(doc, small)
    lb = _load(os.path.join(results_dir, "sssp_load_balance.json"))
    if lb:
        load_balance_section(doc, lb)
    roads = _load(os.path.join(roads_dir or results_dir, "sssp_roads.json"))
    if roads:
        roads_section(doc, roads)
    batches = batch_rows(results_dir)
    if batches:
        batch_section(doc, batches)
    records = [_load(p) for p in sorted(glob.glob(os.path.join(results_dir, "scale", "scale_*.json")))]
    records = [r for r in records if r and r.get("summary")]
    if records:
        scale_section(doc, sorted(records, key=lambda r: r["graph"]["arcs"]))
