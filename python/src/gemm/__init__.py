"""gemm: GEMM kernels from an MLIR compiler for NVIDIA Hopper, called from
PyTorch, CuPy or any DLPack tensor.

    c = gemm.matmul(a, b)                 # C = A @ B^T, kernel picked for the shape
    c = gemm.matmul(x, w.T)               # x @ W (W [K, N]): transposed views used as they are
    c = gemm.bmm(a3, b3)                  # torch.bmm: [batch, M, K] @ [batch, K, N]
    c = gemm.grouped_mm(x, w, offs)       # torch._grouped_mm: MoE experts in one launch
    k = gemm.compile(gemm.Config(tile=(128, 256, 64), cluster=(2, 1)), a_dtype="bf16")
    k(a, b, out=c)
    k = gemm.load("out/NAME.json")        # a bundle compiled ahead of time

docs/Python.md has the whole story; gemm.select(M, N, K) says which kernel
matmul would run and why.
"""
from gemm._core import (ArchMismatchError, BundleError, CudaError, DispatchError, GemmError,
                        HangError, KernelConfig, NoDeviceError, UsageError)
from gemm._api import (Config, Kernel, bmm, compile, device_info, dispatch_model, kernel_library,
                       load, matmul, select)
from gemm._grouped import grouped_matmul, grouped_mm
from gemm._jit import CompileError, CompilerNotFoundError, cache_dir, compiler_path

__version__ = "0.1.0"

__all__ = ["ArchMismatchError", "BundleError", "CompileError", "CompilerNotFoundError",
           "Config", "CudaError", "DispatchError", "GemmError", "HangError", "Kernel",
           "KernelConfig", "NoDeviceError", "UsageError", "bmm", "cache_dir", "compile",
           "compiler_path", "device_info", "dispatch_model", "grouped_matmul", "grouped_mm",
           "kernel_library", "load", "matmul", "select"]


def _register_torch_ops():
    try:
        import torch  # noqa: F401
    except ImportError:
        return
    from gemm import _torch_ops
    _torch_ops.register()


_register_torch_ops()
