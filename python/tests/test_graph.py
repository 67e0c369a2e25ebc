"""Building graphs: files, scipy, arrays; bad input raises ValueError."""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import gpu_sssp
from conftest import FIXTURES


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(FIXTURES) if f != "README.md"))
def test_every_fixture_loads(name):
    g = gpu_sssp.Graph.from_file(os.path.join(FIXTURES, name))
    assert g.num_vertices > 0
    d = gpu_sssp.shortest_paths(g, 0, device="cpu")
    assert d.shape == (g.num_vertices,) and d[0] == 0


def test_file_keeps_its_weight_type_and_base():
    g = gpu_sssp.Graph.from_file(os.path.join(FIXTURES, "small_integer_general.mtx"))
    assert g.weight_type == "uint32" and g.id_base == 1
    f = gpu_sssp.Graph.from_file(os.path.join(FIXTURES, "small_real_general.mtx"))
    assert f.weight_type == "float32"
    u = gpu_sssp.Graph.from_file(os.path.join(FIXTURES, "small.gr"), weights="unit")
    d = gpu_sssp.shortest_paths(u, 0, exact=True, device="cpu")
    assert d.max() <= u.num_vertices


def test_bad_file_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n1 x 7\n")
    with pytest.raises(ValueError, match=r"bad\.mtx:4"):
        gpu_sssp.Graph.from_file(bad)


def test_missing_file_and_bad_options(tmp_path):
    with pytest.raises(ValueError, match="nope.gr"):
        gpu_sssp.Graph.from_file(tmp_path / "nope.gr")
    with pytest.raises(ValueError):
        gpu_sssp.Graph.from_file(os.path.join(FIXTURES, "small.gr"), weights="heavy")
    with pytest.raises(ValueError):
        gpu_sssp.Graph.from_file(os.path.join(FIXTURES, "small.gr"), format="xml")


def test_negative_weight_in_file(tmp_path):
    bad = tmp_path / "neg.gr"
    bad.write_text("p sp 2 1\na 1 2 -3\n")
    with pytest.raises(ValueError, match=r"neg\.gr:2"):
        gpu_sssp.Graph.from_file(bad)


def test_from_scipy_keeps_explicit_zeros():
    a = sp.csr_matrix((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([1, 2]))), shape=(3, 3))
    assert a.nnz == 2
    g = gpu_sssp.Graph.from_scipy(a)
    assert g.num_arcs == 2
    assert list(gpu_sssp.shortest_paths(g, 0, device="cpu")) == [0.0, 0.0, 2.0]


def test_from_scipy_any_format_and_undirected():
    a = sp.random(30, 30, density=0.1, random_state=3, format="lil")
    for m in (a, a.tocsc(), a.tocoo(), a.todok(), sp.csr_array(a.tocsr())):
        assert gpu_sssp.Graph.from_scipy(m).num_vertices == 30
    g = gpu_sssp.Graph.from_scipy(a, directed=False)
    assert not g.directed and g.to_scipy().nnz == g.num_arcs


def test_weight_types():
    assert gpu_sssp.Graph.from_edges([0], [1], [2.0]).weight_type == "uint32"   # whole numbers: exact
    assert gpu_sssp.Graph.from_edges([0], [1], [2.5]).weight_type == "float32"
    assert gpu_sssp.Graph.from_edges([0], [1], [2]).weight_type == "uint32"
    assert gpu_sssp.Graph.from_edges([0], [1], [2], weight_type="float32").weight_type == "float32"
    assert gpu_sssp.Graph.from_edges([0], [1], [2.0**40]).weight_type == "float32"  # too wide for uint32
    with pytest.raises(ValueError):
        gpu_sssp.Graph.from_edges([0], [1], [2.5], weight_type="uint32")


@pytest.mark.parametrize("weights,match", [([-1.0], "negative"), ([np.nan], "NaN"), ([np.inf], "infinite"),
                                           (["a"], "integers or floats")])
def test_bad_weights(weights, match):
    with pytest.raises(ValueError, match=match):
        gpu_sssp.Graph.from_edges([0], [1], weights)


def test_bad_shapes_and_ids():
    with pytest.raises(ValueError):
        gpu_sssp.Graph.from_edges([0, 1], [1], [1, 1])
    with pytest.raises(ValueError):
        gpu_sssp.Graph.from_edges([0, 1], [1, 0], [1])
    with pytest.raises(ValueError, match="out of range"):
        gpu_sssp.Graph.from_edges([0, 5], [1, 0], [1, 1], num_vertices=3)
    with pytest.raises(ValueError, match="out of range"):
        gpu_sssp.Graph.from_edges([-1], [0], [1])
    with pytest.raises(ValueError, match="square"):
        gpu_sssp.Graph.from_scipy(sp.csr_matrix((2, 3)))
    with pytest.raises(TypeError):
        gpu_sssp.Graph(42)


def test_duplicates_keep_the_minimum_and_self_loops_drop():
    g = gpu_sssp.Graph.from_edges([0, 0, 1], [1, 1, 1], [5, 3, 1])
    assert g.num_arcs == 1
    assert list(gpu_sssp.shortest_paths(g, 0, device="cpu", exact=True)) == [0, 3]


def test_csr_round_trip():
    a = sp.random(20, 20, density=0.2, random_state=1, format="csr")
    a.data = np.round(a.data * 10) + 1
    g = gpu_sssp.Graph.from_csr(a.indptr, a.indices, a.data)
    assert (g.to_scipy() != a).nnz == 0
