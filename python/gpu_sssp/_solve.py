"""shortest_paths and solve: distances as numpy arrays, and the report."""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import List, Optional

import numpy as np

from . import _core
from ._graph import Graph, _ids

_U64_MAX = np.iinfo(np.uint64).max
_NO_VERTEX = np.iinfo(np.uint32).max
_warned_cpu = False


def gpu_available():
    """(True, "") where a CUDA device can be used, else (False, why not)."""
    return _core.gpu_available()


@dataclass
class SolveReport:
    """What a solve did: distances (one row per source) and how they were found."""

    distances: np.ndarray
    predecessors: Optional[np.ndarray]
    sources: np.ndarray
    strategy: str               # what ran: near-far, bellman-ford, ..., delta-stepping, dijkstra
    strategy_reason: str        # why auto picked it (the graph's statistics), or "asked for"
    device: str                 # "gpu" or "cpu"
    device_description: str
    fallback_reason: str        # why the CPU ran instead of the GPU ("" where the GPU ran)
    delta: float
    delta_rule: str
    contracted: bool            # solved over the chain contraction's core
    contraction_reason: str
    batched: bool               # the sources shared launches (GPU) or threads (CPU)
    batch_ms: float
    setup_ms: float             # solver upload, contraction and auto choices made by this call
    total_ms: float             # the whole call in C++
    solve_ms: List[float] = field(default_factory=list)  # per source (0 in a GPU batch: see batch_ms)
    relaxations: List[int] = field(default_factory=list)
    iterations: List[int] = field(default_factory=list)


def _check_graph(graph):
    if not isinstance(graph, Graph):
        raise TypeError(f"expected a gpu_sssp.Graph, not {type(graph).__name__}")


def _delta_value(delta):
    if isinstance(delta, str):
        if delta != "auto":
            raise ValueError(f"delta must be 'auto' or a positive number, not {delta!r}")
        return 0.0
    d = float(delta)
    if not (d > 0 and np.isfinite(d)):
        raise ValueError(f"delta must be positive and finite, not {delta!r}")
    return d


def _run(graph, sources, strategy, delta, predecessors, device, contract):
    global _warned_cpu
    _check_graph(graph)
    scalar = np.ndim(sources) == 0
    src = _ids("sources", np.atleast_1d(sources), graph.num_vertices)
    out = _core.solve(graph._g, src, str(strategy), _delta_value(delta), bool(predecessors), str(device), str(contract))
    if out["fallback_reason"] and not _warned_cpu:
        _warned_cpu = True
        warnings.warn(f"gpu_sssp: no usable GPU ({out['fallback_reason']}); solving on the CPU", RuntimeWarning,
                      stacklevel=3)
    return out, src, scalar


def _float_distances(raw):
    if raw.dtype == np.uint64:
        d = raw.astype(np.float64)
        d[raw == _U64_MAX] = np.inf
        return d
    return raw.astype(np.float64)


def _exact_distances(raw):
    if raw.dtype != np.uint64:
        raise ValueError("exact=True needs integer weights (this graph's are float32)")
    unreachable = raw == _U64_MAX
    if np.any(raw[~unreachable] > np.iinfo(np.int64).max):
        raise OverflowError("a distance does not fit int64")
    d = raw.astype(np.int64)
    d[unreachable] = -1
    return d


def _predecessors(raw):
    p = raw.astype(np.int64)
    p[raw == _NO_VERTEX] = -1
    return p


def _select(a, targets, n):
    if targets is None:
        return a
    return a[:, _ids("targets", np.atleast_1d(targets), n).astype(np.int64)]


def shortest_paths(graph, sources, *, targets=None, predecessors=False, strategy="auto", delta="auto",
                   exact=False, device="auto", contract="auto"):
    """Distances from each source: a (sources x vertices) float64 array,
    inf where unreachable (a 1-D row for a single int source).

    targets: only these columns (the sources x targets table).
    predecessors=True: also returns a same-shaped int64 array of each
    vertex's predecessor on a shortest path (-1 for the source and
    unreachable vertices); it covers every vertex, whatever targets says.
    exact=True: int64 distances with -1 for unreachable (integer weights).
    strategy: "auto", "near-far", "bucket-sort", "bucket-multisplit",
    "bellman-ford" (GPU), "delta-stepping", "dijkstra" (CPU).
    device: "auto" (the GPU where usable), "gpu" or "cpu".
    contract: "auto" (road-like integer graphs), "on", "off".
    """
    out, src, scalar = _run(graph, sources, strategy, delta, predecessors, device, contract)
    raw = out["distances"]
    d = _exact_distances(raw) if exact else _float_distances(raw)
    d = _select(d, targets, graph.num_vertices)
    if scalar:
        d = d[0]
    if not predecessors:
        return d
    p = _predecessors(out["predecessors"])
    return d, (p[0] if scalar else p)


