"""CuPy and PyTorch device arrays, told apart and handled alike (DLPack)."""
from __future__ import annotations


def framework(a):
    """'cupy' or 'torch' for their arrays, None for anything else."""
    mod = type(a).__module__ or ""
    if mod.startswith("cupy"):
        return "cupy"
    if mod.startswith("torch"):
        return "torch"
    return None


def require_device(name, a, fw=None):
    """The array's framework; ValueError for host arrays and other types."""
    f = framework(a)
    if f is None:
        raise ValueError(f"{name} must be a CuPy or PyTorch CUDA array, not {type(a).__name__} "
                         "(host arrays: use the numpy functions, e.g. Graph.from_csr)")
    if f == "torch" and not a.is_cuda:
        raise ValueError(f"{name} is a PyTorch tensor in host memory; move it to the GPU (.cuda()) first")
    if fw is not None and f != fw:
        raise ValueError(f"{name} is a {f} array, the others are {fw} arrays")
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {tuple(a.shape)}")
    return f


def kind(a):
    """numpy's dtype kind: 'b', 'i', 'u', 'f' (or another letter)."""
    if framework(a) == "cupy":
        return a.dtype.kind
    import torch

    if a.dtype == torch.bool:
        return "b"
    if a.is_floating_point():
        return "f"
    if a.is_complex():
        return "c"
    return "u" if a.dtype in _torch_unsigned() else "i"


def _torch_unsigned():
    import torch

    return tuple(getattr(torch, n) for n in ("uint8", "uint16", "uint32", "uint64") if hasattr(torch, n))


def dtype_name(a):
    return str(a.dtype).replace("torch.", "")


def astype(a, name):
    """A contiguous copy (or the array itself) of dtype `name` in a's framework."""
    if framework(a) == "cupy":
        import cupy

        return cupy.ascontiguousarray(a, dtype=name)
    import torch

    return a.to(getattr(torch, name)).contiguous()


def empty(like, size, name):
    if framework(like) == "cupy":
        import cupy

        with like.device:
            return cupy.empty(size, dtype=name)
    import torch

    return torch.empty(size, dtype=getattr(torch, name), device=like.device)


def empty_like(a):
    if framework(a) == "cupy":
        import cupy

        return cupy.empty_like(a)
    import torch

    return torch.empty_like(a, memory_format=torch.contiguous_format)


def any_true(x):
    return bool(x.any())


def decreasing_somewhere(a):
    """Whether a one-dimensional device array decreases anywhere. PyTorch has
    no comparison kernels for its unsigned types on CUDA, so those are compared
    widened to int64 (exact for every uint32)."""
    if a.shape[0] < 2:
        return False
    if framework(a) == "torch" and dtype_name(a) == "uint32":
        a = a.to(dtype=__import__("torch").int64)
    return any_true(a[1:] < a[:-1])


def isnan(a):
    if framework(a) == "cupy":
        import cupy

        return cupy.isnan(a)
    import torch

    return torch.isnan(a)


def isinf(a):
    if framework(a) == "cupy":
        import cupy

        return cupy.isinf(a)
    import torch

    return torch.isinf(a)


def floor(a):
    if framework(a) == "cupy":
        import cupy

        return cupy.floor(a)
    import torch

    return torch.floor(a)


def stream_of(a):
    """The framework's current stream on a's device, as an integer cudaStream_t."""
    if framework(a) == "cupy":
        import cupy

        with a.device:
            return cupy.cuda.get_current_stream().ptr
    import torch

    return torch.cuda.current_stream(a.device).cuda_stream


def data_ptr(a):
    return a.data.ptr if framework(a) == "cupy" else a.data_ptr()


def itemsize(a):
    return a.dtype.itemsize if framework(a) == "cupy" else a.element_size()
