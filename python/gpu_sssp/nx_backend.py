"""NetworkX backend "gpu_sssp" (the networkx.backends entry point).

    nx.single_source_dijkstra_path_length(G, 0, backend="gpu_sssp")

Shortest-path functions run on gpu_sssp's solver (the GPU where usable);
NetworkX keeps a graph's conversion in its cache, so repeated calls do not
rebuild it. A callable `weight`, or negative weights for Bellman-Ford, run in
NetworkX itself on the original graph. `cutoff` filters the full result.
"""
from __future__ import annotations

import numpy as np

from ._graph import Graph
from ._solve import shortest_paths

BACKEND = "gpu_sssp"


def get_info():
    """What NetworkX's backend_info entry point reads."""
    return {
        "backend_name": BACKEND,
        "project": "gpu-sssp",
        "package": "gpu_sssp",
        "url": "",
        "short_summary": "GPU delta-stepping shortest paths",
        "functions": {name: {} for name in _FUNCTIONS},
    }


class NxGraph:
    """A NetworkX graph as gpu_sssp sees it: the node order and one solver
    graph per weight attribute (built when first asked for). Anything else
    is read from the original graph, so NetworkX's own functions accept it."""

    __networkx_backend__ = BACKEND

    def __init__(self, G):
        self._nx = G
        self._nodes = list(G)
        self._index = {v: i for i, v in enumerate(self._nodes)}
        self._by_weight = {}

    def __getattr__(self, name):
        if name.startswith("__") and name != "__networkx_cache__":
            raise AttributeError(name)
        return getattr(self._nx, name)

    def __contains__(self, v):
        return v in self._index

    def __len__(self):
        return len(self._nodes)

    def __iter__(self):
        return iter(self._nodes)

    def solver_graph(self, weight):
        """(gpu_sssp.Graph, whether the weights are floats) for this attribute."""
        if weight not in self._by_weight:
            G, idx = self._nx, self._index
            m = G.number_of_edges()
            src = np.empty(m, dtype=np.int64)
            dst = np.empty(m, dtype=np.int64)
            w = [None] * m
            for k, (u, v, d) in enumerate(G.edges(data=True)):
                src[k], dst[k] = idx[u], idx[v]
                w[k] = d.get(weight, 1) if weight is not None else 1
            w = np.asarray(w) if m else np.zeros(0, dtype=np.uint32)
            is_float = w.dtype.kind == "f"
            # Multigraph parallel edges: the cheapest one, as NetworkX's Dijkstra takes.
            g = Graph.from_edges(src, dst, w, len(self._nodes), directed=G.is_directed())
            self._by_weight[weight] = (g, is_float)
        return self._by_weight[weight]


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                    preserve_graph_attrs=False, name=None, graph_name=None):
    return G if isinstance(G, NxGraph) else NxGraph(G)


def convert_to_nx(obj, *, name=None):
    return obj._nx if isinstance(obj, NxGraph) else obj


def _wrap(G):
    return G if isinstance(G, NxGraph) else NxGraph(G)


def _nx():
    import networkx

    return networkx


def _check_source(G, s):
    if s not in G:
        raise _nx().NodeNotFound(f"Node {s} not found in graph")


def _value(x, is_float):
    return float(x) if is_float else int(x)


def _solve(G, sources, weight, predecessors=False):
    g, is_float = G.solver_graph(weight)
    idx = [G._index[s] for s in sources]
    if g.weight_type == "uint32":
        res = shortest_paths(g, idx, exact=True, predecessors=predecessors)
    else:
        res = shortest_paths(g, idx, predecessors=predecessors)
    return res, g.weight_type == "uint32", is_float


def _lengths(G, row, exact, is_float, cutoff):
    reached = np.flatnonzero(row >= 0) if exact else np.flatnonzero(np.isfinite(row))
    if cutoff is not None:
        reached = reached[row[reached] <= cutoff]
    order = reached[np.argsort(row[reached], kind="stable")]
    nodes = G._nodes
    return {nodes[i]: _value(row[i], is_float) for i in order}


def _paths(G, pred_row, source_index, keep):
    """Every kept vertex's path from the source, walking the tree downwards."""
    nodes = G._nodes
    children = {}
    for v in np.flatnonzero(pred_row >= 0):
        children.setdefault(int(pred_row[v]), []).append(int(v))
    paths = {nodes[source_index]: [nodes[source_index]]}
    stack = [source_index]
    while stack:
        u = stack.pop()
        for v in children.get(u, ()):
            paths[nodes[v]] = paths[nodes[u]] + [nodes[v]]
            stack.append(v)
    return {v: paths[v] for v in keep}


