"""The NetworkX backend against NetworkX's own results on random graphs."""
import math

import networkx as nx
import pytest

BACKEND = {"backend": "gpu_sssp"}
# NetworkX notes each use of a cached conversion; that is what is wanted here.
nx.config.warnings_to_ignore.add("cache")


def _graphs():
    for seed, directed in [(1, True), (2, False), (3, True)]:
        G = nx.gnp_random_graph(60, 0.06, seed=seed, directed=directed)
        for u, v in G.edges:
            G[u][v]["weight"] = (u * 7 + v * 3 + seed) % 9  # zero weights included
            G[u][v]["cost"] = ((u + 1) * (v + 2) % 13) / 4.0  # float weights
        G.add_node("isolated")
        yield G


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("G", list(_graphs()))
@pytest.mark.parametrize("weight", ["weight", "cost", "missing"])
def test_lengths_match_networkx(G, weight):
    for f in (nx.single_source_dijkstra_path_length, nx.single_source_bellman_ford_path_length):
        assert f(G, 0, weight=weight, **BACKEND) == f(G, 0, weight=weight)
    for cutoff in (None, 3, 7.5):
        assert (nx.single_source_dijkstra_path_length(G, 1, cutoff=cutoff, weight=weight, **BACKEND)
                == nx.single_source_dijkstra_path_length(G, 1, cutoff=cutoff, weight=weight))
        assert (nx.multi_source_dijkstra_path_length(G, {0, 5}, cutoff=cutoff, weight=weight, **BACKEND)
                == nx.multi_source_dijkstra_path_length(G, {0, 5}, cutoff=cutoff, weight=weight))
    assert (dict(nx.all_pairs_dijkstra_path_length(G, weight=weight, **BACKEND))
            == dict(nx.all_pairs_dijkstra_path_length(G, weight=weight)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("G", list(_graphs()))
def test_paths_are_shortest(G):
    dist, paths = nx.single_source_dijkstra(G, 0, **BACKEND)
    assert dist == nx.single_source_dijkstra_path_length(G, 0)
    for v, path in paths.items():
        assert path[0] == 0 and path[-1] == v
        assert math.isclose(nx.path_weight(G, path, "weight"), dist[v])
    target = max(dist, key=dist.get)
    assert nx.dijkstra_path_length(G, 0, target, **BACKEND) == dist[target]
    assert nx.path_weight(G, nx.dijkstra_path(G, 0, target, **BACKEND), "weight") == dist[target]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_errors_and_fallbacks():
    G = nx.path_graph(4, create_using=nx.DiGraph)
    G.add_node(9)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, 42, **BACKEND)
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path_length(G, 0, 9, **BACKEND)
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path(G, 3, 0, **BACKEND)
    with pytest.raises(ValueError):
        nx.multi_source_dijkstra_path_length(G, [], **BACKEND)
    hop = lambda u, v, d: 2  # noqa: E731 - a callable weight runs in NetworkX
    assert nx.single_source_dijkstra_path_length(G, 0, weight=hop, **BACKEND) == {0: 0, 1: 2, 2: 4, 3: 6}
    G.add_edge(1, 2, weight=-1)  # Bellman-Ford's own case runs in NetworkX
    assert nx.single_source_bellman_ford_path_length(G, 0, **BACKEND) == {0: 0, 1: 1, 2: 0, 3: 1}
    M = nx.MultiGraph([(0, 1, {"weight": 5}), (0, 1, {"weight": 2})])
    assert nx.single_source_dijkstra_path_length(M, 0, **BACKEND) == {0: 0, 1: 2}


def test_backend_is_registered():
    assert "gpu_sssp" in nx.utils.backends.backends


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_conversion_is_cached():
    G = nx.path_graph(5)
    nx.single_source_dijkstra_path_length(G, 0, **BACKEND)
    cached = [v for v in G.__networkx_cache__["backends"]["gpu_sssp"].values()]
    assert len(cached) == 1
    nx.dijkstra_path_length(G, 0, 4, **BACKEND)
    assert [v for v in G.__networkx_cache__["backends"]["gpu_sssp"].values()] == cached
    G.add_edge(4, 5)  # a mutation clears NetworkX's cache: the next call converts anew
    assert nx.dijkstra_path_length(G, 0, 5, **BACKEND) == 5
