"""Multisplit on GPU arrays: the project's multisplit library from Python.

    import cupy, gpu_sssp.multisplit as ms
    keys = cupy.random.randint(0, 1000, 10**6, dtype=cupy.uint32)
    out, offsets = ms.split(keys, 10, bucket="delta", width=100)
    counts = ms.histogram(keys, 10, bucket="delta", width=100)

Keys are CuPy arrays or PyTorch CUDA tensors (DLPack) of uint32, int32 or
float32; results are arrays of the same framework on the same device,
computed on its current stream. A split is stable: inside a bucket the keys
(and values) keep their input order; offsets[b] is where bucket b starts and
offsets[num_buckets] = len(keys) (uint32 on CuPy, int32 on PyTorch).

Bucket rules (every id past the last bucket goes to the last one):
  "identity"  bucket = the key (uint32, int32 keys; int32 read as uint32);
  "delta"     bucket = floor((key - lower) / width), keys below lower in 0;
  "range"     bucket = number of splitters <= key (num_buckets - 1 sorted
              splitters: a sequence or a device array);
  "bits"      bucket = num_bits bits of the key from bit `shift` (uint32,
              int32 keys; num_bits defaults to ceil(log2(num_buckets))).
Bad input (a host array, a dtype or rule without kernels, a bucket count
outside 1 .. 65536, bad rule parameters) raises ValueError.
"""
from __future__ import annotations

import math

from . import _core
from . import _device as dv

MAX_BUCKETS = 65536
_KEY_DTYPES = ("uint32", "int32", "float32")
_RULES = ("identity", "delta", "range", "bits")


def _prepare(keys, num_buckets, bucket, lower, width, splitters, shift, num_bits):
    fw = dv.require_device("keys", keys)
    name = dv.dtype_name(keys)
    if name not in _KEY_DTYPES:
        raise ValueError(f"keys must be uint32, int32 or float32, not {name}")
    if isinstance(num_buckets, bool) or not isinstance(num_buckets, int) or not 1 <= num_buckets <= MAX_BUCKETS:
        raise ValueError(f"num_buckets must be an integer in 1 .. {MAX_BUCKETS}, not {num_buckets!r}")
    if keys.shape[0] > 2**31 - 1:
        raise ValueError("at most 2^31 - 1 keys")
    if bucket not in _RULES:
        raise ValueError(f"bucket must be one of {', '.join(_RULES)}, not {bucket!r}")
    if bucket in ("identity", "bits") and name == "float32":
        raise ValueError(f"bucket={bucket!r} takes integer keys, not float32")
    if not (keys.is_contiguous() if fw == "torch" else keys.flags.c_contiguous):
        keys = dv.astype(keys, name)
    p = dict(lower=0.0, width=1.0, splitters=0, num_splitters=0, shift=0, num_bits=1)
    keep = None
    if bucket == "delta":
        if width is None:
            raise ValueError("bucket='delta' needs width=")
        w = float(width)
        if not (w > 0 and math.isfinite(w)):
            raise ValueError(f"width must be positive and finite, not {width!r}")
        if name != "float32" and (w != int(w) or w > 2**31 - 1):
            raise ValueError(f"width must be a whole number for integer keys, not {width!r}")
        lo = float(lower)
        if not math.isfinite(lo):
            raise ValueError(f"lower must be finite, not {lower!r}")
        if name == "uint32" and not (0 <= lo <= 2**32 - 1 and lo == int(lo)):
            raise ValueError(f"lower must be a uint32 for uint32 keys, not {lower!r}")
        if name == "int32" and not (-2**31 <= lo <= 2**31 - 1 and lo == int(lo)):
            raise ValueError(f"lower must be an int32 for int32 keys, not {lower!r}")
        p.update(lower=lo, width=w)
    elif bucket == "range":
        if splitters is None:
            raise ValueError("bucket='range' needs splitters=")
        if dv.framework(splitters) is None:
            import numpy as np

            host = np.asarray(splitters)
            if host.ndim != 1:
                raise ValueError("splitters must be one-dimensional")
            s = _to_device(host.astype(name), keys)
        else:
            dv.require_device("splitters", splitters, fw)
            s = dv.astype(splitters, name)
        if s.shape[0] != num_buckets - 1:
            raise ValueError(f"{num_buckets} buckets need {num_buckets - 1} splitters, not {s.shape[0]}")
        if dv.decreasing_somewhere(s):
            raise ValueError("splitters must be sorted (non-decreasing)")
        keep = s
        p.update(splitters=dv.data_ptr(s) if s.shape[0] else 0, num_splitters=int(s.shape[0]))
    elif bucket == "bits":
        nb = max(1, math.ceil(math.log2(num_buckets))) if num_bits is None else int(num_bits)
        sh = int(shift)
        if not 1 <= nb <= 32 or sh < 0 or sh + nb > 32:
            raise ValueError(f"bits: need 1 <= num_bits and shift >= 0 with shift + num_bits <= 32, not "
                             f"shift={shift}, num_bits={num_bits}")
        p.update(shift=sh, num_bits=nb)
    return keys, p, keep


