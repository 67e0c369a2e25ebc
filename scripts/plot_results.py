#!/usr/bin/env python3
"""Draw the benchmark plots of one results folder.

    scripts/plot_results.py results/nvidia-h200/2026-11-23          # PNGs into .../plots/
    scripts/plot_results.py DIR --out somewhere/

Reads whatever the folder holds of
  sssp.json        (sssp_bench --json: all strategies, all graphs)
  sssp_delta.json  (sssp_bench --json --delta-c ...: the delta sweep)
  multisplit.json  (multisplit_bench --json)
and draws
  sssp_mteps.png           MTEPS per strategy per graph (grouped bars, log scale)
  sssp_work_ratio.png      work ratio per strategy per graph (1.0 = Dijkstra's work)
  sssp_delta_sweep.png     solve time vs delta per strategy, one panel per swept graph
  multisplit_rate_<functor>_n<log2 n>.png     Gkeys/s and Gpairs/s vs buckets per
                           method (the multisplit paper's Figures 6 and 7)
  multisplit_speedup_n<log2 n>.png  speed-up over RB-sort vs buckets
  multisplit_sol_n<log2 n>.png      fraction of the memory speed of light vs buckets
Needs only matplotlib (Debian: apt-get install python3-matplotlib).
"""
import argparse
import json
import math
import os
import re
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter
except ImportError:  # pragma: no cover - depends on the machine
    # Debian's python3-matplotlib belongs to /usr/bin/python3; another python3
    # first on PATH (pyenv, a venv) does not see it, so retry with the system one.
    if (os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3")
            and __name__ == "__main__" and not os.environ.get("SSSP_PLOT_REEXEC")):
        os.environ["SSSP_PLOT_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    plt = None

# One colour per strategy / method everywhere, so plots read alike.
STRATEGY_STYLE = {
    "near-far": ("Near-Far", "#1f77b4"),
    "bucket-sort": ("Bucketing (CUB sort)", "#ff7f0e"),
    "bucket-multisplit": ("Bucketing (multisplit)", "#2ca02c"),
    "bellman-ford": ("Bellman-Ford frontier", "#d62728"),
    "cpu": ("CPU delta-stepping", "#7f7f7f"),
}
STRATEGY_ORDER = ["cpu", "near-far", "bucket-sort", "bucket-multisplit", "bellman-ford"]

METHOD_STYLE = {  # name in multisplit.json -> (label, colour, line style, marker)
    "direct": ("Direct (DMS)", "#1f77b4", "-", "o"),
    "warp": ("Warp (WMS)", "#2ca02c", "-", "s"),
    "block": ("Block (BMS)", "#9467bd", "-", "^"),
    "sort": ("RB-sort (label + CUB sort)", "#d62728", "-", "v"),
    "auto": ("auto (our choice)", "#000000", ":", "x"),
    "cub_sort_top_bits": ("CUB radix sort, top log2 m bits", "#ff7f0e", "--", "D"),
    "cub_sort_32bit": ("CUB radix sort, 32 bits", "#8c564b", "--", "."),
    "cub_partition": ("CUB DevicePartition (m = 2)", "#e377c2", "none", "*"),
}
MULTISPLIT_METHODS = ["direct", "warp", "block", "sort", "auto"]
CUB_METHODS = ["cub_sort_top_bits", "cub_sort_32bit", "cub_partition"]


def strategy_key(method):
    return "cpu" if method.startswith("cpu") else method


def strategy_label(method, rows=None):
    key = strategy_key(method)
    label = STRATEGY_STYLE.get(key, (method, None))[0]
    m = re.search(r"\((\d+) threads\)", method)
    if key == "cpu" and m:
        label += f" ({m.group(1)} threads)"
    return label


def graph_label(name):
    """Short readable name: rmat:20:16 -> R-MAT 2^20, DE.gr -> DE."""
    parts = name.split(":")
    if parts[0] == "rmat" and len(parts) >= 3:
        extra = " (0.5,0.1,0.1,0.3)" if parts[3:] == ["0.5", "0.1", "0.1", "0.3"] else (
            " (" + ",".join(parts[3:]) + ")" if len(parts) > 3 else "")
        return f"R-MAT 2^{parts[1]}{extra}"
    if parts[0] == "grid" and len(parts) == 3:
        return f"grid {parts[1]}x{parts[2]}"
    if parts[0] == "urand" and len(parts) == 3:
        n = int(parts[1])
        lg = math.log2(n) if n > 0 else 0
        return f"uniform 2^{int(lg)}" if lg == int(lg) else f"uniform {n}"
    base = name.split("@")[0]
    base = re.sub(r"\.(mtx|gr|el|txt|bin)(\.gz)?$", "", base)
    return base


def graph_kind(name):
    """Family of a graph, for grouping and for the reading in BENCHMARKS.md."""
    low = name.lower()
    if low.startswith("rmat") or low.startswith("kron"):
        return "power-law (R-MAT/Kronecker)"
    if low.startswith("urand"):
        return "uniform random"
    if low.startswith("grid"):
        return "grid (road-like)"
    if (low.endswith(".gr") or "osm" in low or "road" in low or low.startswith("rome")
            or low.startswith("de.")):
        return "road network"
    if "copter" in low or "mesh" in low:
        return "mesh"
    return "social / web / citation"


KIND_ORDER = ["power-law (R-MAT/Kronecker)", "uniform random", "grid (road-like)", "road network",
              "social / web / citation", "mesh"]


def ratio_range(values, suffix="x"):
    """'1.07-1.79x' (or '1.07x' when all equal) over the positive values; '-' when there are none."""
    values = [v for v in values if v and v > 0]
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo:.2f}{suffix}" if abs(hi - lo) < 0.005 else f"{lo:.2f}-{hi:.2f}{suffix}"


