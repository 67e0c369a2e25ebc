#!/usr/bin/env python3
"""gpu_sssp from Python against scipy, NetworkX (and igraph), in one process.

    scripts/bench_python.py --graph $SSSP_DATASETS/road/DE.gr --graph $SSSP_DATASETS/road/rome99.gr \\
        --generate rmat:20:16 --generate grid:2048:2048 --runs 10 --json python.json
    scripts/bench_python.py --generate rmat:20:16 --json python.json --merge   # add to a file's rows

The Python issue's benchmark (issue 50, "Targets"). Per graph:
  conversions, timed apart (median of --convert-runs): the scipy.sparse CSR
    built from the arc arrays, gpu_sssp.Graph.from_scipy, the NetworkX
    DiGraph (from_scipy_sparse_array; graphs up to --nx-max-vertices only),
    the NetworkX backend's conversion (what backend="gpu_sssp" builds on its
    first call: nx_backend.NxGraph and its solver graph), igraph's Graph;
  one source (--source), graph already built: one warm-up call, then --runs
    timed calls (time.perf_counter; median, min, max): scipy.sparse.csgraph
    .dijkstra(indices=s), gpu_sssp.shortest_paths, gpu_sssp.solve (its wall
    time and the report's own solve time: the CUDA-event time `sssp` prints;
    shortest_paths minus it is the Python call's overhead), the scipy drop-in
    gpu_sssp.csgraph.dijkstra on the scipy matrix (converts on every call),
    networkx.single_source_dijkstra_path_length on its own and with
    backend="gpu_sssp", igraph's distances where `import igraph` works;
  all_pairs_dijkstra_path_length (NetworkX's own vs backend="gpu_sssp"): the
    generator consumed for its first --apsp-sources sources (NetworkX's own is
    slow), timed per item, and scaled to all n sources.
Every result is checked against scipy's distances (exact for integer weights,
1e-6 relative for float ones). Prints a markdown table; --json writes the rows
(make_benchmarks_doc.py reads them as python.json).

Graph files are read by gpu_sssp.Graph.from_file (every format the command
line reads; duplicate arcs keep the smallest weight, self-loops drop).
gpu_sssp has no generator of its own, so --generate builds graphs with numpy
(seeded by --seed), with the command line's meaning but not its exact arcs:
rmat:SCALE:EF[:A:B:C:D] (2^SCALE vertices, EF x 2^SCALE edges, Graph500
a, b, c, d = 0.57, 0.19, 0.19, 0.05 by default), grid:ROWS:COLS (4
neighbours), urand:N:DEG (N x DEG edges, endpoints uniform); every edge
mirrored, weights uniform integers 1..1000.
"""
import argparse
import datetime
import gc
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse import csgraph

import gpu_sssp
import gpu_sssp.csgraph

try:
    import networkx as nx
except ImportError:  # the NetworkX rows are left out, with a note
    nx = None
try:
    import igraph
except ImportError:
    igraph = None

HERE = os.path.dirname(os.path.abspath(__file__))


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---- graphs

def _mirror_dedupe(u, v, w, n):
    """Both directions of every edge, self-loops dropped, duplicate arcs at their smallest weight."""
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    w = np.concatenate([w, w])
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    key = src * np.int64(n) + dst
    order = np.lexsort((w, key))
    key, w = key[order], w[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key, w = key[first], w[first]
    return key // n, key % n, w


def generate(spec, seed):
    """(src, dst, weights, n) of a generator spec; see the module docstring."""
    rng = np.random.default_rng(seed)
    p = spec.split(":")
    try:
        if p[0] == "rmat" and len(p) in (3, 7):
            scale, ef = int(p[1]), int(p[2])
            a, b, c, d = (float(x) for x in p[3:7]) if len(p) == 7 else (0.57, 0.19, 0.19, 0.05)
            n, m = 1 << scale, ef << scale
            u = np.zeros(m, dtype=np.int64)
            v = np.zeros(m, dtype=np.int64)
            for level in range(scale):
                r = rng.random(m)
                # quadrant: a (0, 0), b (0, 1), c (1, 0), d (1, 1)
                u |= (r >= a + b).astype(np.int64) << level
                v |= (((r >= a) & (r < a + b)) | (r >= a + b + c)).astype(np.int64) << level
        elif p[0] == "grid" and len(p) == 3:
            rows, cols = int(p[1]), int(p[2])
            n = rows * cols
            ids = np.arange(n, dtype=np.int64).reshape(rows, cols)
            u = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
            v = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
            m = u.size
        elif p[0] == "urand" and len(p) == 3:
            n, deg = int(p[1]), int(p[2])
            m = n * deg
            u = rng.integers(0, n, m, dtype=np.int64)
            v = rng.integers(0, n, m, dtype=np.int64)
        else:
            raise ValueError
    except ValueError:
        raise SystemExit(f"bench_python.py: bad --generate {spec!r} "
                         "(rmat:SCALE:EF[:A:B:C:D], grid:ROWS:COLS or urand:N:DEG)")
    w = rng.integers(1, 1001, m, dtype=np.int64)
    src, dst, w = _mirror_dedupe(u, v, w, n)
    return src, dst, w.astype(np.float64), n


# ---- timing and checks

def timed(fn, runs):
    """One warm-up call, then `runs` timed ones: (warm-up's result, [ms])."""
    result = fn()
    gc.collect()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return result, times


def once(fn, runs):
    """`runs` timed calls, none untimed (conversions: the first one is the honest one): (last result, [ms])."""
    times = []
    result = None
    for _ in range(runs):
        result = None
        gc.collect()
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1e3)
    return result, times


