"""gemm.matmul as PyTorch custom ops (torch.library), so torch.compile
captures a model that calls it without graph breaks:

    gemm::matmul(Tensor a, Tensor b, str? config, ScalarType? out_dtype) -> Tensor
    gemm::matmul_out(Tensor a, Tensor b, Tensor(a!) out, str? config) -> ()

Their fake (meta) implementations give the output's shape and type without
running anything; gemm::matmul has a backward (dA = dC @ B, dB = dC^T @ A,
by the same kernels). Registered when the package is imported with PyTorch
installed. In eager mode without autograd the ops' dispatch (about 18 us a
call on the H200) is skipped: the same implementation is called directly.
"""
import sys
from typing import Optional

from gemm import _api, _core

_DTYPES = {}
_registered = False


def is_torch(*tensors):
    torch = sys.modules.get("torch")
    return _registered and torch is not None and all(
        t is None or isinstance(t, torch.Tensor) for t in tensors)


def is_16bit(a, b):
    """bf16 or f16 operands: what the custom ops take (low-precision calls
    run eagerly, outside them)."""
    torch = sys.modules["torch"]
    return a.dtype in (torch.bfloat16, torch.float16) and b.dtype == a.dtype


def _config_name(config, dtype):
    if config is None:
        return None
    if isinstance(config, str):
        return config
    return config.kernel_config(dtype).name


def _parse_config(name):
    return None if name is None else _api.Config.from_kernel_config(_core.KernelConfig(name))


def matmul(a, b, out, out_dtype, config):
    torch = sys.modules["torch"]
    names = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
    if isinstance(out_dtype, str):
        if out_dtype not in names:
            raise _core.UsageError(f"out_dtype={out_dtype}: expected bf16, f16 or f32")
        out_dtype = names[out_dtype]
    dtype = {torch.bfloat16: "bf16", torch.float16: "f16"}.get(a.dtype, "bf16")
    if not torch.compiler.is_compiling() and not (
            torch.is_grad_enabled() and (a.requires_grad or b.requires_grad)):
        return _api.matmul_impl(a, b, out, _type_name(out_dtype) if out_dtype else None,
                                config, None)
    name = _config_name(config, dtype)
    if out is not None:
        if out_dtype is not None and out.dtype != out_dtype:
            raise _core.UsageError(f"out is {out.dtype} but out_dtype is {out_dtype}")
        torch.ops.gemm.matmul_out(a, b, out, name)
        return out
    return torch.ops.gemm.matmul(a, b, name, out_dtype)


def _reduce_to(grad, shape):
    """A batched operand's gradient summed over the entries it was
    broadcast to."""
    if grad.dim() > len(shape):
        return grad.sum(0)
    if grad.dim() == 3 and shape[0] == 1 and grad.shape[0] != 1:
        return grad.sum(0, keepdim=True)
    return grad


def _type_name(dtype):
    torch = sys.modules["torch"]
    return {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32"}.get(dtype)


def register():
    global _registered
    import torch
    type_name = _type_name

    @torch.library.custom_op("gemm::matmul", mutates_args=())
    def matmul_op(a: torch.Tensor, b: torch.Tensor, config: Optional[str] = None,
                  out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
        return _api.matmul_impl(a, b, None, type_name(out_dtype) if out_dtype else None,
                                _parse_config(config), None)

    @matmul_op.register_fake
    def _(a, b, config=None, out_dtype=None):
        torch._check(a.dim() in (2, 3) and b.dim() in (2, 3),
                     lambda: "gemm.matmul: a [M, K] and b [N, K] must be 2-D or batches "
                             "of them (3-D)")
        torch._check(a.shape[-1] == b.shape[-1],
                     lambda: f"gemm.matmul: K of a ({a.shape[-1]}) != K of b ({b.shape[-1]})")
        batch = tuple(torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        return a.new_empty(batch + (a.shape[-2], b.shape[-2]), dtype=out_dtype or a.dtype)

    def setup_context(ctx, inputs, output):
        a, b, config, _ = inputs
        ctx.save_for_backward(a, b)
        ctx.config = config

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad = grad.to(a.dtype)
        grad_a = grad_b = None
        # C = A B^T: dA = dC (B^T)^T and dB = dC^T (A^T)^T, each an A @ B^T
        # of the kernels; the transposed views run the kernels of their
        # layouts (an N-major B, an M-major A) without copies.
        # A batch: per entry; an operand broadcast to every entry (2-D, or a
        # batch of 1) gets the sum of its entries' gradients.
        if ctx.needs_input_grad[0]:
            grad_a = _reduce_to(torch.ops.gemm.matmul(grad, b.mT, None, None), a.shape)
        if ctx.needs_input_grad[1]:
            grad_b = _reduce_to(torch.ops.gemm.matmul(grad.mT, a.mT, None, None), b.shape)
        return grad_a, grad_b, None, None

    matmul_op.register_autograd(backward, setup_context=setup_context)

    @torch.library.custom_op("gemm::matmul_out", mutates_args=("out",))
    def matmul_out_op(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
                      config: Optional[str] = None) -> None:
        _api.matmul_impl(a, b, out, None, _parse_config(config), None)

    @matmul_out_op.register_fake
    def _(a, b, out, config=None):
        return None

    _registered = True