def load_json(path):
    with open(path) as f:
        return json.load(f)


def device_name(doc):
    """'NVIDIA H200 (sm_90, 132 SMs, ...), driver ...' -> 'NVIDIA H200'."""
    d = str(doc.get("device", "unknown device"))
    return d.split(" (")[0] if not d.startswith("SYNTHETIC") else d.split(" (")[0]


def graphs_in_order(rows):
    seen = []
    for r in rows:
        if r["graph"] not in seen:
            seen.append(r["graph"])
    return sorted(seen, key=lambda g: (KIND_ORDER.index(graph_kind(g)), seen.index(g)))


def strategies_in(rows):
    present = {strategy_key(r["method"]) for r in rows}
    return [s for s in STRATEGY_ORDER if s in present] + sorted(present - set(STRATEGY_ORDER))


def row_ok(r):
    return r.get("valid") in ("yes", "reference") and r.get("median_ms", 0) > 0


def grouped_bars(ax, rows, value, graphs, strategies):
    """One group per graph, one bar per strategy; invalid results drawn hatched."""
    width = 0.8 / max(1, len(strategies))
    by = {(r["graph"], strategy_key(r["method"])): r for r in rows}
    for i, s in enumerate(strategies):
        xs, ys, bad = [], [], []
        for gi, g in enumerate(graphs):
            r = by.get((g, s))
            if r is None or value(r) <= 0:
                continue
            xs.append(gi + (i - (len(strategies) - 1) / 2) * width)
            ys.append(value(r))
            bad.append(not row_ok(r))
        label = strategy_label(next(r["method"] for r in rows if strategy_key(r["method"]) == s))
        color = STRATEGY_STYLE.get(s, (s, None))[1]
        bars = ax.bar(xs, ys, width, label=label, color=color, edgecolor="black", linewidth=0.3)
        for b, is_bad in zip(bars, bad):
            if is_bad:
                b.set_hatch("xx")
    ax.set_xticks(range(len(graphs)))
    ax.set_xticklabels([graph_label(g) for g in graphs], rotation=35, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(graphs) - 0.4)
    # Family bands help the eye: road graphs behave nothing like R-MAT.
    kinds = [graph_kind(g) for g in graphs]
    start = 0
    for i in range(1, len(kinds) + 1):
        if i == len(kinds) or kinds[i] != kinds[start]:
            if i < len(kinds):
                ax.axvline(i - 0.5, color="grey", linewidth=0.6, linestyle=":")
            ax.text((start + i - 1) / 2, 1.0, kinds[start].split(" (")[0], transform=ax.get_xaxis_transform(),
                    ha="center", va="bottom", fontsize=7, color="dimgrey")
            start = i