def can_run(name, args, kwargs):
    # A callable weight is a Python function per edge: NetworkX runs it
    # (each function below falls back to NetworkX's own code for it).
    return name in _FUNCTIONS


def should_run(name, args, kwargs):
    return True


def _dispatch(name, impl, G, *args, weight="weight", **kwargs):
    G = _wrap(G)
    if not callable(weight):
        try:
            G.solver_graph(weight)
        except ValueError:
            # Negative or non-numeric weights: NetworkX's own semantics
            # (Bellman-Ford's negative weights and cycle check, Dijkstra's
            # "contradictory paths").
            pass
        else:
            return impl(G, *args, weight=weight, **kwargs)
    return getattr(_nx(), name).orig_func(convert_to_nx(G), *args, weight=weight, **kwargs)


def _sssp_lengths(G, source, cutoff=None, weight="weight"):
    _check_source(G, source)
    d, exact, is_float = _solve(G, [source], weight)
    return _lengths(G, d[0], exact, is_float, cutoff)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    return _dispatch("single_source_dijkstra_path_length", _sssp_lengths, G, source, cutoff=cutoff, weight=weight)


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    def impl(G, source, weight):
        if source not in G:
            raise _nx().NodeNotFound(f"Source {source} not in G")
        return _sssp_lengths(G, source, weight=weight)

    return _dispatch("single_source_bellman_ford_path_length", impl, G, source, weight=weight)


def _sssp_paths(G, source, target=None, cutoff=None, weight="weight"):
    _check_source(G, source)
    (d, p), exact, is_float = _solve(G, [source], weight, predecessors=True)
    lengths = _lengths(G, d[0], exact, is_float, cutoff)
    if target is None:
        return lengths, _paths(G, p[0], G._index[source], lengths)
    if target not in lengths:
        raise _nx().NetworkXNoPath(f"No path to {target}.")
    return lengths[target], _paths(G, p[0], G._index[source], [target])[target]


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    return _dispatch("single_source_dijkstra", _sssp_paths, G, source, target=target, cutoff=cutoff, weight=weight)


def dijkstra_path_length(G, source, target, weight="weight"):
    def impl(G, source, target, weight):
        _check_source(G, source)
        if source == target:
            return 0
        if target not in G:
            raise _nx().NetworkXNoPath(f"Node {target} not reachable from {source}")
        d, exact, is_float = _solve(G, [source], weight)
        x = d[0][G._index[target]]
        if (exact and x < 0) or (not exact and not np.isfinite(x)):
            raise _nx().NetworkXNoPath(f"Node {target} not reachable from {source}")
        return _value(x, is_float)

    return _dispatch("dijkstra_path_length", impl, G, source, target, weight=weight)


def dijkstra_path(G, source, target, weight="weight"):
    def impl(G, source, target, weight):
        return _sssp_paths(G, source, target=target, weight=weight)[1]

    return _dispatch("dijkstra_path", impl, G, source, target, weight=weight)


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    sources = list(sources)
    if not sources:
        raise ValueError("sources must not be empty")

    def impl(G, sources, cutoff, weight):
        for s in sources:
            _check_source(G, s)
        d, exact, is_float = _solve(G, sources, weight)
        if exact:
            big = np.iinfo(np.int64).max
            d = np.where(d < 0, big, d).min(axis=0)
            d = np.where(d == big, -1, d)
        else:
            d = d.min(axis=0)
        return _lengths(G, d, exact, is_float, cutoff)

    return _dispatch("multi_source_dijkstra_path_length", impl, G, sources, cutoff=cutoff, weight=weight)


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    def impl(G, cutoff, weight):
        nodes = G._nodes
        # Sources in blocks, so the distance rows of a large graph are not
        # all held at once; each block is one batched solve.
        block = max(1, min(len(nodes), (1 << 26) // max(1, len(nodes))))
        for start in range(0, len(nodes), block):
            part = nodes[start:start + block]
            d, exact, is_float = _solve(G, part, weight)
            for k, s in enumerate(part):
                yield s, _lengths(G, d[k], exact, is_float, cutoff)

    return _dispatch("all_pairs_dijkstra_path_length", impl, G, cutoff=cutoff, weight=weight)


_FUNCTIONS = [
    "single_source_dijkstra_path_length", "single_source_dijkstra", "dijkstra_path_length", "dijkstra_path",
    "multi_source_dijkstra_path_length", "all_pairs_dijkstra_path_length", "single_source_bellman_ford_path_length",
]


class _Interface:
    """The object the networkx.backends entry point names."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)


for _name in _FUNCTIONS:
    setattr(_Interface, _name, staticmethod(globals()[_name]))

backend_interface = _Interface()
