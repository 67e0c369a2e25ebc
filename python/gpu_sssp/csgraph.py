"""scipy.sparse.csgraph drop-in: `from gpu_sssp.csgraph import dijkstra`.

Same signature and results as scipy.sparse.csgraph.dijkstra: float64
distances with inf for unreachable, int32 predecessors with -9999, `limit`,
`min_only`. Whole-numbered weights (what most graphs hold, even as float64)
are solved exactly; other float weights in float32, so distances agree with
scipy's to about 1e-6 relative. Negative or NaN weights raise ValueError
(scipy's Dijkstra would give wrong results for negative ones).
"""
from __future__ import annotations

import numpy as np

from ._graph import Graph
from ._solve import shortest_paths

NULL = -9999  # scipy's "no predecessor"

__all__ = ["dijkstra", "shortest_path", "NULL"]


def _graph_of(csgraph, directed, unweighted):
    import scipy.sparse as sp

    if isinstance(csgraph, Graph):
        return csgraph
    if sp.issparse(csgraph):
        return Graph.from_scipy(csgraph, directed=directed, unweighted=unweighted)
    dense = np.asarray(csgraph)
    if dense.ndim != 2 or dense.shape[0] != dense.shape[1]:
        raise ValueError(f"the graph must be a square matrix, not of shape {dense.shape}")
    if not (np.issubdtype(dense.dtype, np.number) or dense.dtype == np.bool_):
        raise ValueError(f"the graph's entries must be numbers, not {dense.dtype}")
    # A dense matrix's zeros, infinities and NaNs are "no edge", as in scipy.
    with np.errstate(invalid="ignore"):
        edge = (dense != 0) & np.isfinite(dense) if np.issubdtype(dense.dtype, np.floating) else dense != 0
    rows, cols = np.nonzero(edge)
    w = np.ones(rows.size, dtype=np.uint32) if unweighted else dense[rows, cols]
    return Graph.from_edges(rows, cols, w, dense.shape[0], directed)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=np.inf,
             min_only=False):
    """scipy.sparse.csgraph.dijkstra on the GPU (the CPU where none is usable).

    csgraph may also be a gpu_sssp.Graph, which keeps its GPU solver between
    calls (then `directed` and `unweighted` are the graph's own).
    """
    g = _graph_of(csgraph, directed, unweighted)
    n = g.num_vertices
    limit = float(limit)
    if np.isnan(limit) or limit < 0:
        raise ValueError("limit must be >= 0")
    scalar = indices is not None and np.ndim(indices) == 0
    if indices is None:
        idx = np.arange(n, dtype=np.int64)
    else:
        idx = np.atleast_1d(np.asarray(indices))
        if idx.ndim != 1:
            raise ValueError("indices must be a single index or a one-dimensional array")
        idx = idx.astype(np.int64)
        idx = np.where(idx < 0, idx + n, idx)  # negative indices count from the end, as numpy's do
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise ValueError(f"indices out of range 0...{n - 1}")
    if idx.size == 0:
        empty = np.empty((0, n))
        if min_only:
            d = np.full(n, np.inf)
            return (d, np.full(n, NULL, np.int32), np.full(n, NULL, np.int32)) if return_predecessors else d
        return (empty, np.empty((0, n), np.int32)) if return_predecessors else empty
    need_pred = return_predecessors
    res = shortest_paths(g, idx, predecessors=need_pred)
    dist, pred = res if need_pred else (res, None)
    if limit < np.inf:
        beyond = dist > limit
        dist[beyond] = np.inf
        if pred is not None:
            pred[beyond] = -1
    if pred is not None:
        pred = np.where(pred < 0, NULL, pred).astype(np.int32)
    if min_only:
        best = np.argmin(dist, axis=0)
        cols = np.arange(n)
        d = dist[best, cols]
        if not return_predecessors:
            return d
        p = pred[best, cols]
        src = idx[best].astype(np.int32)
        src[np.isinf(d)] = NULL
        p[np.isinf(d)] = NULL
        # A source is its own nearest source and has no predecessor.
        p[idx] = NULL
        src[idx] = idx
        return d, p, src
    if scalar:
        dist = dist[0]
        pred = pred[0] if pred is not None else None
    return (dist, pred) if return_predecessors else dist


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None):
    """scipy.sparse.csgraph.shortest_path for the methods that need
    non-negative weights ('auto', 'D'); the others are refused."""
    if method not in ("auto", "D"):
        raise ValueError(f"gpu_sssp solves Dijkstra's problem only (method 'auto' or 'D'), not {method!r}")
    return dijkstra(csgraph, directed=directed, indices=indices, return_predecessors=return_predecessors,
                    unweighted=unweighted)