def log_axis_plain(ax, minor=False):
    """Log-scale y axis labelled 10, 100 (not 10^1); minor=True also labels 20, 30 ...
    where the axis spans less than a decade and would otherwise show no number."""
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    if minor:
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def plot_sssp(doc, meta, out, written):
    rows = doc.get("rows", [])
    if not rows:
        return
    dev = device_name(doc)
    when = f", {meta['date'][:10]}" if meta and meta.get("date") else ""
    graphs = graphs_in_order(rows)
    strategies = strategies_in(rows)
    note = f"median of {doc.get('runs', '?')} solves, {doc.get('sources_per_graph', 1)} source(s) per graph"

    fig, ax = plt.subplots(figsize=(max(10, 0.75 * len(graphs) + 3), 5.5))
    grouped_bars(ax, rows, lambda r: r.get("mteps", 0), graphs, strategies)
    ax.set_yscale("log")
    log_axis_plain(ax)
    ax.set_ylabel("MTEPS (million arcs of reached vertices per second)\nlog scale, higher is better")
    ax.set_title(f"SSSP throughput per strategy and graph ({dev}{when})\n{note}; hatched = result not valid",
                 fontsize=10, pad=14)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.005, 1.0), title="strategy", title_fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "sssp_mteps.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(("sssp_mteps.png", "SSSP throughput (MTEPS, log scale) per strategy and graph"))

    fig, ax = plt.subplots(figsize=(max(10, 0.75 * len(graphs) + 3), 5.5))
    grouped_bars(ax, rows, lambda r: r.get("work_ratio", 0), graphs, strategies)
    ax.set_yscale("log")
    log_axis_plain(ax)
    ax.axhline(1.0, color="black", linewidth=1, linestyle="--")
    ax.text(-0.5, 1.0, " 1.0 = Dijkstra's work", ha="left", va="bottom", fontsize=8)
    ax.set_ylabel("work ratio = arcs relaxed / arcs of reached vertices\nlog scale, lower is better")
    ax.set_title(f"SSSP work per strategy and graph ({dev}{when})\nhow many times each arc is relaxed on average",
                 fontsize=10, pad=14)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.005, 1.0), title="strategy", title_fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sssp_work_ratio.png"), dpi=110)
    plt.close(fig)
    written.append(("sssp_work_ratio.png", "SSSP work ratio per strategy and graph (1.0 = Dijkstra)"))


SWEEP_NAME = re.compile(r"^(.*) c=(\d+(?:\.\d+)?)$")


def sweep_series(rows):
    """{graph: {strategy: [(c, delta, median_ms, work_ratio), ...]}} from 'NAME c=N' rows."""
    out = {}
    for r in rows:
        m = SWEEP_NAME.match(r["graph"])
        if not m or r.get("median_ms", 0) <= 0:
            continue
        g, c = m.group(1), float(m.group(2))
        out.setdefault(g, {}).setdefault(strategy_key(r["method"]), []).append(
            (c, r["delta"], r["median_ms"], r.get("work_ratio", 0)))
    for g in out.values():
        for s in g.values():
            s.sort()
    return out


def plot_sweep(doc, meta, out, written):
    series = sweep_series(doc.get("rows", []))
    if not series:
        return
    dev = device_name(doc)
    when = f", {meta['date'][:10]}" if meta and meta.get("date") else ""
    graphs = sorted(series, key=lambda g: (KIND_ORDER.index(graph_kind(g)), g))
    fig, axes = plt.subplots(1, len(graphs), figsize=(5.2 * len(graphs), 4.6), squeeze=False)
    for ax, g in zip(axes[0], graphs):
        for s in [k for k in STRATEGY_ORDER if k in series[g]] + sorted(set(series[g]) - set(STRATEGY_ORDER)):
            pts = series[g][s]
            label, color = STRATEGY_STYLE.get(s, (s, None))
            ax.plot([p[1] for p in pts], [p[2] for p in pts], marker="o", label=label, color=color)
        pts = next(iter(series[g].values()))
        ax.set_xscale("log", base=2)
        ax.set_xticks([p[1] for p in pts])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticklabels([f"{p[1]:.0f}\nc={p[0]:g}" for p in pts], fontsize=7)
        for p in pts:
            if p[0] == 32:
                ax.axvline(p[1], color="grey", linestyle=":", linewidth=1)
                ax.text(p[1], 0.98, " default\n (c=32)", transform=ax.get_xaxis_transform(), fontsize=7,
                        va="top", color="dimgrey")
        ax.set_yscale("log")
        lo, hi = ax.get_ylim()
        log_axis_plain(ax, minor=hi / lo < 10)
        ax.grid(which="both", alpha=0.3)
        ax.set_title(f"{graph_label(g)} ({graph_kind(g).split(' (')[0]})", fontsize=10)
        ax.set_xlabel("delta (weight units, log scale); c = delta / (mean weight / mean degree)", fontsize=8)
        ax.set_ylabel("median solve time (ms), log scale, lower is better", fontsize=8)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"SSSP solve time vs bucket width delta ({dev}{when})", fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sssp_delta_sweep.png"), dpi=110)
    plt.close(fig)
    written.append(("sssp_delta_sweep.png", "SSSP solve time vs delta per strategy"))


