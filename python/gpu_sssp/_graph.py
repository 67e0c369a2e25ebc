"""gpu_sssp.Graph: a graph in the solver's CSR, kept with its GPU solver."""
from __future__ import annotations

import os

import numpy as np

from . import _core

_U32_MAX = np.iinfo(np.uint32).max


def _arc_weights(weights, weight_type):
    """The weights as uint32 or float32, refusing what no solver takes."""
    w = np.asarray(weights)
    if w.ndim != 1:
        raise ValueError(f"weights must be one-dimensional, not of shape {w.shape}")
    if w.dtype == np.bool_:
        w = w.astype(np.uint32)
    if not (np.issubdtype(w.dtype, np.integer) or np.issubdtype(w.dtype, np.floating)):
        raise ValueError(f"weights must be integers or floats, not {w.dtype}")
    if np.issubdtype(w.dtype, np.floating):
        if np.isnan(w).any():
            raise ValueError("weights contain NaN")
        if np.isinf(w).any():
            raise ValueError("weights contain an infinite value")
    if w.size and w.min() < 0:
        raise ValueError(f"negative weight {w.min()}: shortest paths need weights >= 0")
    if weight_type not in ("auto", "uint32", "float32"):
        raise ValueError(f"weight_type must be 'auto', 'uint32' or 'float32', not {weight_type!r}")
    integral = np.issubdtype(w.dtype, np.integer) or bool(np.all(np.floor(w) == w))
    fits = w.size == 0 or w.max() <= _U32_MAX
    if weight_type == "uint32" or (weight_type == "auto" and integral and fits):
        # Integer-valued weights (also floats like 3.0) take the exact
        # integer solver: 64-bit distances, no rounding.
        if not integral:
            raise ValueError("weight_type='uint32' with weights that are not whole numbers")
        if not fits:
            raise ValueError(f"weight {w.max()} does not fit the integer solver (at most {_U32_MAX})")
        return np.ascontiguousarray(w, dtype=np.uint32)
    return np.ascontiguousarray(w, dtype=np.float32)


def _ids(name, a, n):
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        if not np.all(np.floor(a) == a):
            raise ValueError(f"{name} must be integer vertex ids")
    a = a.astype(np.int64, copy=False)
    if a.size and (a.min() < 0 or a.max() >= n):
        bad = a[(a < 0) | (a >= n)][0]
        raise ValueError(f"{name}: vertex {bad} is out of range 0..{n - 1}" if n else f"{name}: the graph has no vertices")
    return np.ascontiguousarray(a, dtype=np.uint32)