def same(ref, got, integral):
    """'ok' or what differs, against scipy's row."""
    got = np.asarray(got, dtype=np.float64)
    if got.shape != ref.shape:
        return f"shape {got.shape} vs {ref.shape}"
    fin_r, fin_g = np.isfinite(ref), np.isfinite(got)
    if not np.array_equal(fin_r, fin_g):
        return f"{int(np.sum(fin_r != fin_g))} vertices reached differently"
    if integral:
        bad = np.flatnonzero(ref[fin_r] != got[fin_r])
    else:
        bad = np.flatnonzero(~np.isclose(got[fin_r], ref[fin_r], rtol=1e-6, atol=0))
    if bad.size:
        i = np.flatnonzero(fin_r)[bad[0]]
        return f"{bad.size} distances differ (vertex {i}: {got[i]} vs {ref[i]})"
    return "ok"


def dict_row(d, n):
    a = np.full(n, np.inf)
    if d:
        a[np.fromiter(d.keys(), dtype=np.int64, count=len(d))] = np.fromiter(d.values(), dtype=np.float64,
                                                                              count=len(d))
    return a


# ---- the benchmark

class Bench:
    def __init__(self, args):
        self.args = args
        self.rows = []
        self.overhead = []
        self.notes = []

    def row(self, graph, kind, method, times, ok, scipy_ms=None, **extra):
        med = statistics.median(times)
        r = {"graph": graph["name"], "vertices": graph["n"], "arcs": graph["m"], "kind": kind, "method": method,
             "runs": len(times), "median_ms": med, "min_ms": min(times), "max_ms": max(times),
             "times_ms": [round(t, 6) for t in times],
             "vs_scipy": (scipy_ms / med) if scipy_ms and med > 0 else None, "ok": ok}
        r.update(extra)
        self.rows.append(r)
        log(f"  {method}: median {med:.3f} ms ({ok})")
        return r

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)
        log("  note: " + text)

    def load(self, spec, is_file):
        a = self.args
        t = time.perf_counter()
        if is_file:
            g = gpu_sssp.Graph.from_file(spec)
            indptr, indices, weights = g.to_csr()
            src = np.repeat(np.arange(g.num_vertices, dtype=np.int64), np.diff(indptr.astype(np.int64)))
            dst = indices.astype(np.int64)
            w = weights.astype(np.float64)
            n = g.num_vertices
            name, how = os.path.basename(spec), "gpu_sssp.Graph.from_file + to_csr"
            del g
        else:
            src, dst, w, n = generate(spec, a.seed)
            name, how = spec, f"numpy generator (seed {a.seed})"
        load_ms = (time.perf_counter() - t) * 1e3
        integral = bool(np.all(np.floor(w) == w))
        return {"name": name, "spec": spec, "n": int(n), "m": int(src.size), "src": src, "dst": dst, "w": w,
                "integral": integral, "load_ms": load_ms, "load": how}

    def run_graph(self, G):
        a = self.args
        n, s = G["n"], a.source
        if not 0 <= s < n:
            raise SystemExit(f"bench_python.py: --source {s} is out of range for {G['name']} ({n} vertices)")
        log(f"{G['name']}: {n} vertices, {G['m']} arcs (loaded in {G['load_ms']:.0f} ms: {G['load']})")
        cr = a.convert_runs
        src, dst, w = G["src"], G["dst"], G["w"]

        # -- conversions
        A, t = once(lambda: sp.coo_matrix((w, (src, dst)), shape=(n, n)).tocsr(), cr)
        self.row(G, "convert", "scipy.sparse CSR (coo_matrix((w, (src, dst))).tocsr())", t, "-")
        g, t = once(lambda: gpu_sssp.Graph.from_scipy(A), cr)
        self.row(G, "convert", "gpu_sssp.Graph.from_scipy", t,
                 "ok" if g.num_arcs == A.nnz else f"{g.num_arcs} arcs for {A.nnz}")
        use_nx = nx is not None and n <= a.nx_max_vertices
        use_backend = use_nx and backend_registered()
        if use_nx and not use_backend:
            self.note("the NetworkX backend gpu_sssp is not registered (no networkx.backends entry point): "
                      "no backend rows")
        NX = None
        if nx is None:
            self.note("networkx is not importable: no NetworkX rows")
        elif not use_nx:
            self.note(f"NetworkX rows only for graphs up to {a.nx_max_vertices} vertices (--nx-max-vertices)")
        if use_nx:
            NX, t = once(lambda: nx.from_scipy_sparse_array(A, create_using=nx.DiGraph), cr)
            self.row(G, "convert", "networkx DiGraph (from_scipy_sparse_array)", t,
                     "ok" if NX.number_of_edges() == A.nnz else f"{NX.number_of_edges()} edges")
            from gpu_sssp import nx_backend

            _, t = once(lambda: nx_backend.NxGraph(NX).solver_graph("weight"), cr)
            self.row(G, "convert", "backend conversion (nx_backend.NxGraph + solver graph)", t, "-")
        IG = None
        if igraph is not None:
            def make_ig():
                return igraph.Graph(n=n, edges=np.column_stack([src, dst]).tolist(), directed=True,
                                    edge_attrs={"weight": w.tolist()})

            IG, t = once(make_ig, cr)
            self.row(G, "convert", "igraph Graph (edges + weight attribute)", t, "-")

        # -- one source, graph already built
        runs = a.runs
        ref, t = timed(lambda: csgraph.dijkstra(A, directed=True, indices=s), runs)
        scipy_ms = statistics.median(t)
        self.row(G, "solve", "scipy.sparse.csgraph.dijkstra", t, "ok", scipy_ms)
        reached = int(np.isfinite(ref).sum())
        integral = G["integral"]

        d, t = timed(lambda: gpu_sssp.shortest_paths(g, s), runs)
        sp_row = self.row(G, "solve", "gpu_sssp.shortest_paths", t, same(ref, d, integral), scipy_ms,
                          reached=reached)
        reports = []

        def call_solve():
            r = gpu_sssp.solve(g, s)
            reports.append(r)
            return r

        rep, t = timed(call_solve, runs)
        timed_reports = reports[1:]
        # Paired: each solve() call's wall time minus the solve time it reports.
        paired_us = statistics.median((w_ms - r.solve_ms[0]) * 1e3 for w_ms, r in zip(t, timed_reports))
        self.row(G, "solve", "gpu_sssp.solve (wall)", t, same(ref, rep.distances[0], integral), scipy_ms)
        solve_ms = [r.solve_ms[0] for r in timed_reports]
        total_ms = [r.total_ms for r in timed_reports]
        rs = self.row(G, "solve", f"gpu_sssp.solve: report's solve time ({rep.device}, {rep.strategy})", solve_ms,
                      same(ref, rep.distances[0], integral), scipy_ms, strategy=rep.strategy, device=rep.device,
                      contracted=rep.contracted, total_ms_median=statistics.median(total_ms))
        over_us = (sp_row["median_ms"] - rs["median_ms"]) * 1e3
        self.overhead.append({"graph": G["name"], "shortest_paths_ms": sp_row["median_ms"],
                              "report_solve_ms": rs["median_ms"], "report_total_ms": statistics.median(total_ms),
                              "overhead_us": over_us, "within_50us": over_us <= 50.0,
                              "paired_overhead_us": paired_us, "device": rep.device,
                              "strategy": rep.strategy})
        log(f"  shortest_paths - report's solve time = {over_us:.1f} us (paired, per solve() call: {paired_us:.1f} us)")

        d, t = timed(lambda: gpu_sssp.csgraph.dijkstra(A, indices=s), min(runs, 3))  # converts: slow on big graphs
        self.row(G, "solve", "gpu_sssp.csgraph.dijkstra (scipy matrix: converts every call)", t,
                 same(ref, d, integral), scipy_ms)
        if use_nx:
            d, t = timed(lambda: nx.single_source_dijkstra_path_length(NX, s), runs)
            self.row(G, "solve", "networkx.single_source_dijkstra_path_length", t, same(ref, dict_row(d, n), integral),
                     scipy_ms)
        if use_backend:
            # The first backend call converts (NetworkX caches the conversion on the graph): timed apart.
            if getattr(NX, "__networkx_cache__", None) is not None:
                NX.__networkx_cache__.clear()
            _, t = once(lambda: nx.single_source_dijkstra_path_length(NX, s, backend="gpu_sssp"), 1)
            self.row(G, "convert", "backend's first call (conversion + solver set-up + solve)", t, "-")
            d, t = timed(lambda: nx.single_source_dijkstra_path_length(NX, s, backend="gpu_sssp"), runs)
            self.row(G, "solve", "networkx.single_source_dijkstra_path_length, backend=\"gpu_sssp\"", t,
                     same(ref, dict_row(d, n), integral), scipy_ms)
        if IG is not None:
            d, t = timed(lambda: IG.distances(source=s, weights="weight"), runs)
            self.row(G, "solve", "igraph Graph.distances", t, same(ref, np.asarray(d[0], dtype=np.float64), integral),
                     scipy_ms)
        else:
            self.note("igraph is not importable: no igraph rows")

        # -- all pairs, capped
        if use_nx and a.apsp_sources > 0:
            k = min(n, a.apsp_sources)
            ref_k, t = once(lambda: csgraph.dijkstra(A, directed=True, indices=np.arange(k)), 1)
            apsp_scipy_ms = t[0]
            self.row(G, "apsp", f"scipy.sparse.csgraph.dijkstra(indices=range({k}))", t, "ok", apsp_scipy_ms,
                     sources=k, projected_all_ms=t[0] * n / k)
            nx_ms = None
            ways = [("networkx.all_pairs_dijkstra_path_length", {})]
            if use_backend:
                ways.append(("networkx.all_pairs_dijkstra_path_length, backend=\"gpu_sssp\"", {"backend": "gpu_sssp"}))
            for label, kw in ways:
                gc.collect()
                ok, spent = "ok", 0.0
                t0 = time.perf_counter()
                it = iter(nx.all_pairs_dijkstra_path_length(NX, **kw))
                spent += time.perf_counter() - t0
                for i in range(k):
                    t0 = time.perf_counter()
                    src_node, dist = next(it)
                    spent += time.perf_counter() - t0
                    # Checked outside the timed part, one source at a time (the rows are not all kept).
                    if ok == "ok":
                        if src_node != i:
                            ok = f"source {src_node} at position {i}"
                        else:
                            r = same(ref_k[i], dict_row(dist, n), integral)
                            ok = "ok" if r == "ok" else f"source {i}: {r}"
                del it
                ms = spent * 1e3
                r = self.row(G, "apsp", label + f", first {k} sources", [ms], ok, apsp_scipy_ms, sources=k,
                             projected_all_ms=ms * n / k)
                if nx_ms is None:
                    nx_ms = ms
                else:
                    r["vs_networkx"] = nx_ms / ms if ms > 0 else None
                    log(f"  all pairs: backend {r['vs_networkx']:.1f}x NetworkX's own")
        del A, g, NX, IG
        gc.collect()

    def table(self):
        out = ["| graph | vertices | arcs | method | median ms | min ms | max ms | vs scipy | ok |",
               "|---|---:|---:|---|---:|---:|---:|---:|---|"]
        for r in self.rows:
            vs = f"{r['vs_scipy']:.2f}x" if r.get("vs_scipy") else "-"
            if r.get("vs_networkx"):
                vs += f" ({r['vs_networkx']:.1f}x NetworkX)"
            out.append(f"| {r['graph']} | {r['vertices']} | {r['arcs']} | {r['method']} | {r['median_ms']:.3f} | "
                       f"{r['min_ms']:.3f} | {r['max_ms']:.3f} | {vs} | {r['ok']} |")
        out.append("")
        for o in self.overhead:
            out.append(f"{o['graph']}: shortest_paths {o['shortest_paths_ms']:.3f} ms, the report's solve time "
                       f"{o['report_solve_ms']:.3f} ms ({o['device']}, {o['strategy']}): Python call overhead "
                       f"{o['overhead_us']:.1f} us ({'within' if o['within_50us'] else 'NOT within'} 50 us); "
                       f"per solve() call, its wall time minus its reported solve time: {o['paired_overhead_us']:.1f} us")
        for text in self.notes:
            out.append("Note: " + text)
        return "\n".join(out)