def ms_series(results, n, functor, kind, method, field):
    pts = sorted((r["buckets"], r[field]) for r in results
                 if r["n"] == n and r["functor"] == functor and r["kind"] == kind and r["method"] == method)
    return [p[0] for p in pts], [p[1] for p in pts]


def bucket_axis(ax, ms):
    ax.set_xscale("log", base=2)
    ax.set_xticks(ms)
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticklabels([str(m) for m in ms], fontsize=7, rotation=45)
    ax.set_xlabel("number of buckets m (log scale)")


def plot_multisplit(doc, meta, out, written):
    results = doc.get("results", [])
    if not results:
        return
    dev = device_name(doc)
    when = f", {meta['date'][:10]}" if meta and meta.get("date") else ""
    copy = doc.get("copy_gbps", 0)
    unit = {"keys": "Gkeys/s", "pairs": "Gpairs/s"}
    bytes_per = {"keys": 12, "pairs": 20}
    kinds = [k for k in ("keys", "pairs") if any(r["kind"] == k for r in results)]
    for n in sorted({r["n"] for r in results}):
        lg = int(round(math.log2(n)))
        ms = sorted({r["buckets"] for r in results if r["n"] == n})
        functors = [f for f in ("delta", "identity") if any(r["functor"] == f and r["n"] == n for r in results)]
        for functor in functors:
            fig, axes = plt.subplots(1, len(kinds), figsize=(6.2 * len(kinds), 5.4), squeeze=False)
            for ax, kind in zip(axes[0], kinds):
                for method in MULTISPLIT_METHODS + CUB_METHODS:
                    x, y = ms_series(results, n, functor, kind, method, "g_items_per_s")
                    if not x:
                        continue
                    label, color, ls, marker = METHOD_STYLE[method]
                    ax.plot(x, y, linestyle=ls, marker=marker, color=color, label=label, markersize=5,
                            linewidth=1.0 if method in CUB_METHODS or method == "auto" else 1.6)
                if copy > 0:
                    sol = copy / bytes_per[kind]
                    ax.axhline(sol, color="black", linewidth=0.8)
                    ax.text(ms[0], sol, f" speed of light {sol:.0f} {unit[kind]} ({bytes_per[kind]} B/item "
                            f"at {copy:.0f} GB/s)", va="bottom", fontsize=7)
                bucket_axis(ax, ms)
                ax.set_ylim(0, None)
                ax.set_ylabel(f"{unit[kind]}, higher is better")
                ax.set_title("key-only" if kind == "keys" else "key-value (32-bit values)", fontsize=10)
                ax.grid(alpha=0.3)
            handles, labels = axes[0][0].get_legend_handles_labels()
            fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4)
            what = ("delta buckets (equal key ranges)" if functor == "delta"
                    else "identity buckets (key = bucket id)")
            fig.suptitle(f"Multisplit throughput vs buckets, n = 2^{lg} uniform 32-bit keys, {what}\n({dev}{when})",
                         fontsize=10)
            fig.tight_layout(rect=(0, 0.1, 1, 1))
            name = f"multisplit_rate_{functor}_n{lg}.png"
            fig.savefig(os.path.join(out, name), dpi=110)
            plt.close(fig)
            written.append((name, f"Multisplit throughput vs buckets, n = 2^{lg}, {functor} buckets"))

        functor = "delta" if "delta" in functors else functors[0]
        for field, name, ylabel, title in (
                ("speedup_vs_rb_sort", f"multisplit_speedup_n{lg}.png", "speed-up over RB-sort (x), higher is better",
                 "Multisplit speed-up over RB-sort (label + CUB radix sort)"),
                ("speed_of_light_fraction", f"multisplit_sol_n{lg}.png",
                 "fraction of the speed of light (%), higher is better",
                 "Multisplit fraction of the memory speed of light")):
            fig, axes = plt.subplots(1, len(kinds), figsize=(6.2 * len(kinds), 5.4), squeeze=False)
            for ax, kind in zip(axes[0], kinds):
                methods = [m for m in MULTISPLIT_METHODS + CUB_METHODS
                           if not (field == "speedup_vs_rb_sort" and m == "sort")]
                for method in methods:
                    x, y = ms_series(results, n, functor, kind, method, field)
                    if not x:
                        continue
                    if field == "speed_of_light_fraction":
                        y = [100 * v for v in y]
                    label, color, ls, marker = METHOD_STYLE[method]
                    ax.plot(x, y, linestyle=ls, marker=marker, color=color, label=label, markersize=5)
                if field == "speedup_vs_rb_sort":
                    ax.axhline(1.0, color="#d62728", linewidth=1)
                    ax.text(ms[-1], 1.0, "RB-sort = 1 ", ha="right", va="bottom", fontsize=7, color="#d62728")
                    ax.axhline(1.5, color="grey", linewidth=0.8, linestyle="--")
                    ax.text(ms[-1], 1.5, "target 1.5x ", ha="right", va="bottom", fontsize=7, color="dimgrey")
                else:
                    ax.set_ylim(0, 100)
                    ax.text(ms[0], 97, f" 100% = {copy / bytes_per[kind]:.0f} {unit[kind]} "
                            f"({bytes_per[kind]} B/item at the measured {copy:.0f} GB/s copy rate)",
                            fontsize=7, va="top")
                bucket_axis(ax, ms)
                ax.set_ylabel(ylabel)
                ax.set_title("key-only" if kind == "keys" else "key-value (32-bit values)", fontsize=10)
                ax.grid(alpha=0.3)
            handles, labels = axes[0][0].get_legend_handles_labels()
            fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4)
            fig.suptitle(f"{title}, n = 2^{lg}, {functor} buckets\n({dev}{when})", fontsize=10)
            fig.tight_layout(rect=(0, 0.1, 1, 1))
            fig.savefig(os.path.join(out, name), dpi=110)
            plt.close(fig)
            written.append((name, f"{title}, n = 2^{lg}"))