class Graph:
    """A directed graph with non-negative weights, in the solver's CSR form.

    Build one with from_file, from_scipy, from_edges or from_csr. Integer
    weights (and whole-numbered floats) use the exact integer solver; other
    floats the float32 solver. The GPU solver (and, on road-like graphs, the
    chain contraction) is built on the first solve and kept for later ones.
    """

    def __init__(self, core):
        if not isinstance(core, _core.Graph):
            raise TypeError("use Graph.from_file, from_scipy, from_edges, from_csr or from_device_csr")
        self._g = core
        self._nx_cache = None

    # ---- construction
    @classmethod
    def from_file(cls, path, *, format="auto", undirected=False, weights="file", seed=1, cache=False, cache_path=""):
        """Read a Matrix Market (.mtx), DIMACS (.gr), edge-list (.el/.txt/.edges;
        each optionally .gz) or binary cache (.bin) file, as `sssp --graph` does.

        weights: "file" (keep the file's; pattern files get random:1:1000),
        "unit", "random" or "random:LO:HI" with `seed`. Bad input raises
        ValueError naming the file and line.
        """
        return cls(_core.load(os.fspath(path), format, bool(undirected), weights, int(seed), bool(cache), cache_path))

    @classmethod
    def from_edges(cls, src, dst, weights=None, num_vertices=None, directed=True, *, weight_type="auto"):
        """From arc arrays: src[i] -> dst[i] with weights[i] (None: 1).

        num_vertices defaults to max id + 1; directed=False adds every arc's
        reverse. Duplicate arcs keep the smallest weight; self-loops drop.
        """
        src = np.asarray(src)
        dst = np.asarray(dst)
        if src.shape != dst.shape or src.ndim != 1:
            raise ValueError(f"src and dst must be one-dimensional and of one length, not {src.shape} and {dst.shape}")
        if weights is None:
            weights = np.ones(src.shape[0], dtype=np.uint32)
        w = _arc_weights(weights, weight_type)
        if w.shape[0] != src.shape[0]:
            raise ValueError(f"weights has {w.shape[0]} entries for {src.shape[0]} arcs")
        top = int(max(src.max(), dst.max())) + 1 if src.size else 0
        n = top if num_vertices is None else int(num_vertices)
        if n < 0 or n > _U32_MAX - 1:
            raise ValueError(f"num_vertices {n} is out of range (0 .. {_U32_MAX - 1})")
        s = _ids("src", src, n)
        d = _ids("dst", dst, n)
        make = _core.from_arcs_uint32 if w.dtype == np.uint32 else _core.from_arcs_float32
        return cls(make(n, s, d, w, bool(directed)))

    @classmethod
    def from_scipy(cls, matrix, directed=True, *, weight_type="auto", unweighted=False):
        """From any scipy.sparse matrix (or array): entry (i, j) is an arc i -> j.

        Explicit zeros stay zero-weight arcs, as scipy.sparse.csgraph reads
        them; the matrix must be square.
        """
        import scipy.sparse as sp

        if not sp.issparse(matrix):
            raise ValueError("from_scipy takes a scipy.sparse matrix; use from_dense for a dense one")
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"the matrix must be square, not of shape {matrix.shape}")
        coo = matrix.tocoo()
        weights = np.ones(coo.nnz, dtype=np.uint32) if unweighted else coo.data
        return cls.from_edges(coo.row, coo.col, weights, matrix.shape[0], directed, weight_type=weight_type)

    @classmethod
    def from_csr(cls, indptr, indices, weights, directed=True, *, weight_type="auto"):
        """From CSR arrays (as scipy's csr_matrix holds them)."""
        indptr = np.asarray(indptr, dtype=np.int64)
        if indptr.ndim != 1 or indptr.size == 0 or indptr[0] != 0 or np.any(np.diff(indptr) < 0):
            raise ValueError("indptr must start at 0 and never decrease")
        n = indptr.size - 1
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        return cls.from_edges(src, indices, weights, n, directed, weight_type=weight_type)

    @classmethod
    def from_device_csr(cls, offsets, targets, weights, num_vertices=None, *, weight_type="auto"):
        """From CSR arrays already on the GPU: CuPy arrays or PyTorch CUDA
        tensors (through DLPack), copied device to device into the solver
        (no host copy). offsets: num_vertices + 1 integers from 0 to
        len(targets), never decreasing; targets: vertex ids; weights: >= 0
        (integers and whole-numbered floats take the exact integer solver,
        as in from_edges). num_vertices, if given, must be len(offsets) - 1.

        The arcs are taken as given (directed; duplicates and self-loops are
        kept). Such a graph solves on the GPU only, without contraction, and
        strategy/delta "auto" read only statistics measured on the device
        (near-far; delta = 16 x mean weight / mean out-degree). to_csr and
        compare need a host graph. Bad input raises ValueError.
        """
        from . import _device as dv

        fw = dv.require_device("offsets", offsets)
        dv.require_device("targets", targets, fw)
        dv.require_device("weights", weights, fw)
        if dv.kind(offsets) not in "iu":
            raise ValueError(f"offsets must be integers, not {dv.dtype_name(offsets)}")
        if dv.kind(targets) not in "iu":
            raise ValueError(f"targets must be integer vertex ids, not {dv.dtype_name(targets)}")
        if dv.kind(weights) not in "biuf":
            raise ValueError(f"weights must be integers or floats, not {dv.dtype_name(weights)}")
        if offsets.shape[0] < 1:
            raise ValueError("offsets must have num_vertices + 1 entries (at least one)")
        n = int(offsets.shape[0]) - 1
        if num_vertices is not None and int(num_vertices) != n:
            raise ValueError(f"num_vertices {num_vertices} but offsets has {n + 1} entries (num_vertices + 1)")
        if n > _U32_MAX - 1:
            raise ValueError(f"{n} vertices do not fit 32-bit ids")
        m = int(targets.shape[0])
        if int(weights.shape[0]) != m:
            raise ValueError(f"weights has {weights.shape[0]} entries for {m} arcs")
        if m:
            lo, hi = int(targets.min()), int(targets.max())
            if lo < 0 or hi >= n:
                bad = lo if lo < 0 else hi
                raise ValueError(f"targets: vertex {bad} is out of range 0..{n - 1}" if n else
                                 "targets: the graph has no vertices")
        if weight_type not in ("auto", "uint32", "float32"):
            raise ValueError(f"weight_type must be 'auto', 'uint32' or 'float32', not {weight_type!r}")
        w = weights
        if dv.kind(w) == "b":
            w = dv.astype(w, "int32")
        floating = dv.kind(w) == "f"
        if m and floating:
            if dv.any_true(dv.isnan(w)):
                raise ValueError("weights contain NaN")
            if dv.any_true(dv.isinf(w)):
                raise ValueError("weights contain an infinite value")
        wmin = float(w.min()) if m else 0.0
        wmax = float(w.max()) if m else 0.0
        if wmin < 0:
            raise ValueError(f"negative weight {wmin}: shortest paths need weights >= 0")
        integral = not floating or not m or not dv.any_true(dv.floor(w) != w)
        fits = wmax <= _U32_MAX
        if weight_type == "uint32" or (weight_type == "auto" and integral and fits):
            if not integral:
                raise ValueError("weight_type='uint32' with weights that are not whole numbers")
            if not fits:
                raise ValueError(f"weight {wmax} does not fit the integer solver (at most {_U32_MAX})")
            # int32 holds the bits the solver reads as uint32 up to 2^31 - 1;
            # larger weights need the framework's uint32.
            w = dv.astype(w, "int32" if wmax < 2**31 else "uint32")
            make = _core.from_device_csr_uint32
        else:
            w = dv.astype(w, "float32")
            make = _core.from_device_csr_float32
        # Offsets as int64 and ids as int32: the bits the solver reads as
        # uint64 and uint32 (a negative offset reads huge and fails the
        # device's checks: non-decreasing, from 0 to the arc count).
        o = dv.astype(offsets, "int64")
        t = dv.astype(targets, "int32")
        return cls(make(o, t, w))

    # ---- facts
    @property
    def num_vertices(self) -> int:
        return self._g.num_vertices

    @property
    def num_arcs(self) -> int:
        """Arcs after duplicates and self-loops were dropped (both directions counted when undirected)."""
        return self._g.num_arcs

    @property
    def weight_type(self) -> str:
        """'uint32' (exact, 64-bit distances) or 'float32'."""
        return self._g.weight_type

    @property
    def directed(self) -> bool:
        return not self._g.symmetric

    @property
    def on_device(self) -> bool:
        """True for a graph from device arrays (from_device_csr): no host copy."""
        return self._g.on_device

    @property
    def id_base(self) -> int:
        """The id base of the file the graph came from (1 for .mtx/.gr); Python ids are 0-based."""
        return self._g.id_base

    def to_csr(self):
        """(indptr int64, indices uint32, weights) copies of the solver's CSR."""
        return self._g.csr()

    def to_scipy(self):
        import scipy.sparse as sp

        indptr, indices, weights = self._g.csr()
        return sp.csr_matrix((weights, indices, indptr), shape=(self.num_vertices, self.num_vertices))

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        if self.on_device:
            kind += f", on CUDA device {self._g.device}"
        return f"<gpu_sssp.Graph {kind}, {self.num_vertices} vertices, {self.num_arcs} arcs, {self.weight_type} weights>"
