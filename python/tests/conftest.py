"""Shared helpers: random graphs as scipy matrices, and the GPU marker.

CPU tests never skip. Tests marked `gpu` skip, naming the reason, where no
CUDA device is usable (this machine and CI); the device runs them.
"""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import gpu_sssp

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "datasets", "fixtures")
GPU_OK, GPU_WHY = gpu_sssp.gpu_available()

gpu = pytest.mark.skipif(not GPU_OK, reason=f"needs a GPU: {GPU_WHY}")


def random_matrix(n, m, seed, *, weights="int", zero_share=0.0, hi=100):
    """A random n x n sparse matrix with about m entries (explicit zeros kept)."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, m)
    cols = rng.integers(0, n, m)
    if weights == "int":
        w = rng.integers(1, hi, m).astype(np.float64)
    else:
        w = rng.uniform(0.01, hi, m)
    w[rng.random(m) < zero_share] = 0.0
    a = sp.coo_matrix((w, (rows, cols)), shape=(n, n))
    # scipy's csgraph keeps one entry per (i, j); summed duplicates would be
    # another graph than ours (the minimum), so the generator makes none.
    key = rows.astype(np.int64) * n + cols
    _, first = np.unique(key, return_index=True)
    return sp.csr_matrix((w[first], (rows[first], cols[first])), shape=(n, n))


def assert_tree(dist, pred, matrix, sources):
    """pred is a shortest-path tree of dist: every reached non-source vertex's
    predecessor has an arc to it that is tight."""
    a = matrix.tocsr()
    for row, s in enumerate(np.atleast_1d(sources)):
        d, p = np.atleast_2d(dist)[row], np.atleast_2d(pred)[row]
        for v in range(a.shape[0]):
            if v == s or not np.isfinite(d[v]):
                assert p[v] < 0, (s, v, p[v])
                continue
            u = p[v]
            assert u >= 0, (s, v)
            w = a[u, v]
            assert np.isclose(d[u] + w, d[v], rtol=1e-5), (s, u, v, d[u], w, d[v])
