"""gpu_sssp.multisplit against numpy references, on CuPy and PyTorch arrays.

Every test but the host-array ones needs a GPU and the framework; each
skips, naming what is missing.
"""
import numpy as np
import pytest

from conftest import GPU_OK, GPU_WHY
from gpu_sssp import multisplit as ms


class Cupy:
    def __init__(self):
        self.xp = pytest.importorskip("cupy", reason="CuPy is not installed")

    def dev(self, a):
        return self.xp.asarray(a)

    def host(self, a):
        return self.xp.asnumpy(a)

    def is_mine(self, a):
        return isinstance(a, self.xp.ndarray)


class Torch:
    def __init__(self):
        self.torch = pytest.importorskip("torch", reason="PyTorch is not installed")
        if not self.torch.cuda.is_available():
            pytest.skip("PyTorch has no CUDA device")

    def dev(self, a):
        a = np.ascontiguousarray(a)
        if a.dtype == np.uint32:  # torch's uint32 has few kernels: through int64
            return self.torch.from_numpy(a.astype(np.int64)).cuda().to(self.torch.uint32)
        return self.torch.from_numpy(a).cuda()

    def host(self, a):
        if a.dtype == getattr(self.torch, "uint32", None):
            return a.to(self.torch.int64).cpu().numpy().astype(np.uint32)
        return a.cpu().numpy()

    def is_mine(self, a):
        return isinstance(a, self.torch.Tensor) and a.is_cuda


@pytest.fixture(params=["cupy", "torch"])
def fw(request):
    if not GPU_OK:
        pytest.skip(f"needs a GPU: {GPU_WHY}")
    return Cupy() if request.param == "cupy" else Torch()


