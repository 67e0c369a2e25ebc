"""The shared real graphs (../shared/datasets or $SSSP_DATASETS) against
their reference distances; skipped, saying so, where they are absent."""
import glob
import os

import numpy as np
import pytest

import gpu_sssp
from conftest import gpu

ROOT = os.environ.get("SSSP_DATASETS") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "datasets")
GRAPHS = sorted(p for p in glob.glob(os.path.join(ROOT, "road", "*.gr")) + glob.glob(os.path.join(ROOT, "road", "*.mtx"))
                if os.path.exists(os.path.splitext(p)[0] + ".dist"))


def _reference(path):
    dist = np.loadtxt(os.path.splitext(path)[0] + ".dist", dtype=np.int64, comments="#")
    return dist[np.argsort(dist[:, 0]), 1]


@pytest.mark.skipif(not GRAPHS, reason=f"no shared road graphs with .dist files under {ROOT}")
@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=gpu)])
def test_road_graphs_match_their_reference(device):
    for path in GRAPHS[:4]:
        g = gpu_sssp.Graph.from_file(path)
        if g.weight_type != "uint32":
            continue
        want = _reference(path)
        got = gpu_sssp.shortest_paths(g, 0, exact=True, device=device)  # source: vertex 1 of the file
        np.testing.assert_array_equal(got, want, err_msg=path)
