"""GPU single-source shortest paths (delta-stepping on NVIDIA GPUs).

    import gpu_sssp
    g = gpu_sssp.Graph.from_file("road.gr")           # or from_scipy / from_edges
    d = gpu_sssp.shortest_paths(g, [0, 5])            # float64, inf = unreachable
    r = gpu_sssp.solve(g, 0)                          # distances plus the report
    rows = gpu_sssp.compare(g, 0)                     # every strategy, timed and validated
    g2 = gpu_sssp.Graph.from_device_csr(offsets, targets, weights)  # CuPy / PyTorch arrays

Vertex ids are 0-based everywhere in Python (a .mtx/.gr file's vertex 1 is
index 0; Graph.id_base says what the file used). Where no GPU is usable the
CPU solvers run instead, and a RuntimeWarning says so once.
gpu_sssp.multisplit splits CuPy / PyTorch arrays into buckets on the GPU.
"""
from ._graph import Graph
from ._solve import SolveReport, StrategyResult, compare, gpu_available, shortest_paths, solve

__all__ = ["Graph", "SolveReport", "StrategyResult", "compare", "gpu_available", "shortest_paths", "solve"]
__version__ = "0.1.0"