def read_meta(results_dir, name):
    path = os.path.join(results_dir, name + ".meta.json")
    return load_json(path) if os.path.exists(path) else None


# The results files plot_all can draw from (NAME.json).
PLOT_PARTS = ("sssp", "sssp_delta", "multisplit")


def plot_all(results_dir, out=None, parts=PLOT_PARTS):
    """Draws every plot the folder's JSON allows, of the parts named (make_benchmarks_doc.py
    --multisplit-from draws multisplit from another folder); returns [(png name, caption)]."""
    if plt is None:
        raise SystemExit("plot_results.py: matplotlib is missing; install it with "
                         "'apt-get install python3-matplotlib' (Debian/Ubuntu package, no pip needed)")
    out = out or os.path.join(results_dir, "plots")
    os.makedirs(out, exist_ok=True)
    written = []
    found = False
    for name, fn in (("sssp", plot_sssp), ("sssp_delta", plot_sweep), ("multisplit", plot_multisplit)):
        if name not in parts:
            continue
        path = os.path.join(results_dir, name + ".json")
        if os.path.exists(path):
            found = True
            fn(load_json(path), read_meta(results_dir, name), out, written)
    if not found:
        files = [p + ".json" for p in parts]
        either = ", ".join(files[:-1]) + " or " + files[-1] if len(files) > 1 else files[0]
        raise SystemExit(f"plot_results.py: no {either} in {results_dir}")
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results_dir", help="a results/<device>/<date>/ folder")
    ap.add_argument("--out", help="where to write the PNGs (default: RESULTS_DIR/plots)")
    args = ap.parse_args()
    if not os.path.isdir(args.results_dir):
        print(f"plot_results.py: {args.results_dir} is not a folder", file=sys.stderr)
        return 2
    out = args.out or os.path.join(args.results_dir, "plots")
    for name, _ in plot_all(args.results_dir, out):
        print(os.path.join(out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