def reference_buckets(keys, m, bucket, lower=0, width=None, splitters=None, shift=0, num_bits=None):
    k = keys
    if bucket == "identity":
        b = k.astype(np.uint32).astype(np.int64) if k.dtype != np.uint32 else k.astype(np.int64)
    elif bucket == "delta":
        if k.dtype == np.float32:
            # In float32, as the device divides (IEEE, correctly rounded).
            q = (k - np.float32(lower)) / np.float32(width)
            b = np.where(k < np.float32(lower), 0, np.floor(q)).astype(np.int64)
        else:
            kk = k.astype(np.int64)
            b = np.where(kk < lower, 0, (kk - lower) // int(width))
    elif bucket == "range":
        b = np.searchsorted(np.asarray(splitters, dtype=k.dtype), k, side="right").astype(np.int64)
    else:
        nb = num_bits if num_bits is not None else max(1, int(np.ceil(np.log2(m))))
        b = ((k.view(np.uint32).astype(np.int64) >> shift) & ((1 << nb) - 1)).astype(np.int64)
    return np.minimum(b, m - 1)


def reference_split(keys, values, m, **rule):
    b = reference_buckets(keys, m, **rule)
    order = np.argsort(b, kind="stable")
    offsets = np.concatenate([[0], np.cumsum(np.bincount(b, minlength=m))])
    return keys[order], (values[order] if values is not None else None), offsets, np.bincount(b, minlength=m)


def _keys(dtype, n, seed, hi):
    rng = np.random.default_rng(seed)
    if dtype == np.float32:
        return rng.uniform(-5, hi, n).astype(np.float32)
    if dtype == np.int32:
        return rng.integers(-50, hi, n).astype(np.int32)
    return rng.integers(0, hi, n).astype(np.uint32)


RULES = [
    ("identity", np.uint32, 12, dict()),
    ("identity", np.int32, 7, dict()),            # negatives read as uint32: the last bucket
    ("delta", np.uint32, 10, dict(lower=100, width=37)),
    ("delta", np.int32, 9, dict(lower=-20, width=13)),
    ("delta", np.float32, 8, dict(lower=0.5, width=7.25)),
    ("range", np.uint32, 5, dict(splitters=[10, 50, 50, 200])),
    ("range", np.int32, 4, dict(splitters=[-10, 0, 90])),
    ("range", np.float32, 3, dict(splitters=[0.0, 33.3])),
    ("bits", np.uint32, 16, dict(shift=3, num_bits=4)),
    ("bits", np.int32, 8, dict(shift=0)),
]


@pytest.mark.parametrize("n", [1, 1000, 300_000])
@pytest.mark.parametrize("bucket,dtype,m,rule", RULES)
def test_split_and_histogram_match_numpy(fw, n, bucket, dtype, m, rule):
    if isinstance(fw, Torch) and dtype == np.uint32 and not hasattr(fw.torch, "uint32"):
        pytest.skip("this PyTorch has no uint32")
    keys = _keys(dtype, n, n + m, 400)
    want_keys, _, want_off, want_counts = reference_split(keys, None, m, bucket=bucket, **rule)
    d = fw.dev(keys)
    out, offsets = ms.split(d, m, bucket=bucket, **rule)
    assert fw.is_mine(out) and fw.is_mine(offsets)
    np.testing.assert_array_equal(fw.host(out), want_keys)
    np.testing.assert_array_equal(fw.host(offsets).astype(np.int64), want_off)
    counts = ms.histogram(d, m, bucket=bucket, **rule)
    np.testing.assert_array_equal(fw.host(counts).astype(np.int64), want_counts)
    np.testing.assert_array_equal(fw.host(d), keys)  # the input is left alone


@pytest.mark.parametrize("vdtype", [np.int32, np.float32, np.int64, np.float64, np.int16])
def test_split_keys_with_values(fw, vdtype):
    n, m = 50_000, 6
    keys = _keys(np.uint32, n, 5, 600)
    values = (np.arange(n) * 3 - 7).astype(vdtype)
    rule = dict(lower=0, width=100)
    want_k, want_v, want_off, _ = reference_split(keys, values, m, bucket="delta", **rule)
    out_k, out_v, off = ms.split(fw.dev(keys), m, bucket="delta", values=fw.dev(values), **rule)
    assert fw.is_mine(out_v)
    np.testing.assert_array_equal(fw.host(out_k), want_k)
    np.testing.assert_array_equal(fw.host(out_v), want_v)
    np.testing.assert_array_equal(fw.host(off).astype(np.int64), want_off)


def test_splitters_on_the_device_and_empty_keys(fw):
    keys = _keys(np.int32, 5000, 9, 300)
    splitters = np.array([0, 100, 200], np.int32)
    want_k, _, want_off, _ = reference_split(keys, None, 4, bucket="range", splitters=splitters)
    out, off = ms.split(fw.dev(keys), 4, bucket="range", splitters=fw.dev(splitters))
    np.testing.assert_array_equal(fw.host(out), want_k)
    np.testing.assert_array_equal(fw.host(off).astype(np.int64), want_off)
    out, off = ms.split(fw.dev(np.zeros(0, np.int32)), 3, bucket="identity")
    assert out.shape[0] == 0 and list(fw.host(off)) == [0, 0, 0, 0]


def test_bad_input(fw):
    keys = fw.dev(_keys(np.int32, 100, 1, 50))
    fkeys = fw.dev(_keys(np.float32, 100, 1, 50))
    bad = [
        (lambda: ms.split(keys, 0), "num_buckets"),
        (lambda: ms.split(keys, ms.MAX_BUCKETS + 1), "num_buckets"),
        (lambda: ms.split(keys, 2.5), "num_buckets"),
        (lambda: ms.split(keys, 4, bucket="nope"), "bucket"),
        (lambda: ms.split(fkeys, 4, bucket="identity"), "integer keys"),
        (lambda: ms.histogram(fkeys, 4, bucket="bits"), "integer keys"),
        (lambda: ms.split(keys, 4, bucket="delta"), "width"),
        (lambda: ms.split(keys, 4, bucket="delta", width=0), "width"),
        (lambda: ms.split(keys, 4, bucket="delta", width=1.5), "whole number"),
        (lambda: ms.split(keys, 4, bucket="range", splitters=[1, 2]), "splitters"),
        (lambda: ms.split(keys, 3, bucket="range", splitters=[5, 2]), "sorted"),
        (lambda: ms.split(keys, 4, bucket="bits", shift=30, num_bits=4), "bits"),
        (lambda: ms.split(keys, 4, values=fw.dev(np.zeros(5, np.int32))), "values"),
        (lambda: ms.split(keys, 4, values=np.zeros(100, np.int32)), "CuPy or PyTorch"),
        (lambda: ms.split(fw.dev(np.zeros(10, np.float64)), 4, bucket="delta", width=1), "uint32, int32 or float32"),
        (lambda: ms.split(fw.dev(np.zeros(10, np.int64)), 4), "uint32, int32 or float32"),
    ]
    for call, words in bad:
        with pytest.raises(ValueError, match=words):
            call()


def test_host_arrays_are_refused():
    # No GPU or framework needed.
    for call in (lambda: ms.split(np.zeros(10, np.uint32), 4), lambda: ms.histogram([1, 2, 3], 4)):
        with pytest.raises(ValueError, match="CuPy or PyTorch"):
            call()