def solve(graph, sources, *, predecessors=False, strategy="auto", delta="auto", exact=False, device="auto",
          contract="auto") -> SolveReport:
    """shortest_paths's solve, with the report: which strategy ran and why,
    the delta and its rule, the device, times and counters per source."""
    out, src, _ = _run(graph, sources, strategy, delta, predecessors, device, contract)
    raw = out["distances"]
    per = out["per_source"]
    return SolveReport(
        distances=_exact_distances(raw) if exact else _float_distances(raw),
        predecessors=_predecessors(out["predecessors"]) if predecessors else None,
        sources=src.astype(np.int64),
        strategy=out["strategy"], strategy_reason=out["strategy_reason"], device=out["device"],
        device_description=out["device_description"], fallback_reason=out["fallback_reason"],
        delta=out["delta"], delta_rule=out["delta_rule"], contracted=out["contracted"],
        contraction_reason=out["contraction_reason"], batched=out["batched"], batch_ms=out["batch_ms"],
        setup_ms=out["setup_ms"], total_ms=out["total_ms"],
        solve_ms=[e["solve_ms"] for e in per], relaxations=[e["relaxations"] for e in per],
        iterations=[e["iterations"] for e in per])


@dataclass
class StrategyResult:
    """One row of compare(): what `sssp --strategy all --validate` prints per strategy."""

    strategy: str               # what ran (near-far, ..., delta-stepping, dijkstra)
    device: str                 # "gpu" or "cpu"
    median_ms: float            # over the timed runs (solve only: CUDA events on the GPU)
    min_ms: float
    max_ms: float
    mteps: float                # arcs leaving reached vertices / median time / 1e6
    rounds: int                 # relax rounds (GPU) or phases (CPU)
    relaxations: int
    reached_vertices: int
    reached_arcs: int
    delta: float
    delta_rule: str
    contracted: bool
    valid: bool                 # distances equal Dijkstra's (float weights: graph/verify.hpp's tolerance)
    mismatches: int
    validation: str             # "ok" or the first mismatching vertices
    strategy_reason: str
    solve_ms: List[float] = field(default_factory=list)  # every timed run


def compare(graph, source, strategies="all", *, runs=5, delta="auto", contract="auto") -> List[StrategyResult]:
    """Every strategy from one source, as `sssp --strategy all --validate`:
    each solved once untimed (solver, contraction and auto choices built),
    then `runs` times through solve()'s own path; times, MTEPS, rounds, and
    the distances checked against Dijkstra.

    strategies: "all" (the GPU's near-far, bucket-sort, bucket-multisplit,
    bellman-ford where a GPU is usable, then the CPU's delta-stepping and
    dijkstra) or a list of names; a GPU strategy without a usable GPU raises
    RuntimeError. Host graphs only (from_device_csr graphs: ValueError).
    """
    _check_graph(graph)
    if isinstance(strategies, str):
        names = [] if strategies == "all" else [strategies]
    else:
        names = [str(s) for s in strategies]
        if "all" in names:
            raise ValueError("'all' cannot be combined with other strategies")
    runs = int(runs)
    if runs < 1:
        raise ValueError(f"runs must be at least 1, not {runs}")
    src = _ids("source", np.atleast_1d(source), graph.num_vertices)
    if np.ndim(source) != 0 or src.size != 1:
        raise ValueError("compare takes one source")
    rows = _core.compare(graph._g, int(src[0]), names, runs, _delta_value(delta), str(contract))
    return [StrategyResult(
        strategy=r["strategy"], device=r["device"], median_ms=r["median_ms"], min_ms=r["min_ms"],
        max_ms=r["max_ms"], mteps=r["mteps"], rounds=r["rounds"], relaxations=r["relaxations"],
        reached_vertices=r["reached_vertices"], reached_arcs=r["reached_arcs"], delta=r["delta"],
        delta_rule=r["delta_rule"], contracted=r["contracted"], valid=r["mismatches"] == 0,
        mismatches=r["mismatches"], validation=r["validation"], strategy_reason=r["strategy_reason"],
        solve_ms=list(r["solve_ms"])) for r in rows]
