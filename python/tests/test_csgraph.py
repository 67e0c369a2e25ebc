"""gpu_sssp.csgraph.dijkstra against scipy.sparse.csgraph.dijkstra's own results."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

from gpu_sssp import csgraph as gcs
from conftest import assert_tree, random_matrix


def _same(got, want):
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weights", ["int", "float"])
def test_matches_scipy(seed, directed, weights):
    a = random_matrix(120, 400, seed, weights=weights, zero_share=0.1)
    for indices in (None, 5, [1, 2, 3], np.array([0, 119])):
        _same(gcs.dijkstra(a, directed=directed, indices=indices),
              csg.dijkstra(a, directed=directed, indices=indices))


def test_predecessors():
    a = random_matrix(100, 500, 4)
    d, p = gcs.dijkstra(a, indices=[0, 3], return_predecessors=True)
    wd, wp = csg.dijkstra(a, indices=[0, 3], return_predecessors=True)
    _same(d, wd)
    assert p.dtype == wp.dtype and p.shape == wp.shape
    np.testing.assert_array_equal(p == -9999, wp == -9999)
    assert_tree(d, np.where(p == -9999, -1, p), a, [0, 3])


def test_unweighted_and_limit():
    a = random_matrix(150, 600, 5)
    _same(gcs.dijkstra(a, unweighted=True), csg.dijkstra(a, unweighted=True))
    d, p = gcs.dijkstra(a, indices=0, limit=40, return_predecessors=True)
    wd, wp = csg.dijkstra(a, indices=0, limit=40, return_predecessors=True)
    _same(d, wd)
    np.testing.assert_array_equal(p == -9999, wp == -9999)
    with pytest.raises(ValueError):
        gcs.dijkstra(a, limit=-1)


def test_min_only():
    a = random_matrix(150, 500, 6)
    idx = [0, 10, 20]
    _same(gcs.dijkstra(a, indices=idx, min_only=True), csg.dijkstra(a, indices=idx, min_only=True))
    d, p, s = gcs.dijkstra(a, indices=idx, min_only=True, return_predecessors=True)
    wd, wp, ws = csg.dijkstra(a, indices=idx, min_only=True, return_predecessors=True)
    _same(d, wd)
    np.testing.assert_array_equal(s == -9999, ws == -9999)
    np.testing.assert_array_equal(p == -9999, wp == -9999)
    full = csg.dijkstra(a, indices=idx)
    for v in np.flatnonzero(s >= 0):  # each vertex's named source is one of its nearest
        assert full[idx.index(s[v]), v] == wd[v]


def test_dense_input_zeros_are_no_edge():
    a = random_matrix(40, 200, 7).toarray()
    a[a == 0] = 0
    _same(gcs.dijkstra(a), csg.dijkstra(a))
    b = a.copy()
    b[b > 50] = np.inf
    _same(gcs.dijkstra(b, directed=False), csg.dijkstra(b, directed=False))


def test_edge_cases_like_scipy():
    one = sp.csr_matrix((1, 1))
    _same(gcs.dijkstra(one), csg.dijkstra(one))
    a = random_matrix(10, 30, 8)
    _same(gcs.dijkstra(a, indices=-1), csg.dijkstra(a, indices=-1))
    with pytest.raises(ValueError):
        gcs.dijkstra(a, indices=10)
    with pytest.raises(ValueError):
        gcs.dijkstra(sp.csr_matrix((2, 3)))
    neg = sp.csr_matrix(np.array([[0, -1.0], [0, 0]]))
    with pytest.raises(ValueError, match="negative"):
        gcs.dijkstra(neg)
    _same(gcs.shortest_path(a, indices=[1]), csg.shortest_path(a, indices=[1]))