def backend_registered():
    try:
        from importlib.metadata import entry_points

        return any(e.name == "gpu_sssp" for e in entry_points(group="networkx.backends"))
    except Exception:  # noqa: BLE001
        return False


def device_name():
    ok, why = gpu_sssp.gpu_available()
    if not ok:
        return "cpu", why
    try:
        from gpu_sssp import _core

        return _core.gpu_description() or "gpu", ""
    except Exception:  # noqa: BLE001 (an older package without gpu_description)
        return "gpu", ""


def commit():
    try:
        out = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "unknown" if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--graph", action="append", default=[], metavar="PATH", help="a graph file (repeatable)")
    ap.add_argument("--generate", action="append", default=[], metavar="SPEC",
                    help="rmat:SCALE:EF[:A:B:C:D], grid:ROWS:COLS or urand:N:DEG (repeatable)")
    ap.add_argument("--runs", type=int, default=10, help="timed runs per solve, after one warm-up (default 10)")
    ap.add_argument("--convert-runs", type=int, default=3, help="timed runs per conversion (default 3)")
    ap.add_argument("--source", type=int, default=0, help="the source vertex, 0-based (default 0)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--nx-max-vertices", type=int, default=200_000,
                    help="NetworkX rows only for graphs up to this many vertices (default 200000)")
    ap.add_argument("--apsp-sources", type=int, default=200,
                    help="all_pairs_dijkstra_path_length: sources consumed (default 200; 0: none)")
    ap.add_argument("--json", metavar="OUT", help="write the rows as JSON (make_benchmarks_doc.py: python.json)")
    ap.add_argument("--merge", action="store_true",
                    help="add to --json OUT's rows where it exists (one python.json from several runs)")
    args = ap.parse_args()
    if not (args.graph or args.generate):
        ap.error("give at least one --graph PATH or --generate SPEC")
    if args.runs < 1 or args.convert_runs < 1:
        ap.error("--runs and --convert-runs must be at least 1")
    warnings.simplefilter("ignore", RuntimeWarning)  # gpu_sssp's "solving on the CPU": recorded as device
    if nx is not None and hasattr(getattr(nx, "config", None), "warnings_to_ignore"):
        nx.config.warnings_to_ignore.add("cache")  # the backend's cached conversion is used on purpose
    device, why = device_name()
    bench = Bench(args)
    if device == "cpu":
        bench.note(f"no usable GPU ({why}): gpu_sssp ran its CPU solvers")
    t_all = time.perf_counter()
    for spec, is_file in [(p, True) for p in args.graph] + [(s, False) for s in args.generate]:
        bench.run_graph(bench.load(spec, is_file))
    wall = time.perf_counter() - t_all
    text = bench.table()
    print(text)
    if args.json:
        versions = {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
                    "gpu_sssp": getattr(gpu_sssp, "__version__", "?"),
                    "networkx": nx.__version__ if nx else None, "igraph": igraph.__version__ if igraph else None}
        doc = {"bench": "python", "device": device, "commit": commit(),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "command": " ".join(shlex.quote(x) for x in ["scripts/bench_python.py"] + sys.argv[1:]),
               "host_cpus": os.cpu_count(), "versions": versions, "runs": args.runs,
               "convert_runs": args.convert_runs, "source": args.source, "seed": args.seed,
               "apsp_sources": args.apsp_sources, "wall_s": round(wall, 1), "notes": bench.notes,
               "overhead": bench.overhead, "rows": bench.rows}
        if args.merge and os.path.exists(args.json):
            with open(args.json) as f:
                old = json.load(f)
            doc["command"] = old.get("command", "?") + "; " + doc["command"]
            doc["wall_s"] = round(old.get("wall_s", 0) + doc["wall_s"], 1)
            doc["notes"] = old.get("notes", []) + [t for t in doc["notes"] if t not in old.get("notes", [])]
            doc["overhead"] = old.get("overhead", []) + doc["overhead"]
            doc["rows"] = old.get("rows", []) + doc["rows"]
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        log(f"wrote {args.json}")
    bad = [r for r in bench.rows if r["ok"] not in ("ok", "-")]
    if bad:
        log(f"bench_python.py: {len(bad)} results differ from scipy's")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
