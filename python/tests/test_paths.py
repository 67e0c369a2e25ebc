"""shortest_paths and solve against scipy on random graphs, on the CPU
(never skipped) and on the GPU (skipped where none is usable)."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import gpu_sssp
from conftest import assert_tree, gpu, random_matrix

CASES = {
    "directed": dict(n=200, m=800, weights="int"),
    "sparse-disconnected": dict(n=300, m=150, weights="int"),
    "zero-weights": dict(n=150, m=600, weights="int", zero_share=0.3),
    "float": dict(n=200, m=900, weights="float"),
    "float-zero": dict(n=100, m=400, weights="float", zero_share=0.2),
}


def _check(case, directed, device, strategy="auto", predecessors=False, seed=0):
    a = random_matrix(seed=seed, **CASES[case])
    g = gpu_sssp.Graph.from_scipy(a, directed=directed)
    sources = [0, 7, a.shape[0] - 1]
    want = csg.dijkstra(a, directed=directed, indices=sources)
    if predecessors:
        got, pred = gpu_sssp.shortest_paths(g, sources, device=device, strategy=strategy, predecessors=True)
        assert directed, "the tree check reads the directed matrix"
        sym = a
        assert_tree(got, pred, sym, sources)
    else:
        got = gpu_sssp.shortest_paths(g, sources, device=device, strategy=strategy)
    assert got.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    rtol = 1e-5 if CASES[case]["weights"] == "float" else 0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-5 if rtol else 0)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("strategy", ["auto", "dijkstra", "delta-stepping"])
def test_cpu_matches_scipy(case, directed, strategy):
    _check(case, directed, "cpu", strategy)


@pytest.mark.parametrize("case", ["directed", "zero-weights", "float"])
def test_cpu_predecessors_form_a_tree(case):
    _check(case, True, "cpu", predecessors=True)
    _check(case, True, "cpu", strategy="delta-stepping", predecessors=True)


@gpu
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("strategy", ["auto", "near-far", "bucket-sort", "bucket-multisplit", "bellman-ford"])
def test_gpu_matches_scipy(case, directed, strategy):
    _check(case, directed, "gpu", strategy)


@gpu
@pytest.mark.parametrize("case", ["directed", "zero-weights", "float"])
def test_gpu_predecessors_form_a_tree(case):
    _check(case, True, "gpu", predecessors=True)


@gpu
def test_gpu_keeps_its_solver_and_batches():
    a = random_matrix(2000, 8000, 5)
    g = gpu_sssp.Graph.from_scipy(a)
    first = gpu_sssp.solve(g, 0, device="gpu")
    again = gpu_sssp.solve(g, 1, device="gpu")
    assert first.device == "gpu" and again.setup_ms <= first.setup_ms
    many = gpu_sssp.solve(g, np.arange(64), device="gpu")
    assert many.batched
    np.testing.assert_array_equal(many.distances, csg.dijkstra(a, indices=np.arange(64)))


@gpu
def test_gpu_contraction_on_a_grid_road():
    # A long path with side chains: road-like, so contract="auto" contracts.
    n = 5000
    src = np.arange(n - 1)
    g = gpu_sssp.Graph.from_edges(src, src + 1, (src % 7) + 1, n, directed=False)
    r = gpu_sssp.solve(g, [0, 2500], device="gpu", contract="on", exact=True)
    assert r.contracted
    cpu = gpu_sssp.shortest_paths(g, [0, 2500], device="cpu", exact=True)
    np.testing.assert_array_equal(r.distances, cpu)


def test_one_vertex_and_no_arcs():
    g = gpu_sssp.Graph.from_edges([], [], [], num_vertices=1)
    assert list(gpu_sssp.shortest_paths(g, 0)) == [0.0]
    e = gpu_sssp.Graph.from_edges([], [], [], num_vertices=3)
    assert list(gpu_sssp.shortest_paths(e, 1, exact=True)) == [-1, 0, -1]


def test_exact_and_targets():
    a = random_matrix(100, 400, 2)
    g = gpu_sssp.Graph.from_scipy(a)
    d = gpu_sssp.shortest_paths(g, [3, 4], targets=[0, 9, 3], exact=True)
    want = csg.dijkstra(a, indices=[3, 4])[:, [0, 9, 3]]
    assert d.dtype == np.int64
    np.testing.assert_array_equal(np.where(d < 0, np.inf, d), want)
    f = gpu_sssp.Graph.from_edges([0], [1], [0.5])
    with pytest.raises(ValueError, match="integer weights"):
        gpu_sssp.shortest_paths(f, 0, exact=True)


def test_solve_reports():
    g = gpu_sssp.Graph.from_scipy(random_matrix(100, 400, 3))
    r = gpu_sssp.solve(g, [0, 1])
    assert isinstance(r, gpu_sssp.SolveReport)
    assert r.distances.shape == (2, 100) and r.strategy and r.strategy_reason and r.device in ("cpu", "gpu")
    assert len(r.relaxations) == 2 and r.total_ms >= 0


def test_bad_solve_arguments():
    g = gpu_sssp.Graph.from_edges([0, 1], [1, 2], [1, 1])
    for bad in (dict(sources=3), dict(sources=-1), dict(sources=[[0]])):
        with pytest.raises(ValueError):
            gpu_sssp.shortest_paths(g, **bad)
    with pytest.raises(ValueError, match="strategy"):
        gpu_sssp.shortest_paths(g, 0, strategy="fastest")
    for delta in (0, -1.0, np.nan, np.inf, "wide"):
        with pytest.raises(ValueError, match="delta"):
            gpu_sssp.shortest_paths(g, 0, delta=delta)
    with pytest.raises(ValueError):
        gpu_sssp.shortest_paths(g, 0, device="tpu")
    with pytest.raises(ValueError, match="targets"):
        gpu_sssp.shortest_paths(g, 0, targets=[7])
    with pytest.raises(TypeError):
        gpu_sssp.shortest_paths(sp.eye(3), 0)


@pytest.mark.skipif(gpu_sssp.gpu_available()[0], reason="a GPU is usable here: no fallback to warn about")
def test_cpu_fallback_warns_once():
    import gpu_sssp._solve as s

    s._warned_cpu = False
    g = gpu_sssp.Graph.from_edges([0], [1], [1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gpu_sssp.shortest_paths(g, 0)
        gpu_sssp.shortest_paths(g, 0)
    assert len([w for w in caught if "no usable GPU" in str(w.message)]) == 1
    with pytest.raises(RuntimeError, match="no usable GPU"):
        gpu_sssp.shortest_paths(g, 0, device="gpu")
