"""gpu_sssp.compare: the strategy comparison of `sssp --strategy all`."""
import numpy as np
import pytest

import gpu_sssp
from conftest import GPU_OK, gpu, random_matrix


def _graph(weights="int"):
    a = random_matrix(400, 2400, 11, weights=weights, zero_share=0.05)
    return gpu_sssp.Graph.from_scipy(a)


@pytest.mark.parametrize("weights", ["int", "float"])
def test_cpu_strategies(weights):
    g = _graph(weights)
    rows = gpu_sssp.compare(g, 5, ["delta-stepping", "dijkstra"], runs=3)
    assert [r.strategy for r in rows] == ["delta-stepping", "dijkstra"]
    expect = gpu_sssp.shortest_paths(g, 5, strategy="dijkstra")
    reached = np.isfinite(expect)
    indptr = g.to_csr()[0]
    reached_arcs = int(np.sum(np.diff(indptr)[reached]))
    for r in rows:
        assert isinstance(r, gpu_sssp.StrategyResult)
        assert r.device == "cpu" and r.valid and r.mismatches == 0 and r.validation == "ok"
        assert len(r.solve_ms) == 3 and r.min_ms <= r.median_ms <= r.max_ms
        assert r.median_ms == sorted(r.solve_ms)[1]
        assert r.reached_vertices == int(reached.sum()) and r.reached_arcs == reached_arcs
        assert r.mteps == pytest.approx(reached_arcs / (r.median_ms * 1e3) if r.median_ms > 0 else 0.0)
        assert r.rounds > 0 and r.relaxations > 0
    assert rows[0].delta > 0 and rows[0].delta_rule


def test_all_without_gpu_is_the_cpu_strategies():
    if GPU_OK:
        pytest.skip("a GPU is usable here: test_all_on_gpu covers 'all'")
    rows = gpu_sssp.compare(_graph(), 0, runs=1)
    assert [r.strategy for r in rows] == ["delta-stepping", "dijkstra"]
    with pytest.raises(RuntimeError, match="GPU"):
        gpu_sssp.compare(_graph(), 0, ["near-far"], runs=1)


@gpu
@pytest.mark.parametrize("weights", ["int", "float"])
def test_all_on_gpu(weights):
    rows = gpu_sssp.compare(_graph(weights), 3, runs=2)
    assert [r.strategy for r in rows] == ["near-far", "bucket-sort", "bucket-multisplit", "bellman-ford",
                                          "delta-stepping", "dijkstra"]
    for r in rows:
        assert r.valid, (r.strategy, r.validation)
        assert r.device == ("cpu" if r.strategy in ("delta-stepping", "dijkstra") else "gpu")
        assert r.median_ms > 0 and r.rounds > 0 and r.mteps > 0


def test_bad_arguments():
    g = _graph()
    with pytest.raises(ValueError):
        gpu_sssp.compare(g, 400)
    with pytest.raises(ValueError):
        gpu_sssp.compare(g, [0, 1])
    with pytest.raises(ValueError):
        gpu_sssp.compare(g, 0, runs=0)
    with pytest.raises(ValueError):
        gpu_sssp.compare(g, 0, ["no-such-strategy"])
    with pytest.raises(ValueError):
        gpu_sssp.compare(g, 0, ["all", "dijkstra"])
