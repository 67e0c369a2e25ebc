"""Graph.from_device_csr: CuPy and PyTorch CUDA arrays through DLPack.

Each test runs once per framework and skips, naming why, where that
framework or a GPU is missing. The bad-input cases need a framework's
device arrays too (host arrays are one of them and run everywhere).
"""
import numpy as np
import pytest
import scipy.sparse as sp

import gpu_sssp
from conftest import GPU_OK, GPU_WHY, random_matrix


def _cupy():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    return cupy


def _torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    return torch


def _require_gpu():
    if not GPU_OK:
        pytest.skip(f"needs a GPU: {GPU_WHY}")


@pytest.fixture(params=["cupy", "torch"])
def to_device(request):
    """A function numpy array -> the framework's device array."""
    _require_gpu()
    if request.param == "cupy":
        cupy = _cupy()
        return lambda a: cupy.asarray(a)
    torch = _torch()
    return lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda()


@pytest.mark.parametrize("weights", ["int", "float"])
@pytest.mark.parametrize("seed", [1, 2])
def test_round_trip_matches_from_csr(to_device, weights, seed):
    a = random_matrix(300, 1500, seed, weights=weights, zero_share=0.1)
    host = gpu_sssp.Graph.from_csr(a.indptr, a.indices, a.data)
    dev = gpu_sssp.Graph.from_device_csr(to_device(a.indptr.astype(np.int64)), to_device(a.indices.astype(np.int32)),
                                         to_device(a.data))
    assert dev.on_device and not host.on_device
    assert dev.num_vertices == host.num_vertices == 300
    assert dev.weight_type == host.weight_type == ("uint32" if weights == "int" else "float32")
    sources = [0, 7, 299]
    expect = gpu_sssp.shortest_paths(host, sources, strategy="near-far", contract="off")
    for strategy in ("auto", "near-far", "bucket-sort", "bucket-multisplit", "bellman-ford"):
        got = gpu_sssp.shortest_paths(dev, sources, strategy=strategy)
        np.testing.assert_allclose(got, expect, rtol=1e-6, err_msg=strategy)
    # Predecessors build a second solver from the first one's device copy.
    d, p = gpu_sssp.shortest_paths(dev, 7, predecessors=True)
    np.testing.assert_allclose(d, expect[1], rtol=1e-6)
    reached = np.isfinite(d) & (np.arange(300) != 7)
    assert np.all(p[reached] >= 0) and np.all(p[~reached] == -1)
    r = gpu_sssp.solve(dev, 0)
    assert r.device == "gpu" and not r.contracted and "device graph" in r.strategy_reason


def test_round_trip_dtypes_and_empty(to_device):
    # uint32 ids/uint64-like offsets from int64, bool weights, no arcs.
    a = random_matrix(50, 200, 3)
    dev = gpu_sssp.Graph.from_device_csr(to_device(a.indptr.astype(np.int64)), to_device(a.indices.astype(np.int64)),
                                         to_device(a.data.astype(np.float64)), num_vertices=50)
    host = gpu_sssp.Graph.from_csr(a.indptr, a.indices, a.data)
    np.testing.assert_array_equal(gpu_sssp.shortest_paths(dev, 3, exact=True),
                                  gpu_sssp.shortest_paths(host, 3, exact=True, contract="off"))
    empty = gpu_sssp.Graph.from_device_csr(to_device(np.zeros(4, np.int64)), to_device(np.zeros(0, np.int32)),
                                           to_device(np.zeros(0, np.float32)))
    d = gpu_sssp.shortest_paths(empty, 1)
    assert d[1] == 0 and np.all(np.isinf(np.delete(d, 1)))


def _csr(to_device, offsets, targets, weights, **kw):
    return gpu_sssp.Graph.from_device_csr(to_device(np.asarray(offsets)), to_device(np.asarray(targets)),
                                          to_device(np.asarray(weights)), **kw)


def test_bad_input_raises_value_error(to_device):
    ok = dict(offsets=np.array([0, 1, 2], np.int64), targets=np.array([1, 0], np.int32),
              weights=np.array([1, 2], np.int32))
    _csr(to_device, **ok)  # the good one builds
    cases = [
        (dict(ok, weights=np.array([1, -2], np.int32)), "negative"),
        (dict(ok, weights=np.array([1.0, np.nan], np.float32)), "NaN"),
        (dict(ok, weights=np.array([1.0, np.inf], np.float32)), "infinite"),
        (dict(ok, targets=np.array([1, 2], np.int32)), "out of range"),
        (dict(ok, targets=np.array([1, -1], np.int32)), "out of range"),
        (dict(ok, targets=np.array([1.0, 0.0], np.float32)), "integer"),
        (dict(ok, offsets=np.array([0.0, 1.0, 2.0])), "integers"),
        (dict(ok, weights=np.array([1, 2, 3], np.int32)), "entries"),
        # Checked on the device (summarize_device_csr): offsets that
        # decrease, do not start at 0, or do not end at the arc count.
        (dict(ok, offsets=np.array([0, 2, 1], np.int64)), "offsets"),
        (dict(ok, offsets=np.array([1, 1, 2], np.int64)), "offsets"),
        (dict(ok, offsets=np.array([0, 1, 1], np.int64)), "offsets"),
    ]
    for kw, words in cases:
        with pytest.raises(ValueError, match=words):
            _csr(to_device, **kw)
    with pytest.raises(ValueError, match="num_vertices"):
        _csr(to_device, **ok, num_vertices=3)
    with pytest.raises(ValueError, match="one-dimensional"):
        _csr(to_device, np.zeros((2, 2), np.int64), ok["targets"], ok["weights"])
    g = _csr(to_device, **ok)
    with pytest.raises(ValueError, match="GPU only"):
        gpu_sssp.shortest_paths(g, 0, device="cpu")
    with pytest.raises(ValueError, match="host copy"):
        g.to_csr()
    with pytest.raises(ValueError, match="host copy"):
        gpu_sssp.compare(g, 0)


def test_host_arrays_are_refused():
    # No GPU or framework needed: numpy arrays and lists never reach C++.
    a = random_matrix(10, 30, 4)
    with pytest.raises(ValueError, match="CuPy or PyTorch"):
        gpu_sssp.Graph.from_device_csr(a.indptr, a.indices, a.data)
    with pytest.raises(ValueError, match="CuPy or PyTorch"):
        gpu_sssp.Graph.from_device_csr([0, 0], [], [])


def test_torch_host_tensors_are_refused():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    with pytest.raises(ValueError, match="host memory"):
        gpu_sssp.Graph.from_device_csr(torch.zeros(2, dtype=torch.int64), torch.zeros(0, dtype=torch.int32),
                                       torch.zeros(0))


def test_mixed_frameworks_are_refused():
    _require_gpu()
    cupy = _cupy()
    torch = _torch()
    with pytest.raises(ValueError, match="torch"):
        gpu_sssp.Graph.from_device_csr(cupy.zeros(2, dtype=cupy.int64), torch.zeros(0, dtype=torch.int32).cuda(),
                                       cupy.zeros(0, dtype=cupy.float32))