def _to_device(host, like):
    if dv.framework(like) == "cupy":
        import cupy

        with like.device:
            return cupy.asarray(host)
    import torch

    return torch.from_numpy(host).to(like.device)


def split(keys, num_buckets, bucket="identity", values=None, *, lower=0, width=None, splitters=None, shift=0,
          num_bits=None):
    """Stable multisplit of `keys` (and `values`, moved with them) into
    `num_buckets` buckets by the rule `bucket`. Returns (keys_out, offsets),
    or (keys_out, values_out, offsets) with values."""
    keys, p, keep = _prepare(keys, num_buckets, bucket, lower, width, splitters, shift, num_bits)
    n = int(keys.shape[0])
    off_type = "uint32" if dv.framework(keys) == "cupy" else "int32"
    if values is not None:
        dv.require_device("values", values, dv.framework(keys))
        if int(values.shape[0]) != n:
            raise ValueError(f"values has {values.shape[0]} entries for {n} keys")
        if dv.itemsize(values) not in (1, 2, 4, 8):
            raise ValueError(f"values of {dv.itemsize(values)} bytes per entry are not supported")
        values = dv.astype(values, dv.dtype_name(values))  # contiguous
    keys_out = dv.empty_like(keys)
    offsets = dv.empty(keys, num_buckets + 1, off_type)
    values_out = dv.empty_like(values) if values is not None else None
    if n == 0:
        offsets.fill(0) if dv.framework(keys) == "cupy" else offsets.zero_()
        return (keys_out, offsets) if values is None else (keys_out, values_out, offsets)
    stream = dv.stream_of(keys)
    direct = values is not None and dv.itemsize(values) == 4
    carried = values is not None
    nbytes = _core.multisplit_temp_bytes("split", keys, carried, num_buckets, bucket, p["lower"], p["width"],
                                         p["splitters"], p["num_splitters"], p["shift"], p["num_bits"])
    temp = dv.empty(keys, max(int(nbytes), 1), "uint8")
    if not carried:
        vin = vout = 0
    elif direct:
        vin, vout = dv.data_ptr(values), dv.data_ptr(values_out)
    else:
        # Other widths travel as positions: split (key, position), then gather.
        positions = dv.empty(keys, n, "int32")
        moved = dv.empty(keys, n, "int32")
        _core.multisplit_iota(positions, stream)
        vin, vout = dv.data_ptr(positions), dv.data_ptr(moved)
    _core.multisplit_split(keys, keys_out, vin, vout, num_buckets, bucket, p["lower"], p["width"], p["splitters"],
                           p["num_splitters"], p["shift"], p["num_bits"], offsets, temp, stream)
    if carried and not direct:
        _core.multisplit_gather(values, values_out, moved, stream)
    del keep, temp
    return (keys_out, offsets) if values is None else (keys_out, values_out, offsets)


def histogram(keys, num_buckets, bucket="identity", *, lower=0, width=None, splitters=None, shift=0, num_bits=None):
    """The number of keys in each bucket (num_buckets entries; uint32 on
    CuPy, int32 on PyTorch), by the same rules as split."""
    keys, p, keep = _prepare(keys, num_buckets, bucket, lower, width, splitters, shift, num_bits)
    counts = dv.empty(keys, num_buckets, "uint32" if dv.framework(keys) == "cupy" else "int32")
    if int(keys.shape[0]) == 0:
        counts.fill(0) if dv.framework(keys) == "cupy" else counts.zero_()
        return counts
    stream = dv.stream_of(keys)
    nbytes = _core.multisplit_temp_bytes("histogram", keys, False, num_buckets, bucket, p["lower"], p["width"],
                                         p["splitters"], p["num_splitters"], p["shift"], p["num_bits"])
    temp = dv.empty(keys, max(int(nbytes), 1), "uint8")
    _core.multisplit_histogram(keys, num_buckets, bucket, p["lower"], p["width"], p["splitters"], p["num_splitters"],
                               p["shift"], p["num_bits"], counts, temp, stream)
    del keep, temp
    return counts
