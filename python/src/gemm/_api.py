"""matmul, compile, load: the three ways in.

C[M, N] = A[M, K] @ B[N, K]^T with A and B of one 16-bit type (bf16 or f16),
f32 accumulation, C in the input type (or out_dtype); or of low precision
(docs/LowPrecision.md): fp8 (e4m3, e5m2) and 8-bit integer (s8, u8) pairs
with their scale factors, f32 through tf32. Each of A, B and C may be row- or
column-major (a transposed view such as a.t() or W.T is used as it is: the
kernel of that layout runs; low-precision A and B are K-major, others are
copied so). The kernel for a shape and its layouts
comes from the C++ dispatcher (the one gemm-runner --library uses), from the
kernel library shipped in the package when it has it, else compiled on first
use (gemm._jit). Warm calls look the kernel up in a dictionary and launch: no
compiling, no file I/O, no device synchronisation; a PyTorch call of the
signature of an earlier one that copied nothing repeats its launch
(_signature, _Launch).

Kernels that read a matrix through TMA need its rows and address 16-byte
aligned; a matrix that is not (or whose rows are worth realigning) is copied
for them, by the runtime's rule (gemm._core.tma_staging), and the dispatcher
counts the copies against those kernels. The direct kernels (schedule =
direct) take any leading dimension and address: nothing is copied for them.
"""
import dataclasses
import os
import sys
import threading

from gemm import _core, _jit
from gemm._tensors import memory, view

# What the build installs (data/, kernels/, bin/) lies beside the compiled
# module, which in an editable install is not beside these sources.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(_core.__file__))
_INPUT_TYPES = ("bf16", "f16", "f32", "e4m3", "e5m2", "s8", "u8")
_OUTPUT_TYPES = ("bf16", "f16", "f32", "e4m3", "e5m2", "s32")
_FP8 = ("e4m3", "e5m2")
_INT8 = ("s8", "u8")
_ALIGN = 16  # TMA: base addresses and row strides are 16-byte multiples
_DEFAULT_LAYOUTS = "row,col,row"


@dataclasses.dataclass(frozen=True)
class Config:
    """A kernel configuration: the `#gemm.config` of a gemm.matmul (sm_90a)."""
    arch: str = "sm_90a"
    tile: tuple = (128, 256, 64)
    cluster: tuple = (1, 1)
    schedule: str = "cooperative"
    raster: str = "along_m"
    swizzle: int = 8
    stages: int = 0
    splits: int = 1
    stream_k: bool = False

    def kernel_config(self, dtype="bf16", out_dtype=None, layouts=_DEFAULT_LAYOUTS,
                      batched=False, b_dtype=None, quant="", grouped=False):
        """The gemm._core.KernelConfig of this configuration for these types
        and layouts ("row,col,row": A, B, C as gemm.matmul spells them),
        batched or not, grouped (MoE: gemm.grouped_matmul) or not; for fp8
        and int8, B's type when it differs from A's and the quant spelling of
        its scales (e.g. "tt", "rc", "bb", "ttf"; docs/LowPrecision.md)."""
        if self.arch != "sm_90a":
            raise _core.UsageError(
                f"arch {self.arch}: the package compiles sm_90a configurations; SM100 "
                "kernels are built and checked with gemm-opt (no SM100 GPU to run them)")
        if len(self.tile) != 3 or len(self.cluster) != 2:
            raise _core.UsageError(f"tile must be (BM, BN, BK) and cluster (CM, CN), got "
                                   f"{self.tile} and {self.cluster}")
        return _core.KernelConfig.make(dtype, out_dtype, tuple(self.tile), tuple(self.cluster),
                                       self.schedule, self.raster, self.swizzle, self.stages,
                                       self.splits, self.stream_k, layouts, batched, b_dtype,
                                       quant, grouped)

    @staticmethod
    def from_kernel_config(config):
        return Config(tile=config.tile, cluster=config.cluster, schedule=config.schedule,
                      raster=config.raster, swizzle=config.swizzle, stages=config.stages,
                      splits=config.splits, stream_k=config.stream_k)


# ---------------------------------------------------------------------------
# Dispatch data: the kernel library and the dispatcher's fitted model shipped
# with the package ($GEMM_KERNEL_LIBRARY and $GEMM_MODEL_FILE override them).
# ---------------------------------------------------------------------------

_state_lock = threading.Lock()
_library = None
_library_loaded = False
_model = None


def kernel_library():
    """The kernel library (gemm._core.KernelLibrary) or None."""
    global _library, _library_loaded
    with _state_lock:
        if not _library_loaded:
            path = os.environ.get("GEMM_KERNEL_LIBRARY") or os.path.join(_PACKAGE_DIR, "kernels")
            if os.path.exists(os.path.join(path, "library.json")):
                _library = _core.KernelLibrary.load(path)
            elif os.environ.get("GEMM_KERNEL_LIBRARY"):
                raise _core.DispatchError(
                    f"GEMM_KERNEL_LIBRARY={path}: no library.json there (build the gemm-kernels "
                    "target and point at build/kernels)")
            _library_loaded = True
        return _library


def dispatch_model():
    """The dispatcher's fitted model (gemm._core.DispatchModel): the kernel
    library's, else the one shipped with the package."""
    global _model
    library = kernel_library()
    if library is not None and not os.environ.get("GEMM_MODEL_FILE"):
        return library.model
    with _state_lock:
        if _model is None:
            path = os.environ.get("GEMM_MODEL_FILE") or os.path.join(_PACKAGE_DIR, "data",
                                                                     "model.json")
            _model = _core.DispatchModel.load(path)
        return _model


_devices = {}


def device_info(device=0):
    """{name, compute_capability, sm_count, arch} of a GPU (NoDeviceError
    without one)."""
    info = _devices.get(device)
    if info is None:
        info = _devices[device] = _core.device_info(device)
    return info


def select(m, n, k, dtype="bf16", out_dtype=None, device=None, sm_count=None,
           layouts=_DEFAULT_LAYOUTS, batch=1, b_dtype=None, quant="", staged=None, groups=0):
    """The dispatcher's choice for a problem (gemm._core.Selection: config,
    source, reason, transposed), as matmul makes it: for GPU `device`'s SM
    count, or for `sm_count` (default 132, the H200) without a GPU; among the
    kernel library's kernels when there is one. `layouts`: "A,B,C" storage
    orders, row|col each (see gemm.matmul). `batch`: problems of a batch
    (gemm.bmm, 3-D matmul). Low precision: B's type when it differs from
    A's, and the quant spelling of the scales ("tt" per tensor, "rc" per row
    of A and column of B, "bb" block-wise, a trailing "f" for fast fp8
    accumulation). `staged`: which of A, B, C a TMA kernel would have to
    copy (gemm._core.tma_staging of the caller's strides and addresses);
    default: packed rows, as gemm-runner --library assumes. `groups`: a
    grouped (MoE) problem of that many groups whose rows sum to m
    (gemm.grouped_matmul: layouts "row,col,row" for B [G, N, K],
    "row,row,row" for an N-major B)."""
    arch = "sm_90a"
    if device is not None:
        info = device_info(device)
        arch, sm_count = info["arch"] or "unknown", info["sm_count"]
    return _select(m, n, k, dtype, out_dtype, arch, sm_count or 132, layouts, batch, b_dtype,
                   quant, staged, groups)


def _select(m, n, k, dtype, out_dtype, arch, sm_count, layouts, batch=1, b_dtype=None,
            quant="", staged=None, groups=0):
    """Among the library's kernels when it holds some for these types and
    layouts (a column-major C the library does not write comes back as the
    transposed problem), else among all (compiled on first use)."""
    library = kernel_library()
    model = dispatch_model()
    if library is not None:
        try:
            return _core.select(m, n, k, dtype, out_dtype, model, arch, sm_count,
                                library.configs, layouts, batch, b_dtype, quant, staged,
                                groups)
        except _core.DispatchError:
            pass
    return _core.select(m, n, k, dtype, out_dtype, model, arch, sm_count, None, layouts,
                        batch, b_dtype, quant, staged, groups)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

class Kernel:
    """One compiled kernel (a bundle), callable on tensors: k(a, b, out=c)."""

    def __init__(self, manifest_path):
        self.bundle = _core.Bundle.load(manifest_path)
        self.name = self.bundle.name
        self.manifest_path = self.bundle.manifest_path
        a, b, c = self.bundle.dtypes
        self.dtypes = (a, b, c)
        # "row,col,row": the storage orders of A, B, C the kernel takes.
        self.layouts = self.bundle.layouts
        # A batched kernel runs batches of 2 or more problems.
        self.batched = self.bundle.batched
        # A grouped kernel runs gemm.grouped_matmul's problems.
        self.grouped = self.bundle.grouped
        # Which matrices it reads (writes) through TMA, which needs aligned
        # rows; the others it takes as pointers, as they are (the direct
        # kernels).
        self.tma = self.bundle.reads_through_tma
        self._loaded = {}
        self._workspaces = {}
        self._lock = threading.Lock()

    def __repr__(self):
        return f"gemm.Kernel({self.name}, {self.manifest_path})"

    def loaded(self, device):
        """The bundle loaded onto GPU `device` (once per device)."""
        kernel = self._loaded.get(device)
        if kernel is None:
            with self._lock:
                kernel = self._loaded.get(device)
                if kernel is None:
                    kernel = self._loaded[device] = _core.Kernel(self.bundle, device)
        return kernel

    def plan(self, m, n, k, sm_count=132, batch=1, batch_strides=(None, None, None)):
        """The launch plan without a GPU (what gemm-runner --dry-run prints);
        batch_strides: elements between the batch entries of A, B, C (None:
        packed)."""
        return self.bundle.plan(m, n, k, sm_count, batch=batch, batch_strides=batch_strides)

    def __call__(self, a, b, out=None, stream=None, *, scale_a=None, scale_b=None,
                 scale_out=None, amax=None):
        """C = A @ B^T with this kernel; operands in other layouts than the
        kernel's are copied into its layouts first."""
        if self.grouped:
            raise _core.UsageError(f"{self.name} is a grouped kernel: call "
                                   "gemm.grouped_matmul(a, b, offs, config=...)")
        scales = _Scales(scale_a, scale_b, scale_out, amax, "promoted")
        return _run(self, a, b, out, stream, self.dtypes[2], scales)


_kernels = {}        # manifest path, or ("config", name, cache dir) -> Kernel
_dispatched = {}     # (m, n, k, dtype, out dtype, layouts, device) -> (Kernel, transposed)


def _kernel_for_config(config):
    """The Kernel of a gemm._core.KernelConfig: from the library, else JIT.
    Remembered per configuration (and cache directory): a warm lookup does
    no file I/O."""
    memo = ("config", config.name, _jit.cache_dir())
    kernel = _kernels.get(memo)
    if kernel is not None:
        return kernel
    library = kernel_library()
    if library is not None and config in library.configs:
        path = library.manifest_path(config)
    else:
        path = _jit.compiled_bundle(config)
    kernel = _kernels.get(path)
    if kernel is None:
        kernel = _kernels[path] = Kernel(path)
    _kernels[memo] = kernel
    return kernel


def compile(config, a_dtype="bf16", b_dtype=None, c_dtype=None, layouts=_DEFAULT_LAYOUTS,
            batched=False, quant="", grouped=False):
    """The kernel of `config` (a gemm.Config) for these types and layouts
    ("A,B,C" storage orders, row|col each: "row,col,row" is A K-major, B N
    rows of K, C row-major; fp8, int8 and f32 A and B are K-major), batched
    or not, grouped (a kernel of gemm.grouped_matmul: bf16 or f16, A and C
    row-major) or not, and scales (`quant`, e.g. "tt", "rc", "bb"), from the kernel
    library when it has it, else compiled (once, then from the disk cache).
    Needs no GPU."""
    if isinstance(config, str):
        config = Config.from_kernel_config(_core.KernelConfig(config, a_dtype))
    if not isinstance(config, Config):
        raise _core.UsageError(f"config must be a gemm.Config, got {type(config).__name__}")
    b_dtype = b_dtype or a_dtype
    if a_dtype not in _INPUT_TYPES or b_dtype not in _INPUT_TYPES:
        raise _core.UsageError(
            f"a_dtype={a_dtype}, b_dtype={b_dtype}: expected one of {', '.join(_INPUT_TYPES)}")
    if c_dtype is not None and c_dtype not in _OUTPUT_TYPES:
        raise _core.UsageError(f"c_dtype={c_dtype}: expected one of {', '.join(_OUTPUT_TYPES)}")
    try:
        _core.check_problem(1, 1, 1, a_dtype, c_dtype, b_dtype, quant, layouts,
                            2 if batched else 1, 2 if grouped else 0)
    except _core.DispatchError as e:
        raise _core.UsageError(str(e)) from None
    return _kernel_for_config(config.kernel_config(a_dtype, c_dtype, layouts, batched, b_dtype,
                                                   quant, grouped))


def load(manifest_path):
    """A kernel bundle compiled ahead of time (NAME.json beside NAME.ptx and
    NAME.cubin); no compiler needed."""
    path = os.path.abspath(os.fspath(manifest_path))
    kernel = _kernels.get(path)
    if kernel is None:
        kernel = _kernels[path] = Kernel(path)
    return kernel


def _dispatch(m, n, k, dtype, out_dtype, layouts, device, batch=1, b_dtype=None, quant="",
              staged=None):
    """(Kernel, transposed) for a problem: transposed means the kernel
    computes C^T = B A^T (a column-major C as the row-major C^T). `staged`:
    what a TMA kernel would have to copy (gemm._core.tma_staging)."""
    key = (m, n, k, dtype, out_dtype, layouts, device, batch, b_dtype, quant, staged)
    found = _dispatched.get(key)
    if found is None:
        info = device_info(device)
        if info["arch"] != "sm_90a":
            raise _core.ArchMismatchError(
                f"GPU {device} ({info['name']}, compute capability "
                f"{'.'.join(map(str, info['compute_capability']))}) does not run sm_90a kernels; "
                "the package runs kernels on Hopper GPUs (compute capability 9.0)")
        # The output type as asked: an fp8 output of fp8 inputs is not their
        # default output (bf16), so "the same as the inputs" is no default.
        selection = _select(m, n, k, dtype, out_dtype,
                            "sm_90a", info["sm_count"], layouts, batch,
                            b_dtype if b_dtype != dtype else None, quant, staged)
        found = _dispatched[key] = (_kernel_for_config(selection.config), selection.transposed)
    return found


def bmm(a, b, out=None, *, out_dtype=None, config=None, stream=None):
    """torch.bmm's product: C[i] = A[i] @ B[i] for A [batch, M, K] and B
    [batch, K, N]; returns C [batch, M, N]. The same as matmul(a, b^T) with
    B's last two dimensions exchanged (a view: B [batch, K, N] row-major is
    the N-major B of the kernels, no copy). A batch of 1 (or a 2-D operand)
    is broadcast to every entry."""
    swap = getattr(b, "mT", None)
    b_t = swap if swap is not None else b.swapaxes(-1, -2)
    return matmul(a, b_t, out, out_dtype=out_dtype, config=config, stream=stream)


def matmul(a, b, out=None, *, out_dtype=None, scale_a=None, scale_b=None, scale_out=None,
           amax=None, accumulate="promoted", config=None, stream=None):
    """C = A @ B^T for A [M, K] and B [N, K]; returns C [M, N].

    Batched: A [batch, M, K] and/or B [batch, N, K] give C [batch, M, N]
    with C[i] = A[i] @ B[i]^T; a 2-D operand, or one of batch 1, is used by
    every entry (the kernel reads it with a batch stride of 0, no copy), and
    strided batches (e.g. expand, a slice of a bigger tensor, the batch
    view of an [M, batch, K] tensor) are used as they are when their
    strides are 16-byte multiples. out must not have overlapping entries.

    Each of A, B and out may be row-major or column-major (e.g. a.t() of a
    [K, M] tensor, or W.T of a weight W [K, N] for x @ W), with rows 16-byte
    aligned: it is used as it is, by the kernel of those layouts. Anything
    else (other strides, misaligned), and low-precision A and B that are not
    K-major (WGMMA reads fp8, int8 and tf32 operands K-major only), is
    copied aligned first.
    out: write into this tensor (M x N, of the output type) instead of a new
    (row-major) one. out_dtype: "bf16", "f16", "f32", "e4m3", "e5m2" or "s32" (default:
    the input type; bf16 for fp8 inputs, s32 for 8-bit integer inputs
    without scales and bf16 with them). config: a gemm.Config to use instead
    of the dispatcher's choice. stream: a CUDA stream handle (int) for
    non-PyTorch, non-CuPy tensors; otherwise the framework's current stream
    is used.

    Low precision (docs/LowPrecision.md, docs/Python.md): A and B of
    float8_e4m3fn / float8_e5m2 (any pair), int8 / uint8 (any pair), or
    float32 (multiplied as tf32). scale_a, scale_b: f32 tensors, one
    element (per tensor), [M, 1] / [1, N] (per row of A / column of C), or
    block-wise [M, ceil(K/128)] (outer-dim-major, as torch._scaled_mm's) and
    [ceil(N/128), ceil(K/128)]; C = scale_a * A @ (scale_b * B)^T. An fp8
    output needs scale_out (one f32, multiplied before rounding) and sets
    amax (one f32, if given) to max |C| before scale_out. accumulate: fp8
    partial sums "promoted" into f32 every 128 of K (the default) or "fast".
    A batch takes per-tensor scales only (one scale_a and one scale_b for
    every entry).
    """
    scales = _Scales(scale_a, scale_b, scale_out, amax, accumulate)
    # A call like an earlier one repeats its launch, before the custom ops
    # (_signature declines calls that autograd or torch.compile must see).
    signature = _signature(config, a, b, out, stream, out_dtype, scales)
    if signature is not None:
        launch = _launches.get(signature)
        if launch is not None:
            return launch(a, b, out, scales)
    from gemm import _torch_ops
    if scales.plain() and _torch_ops.is_torch(a, b, out) and stream is None and \
            _torch_ops.is_16bit(a, b):
        return _torch_ops.matmul(a, b, out, out_dtype, config)
    return matmul_impl(a, b, out, out_dtype, config, stream, scales)


def matmul_impl(a, b, out, out_dtype, config, stream, scales=None):
    return _run(config, a, b, out, stream, out_dtype, scales)


def _default_output(dtype, scales=None):
    if dtype in _FP8:
        return "bf16"
    if dtype in _INT8:
        return "bf16" if scales is not None and scales.any_input() else "s32"
    return dtype


class _Scales:
    """The scale factors of a low-precision call, their granularity and
    storage checked against the problem (docs/Runtime.md gives the shapes)."""

    def __init__(self, scale_a, scale_b, scale_out, amax, accumulate):
        if accumulate not in ("promoted", "fast"):
            raise _core.UsageError(f"accumulate={accumulate!r}: expected 'promoted' or 'fast'")
        self.scale_a, self.scale_b, self.scale_out, self.amax = scale_a, scale_b, scale_out, amax
        self.accumulate = accumulate
        self.letters = None
        self.views = {}

    def plain(self):
        """No scales, amax or accumulation option given."""
        return (self.scale_a is None and self.scale_b is None and self.scale_out is None
                and self.amax is None and self.accumulate == "promoted")

    def any_input(self):
        return self.scale_a is not None or self.scale_b is not None

    def _options(self, scale, which, m, n, k, device):
        """{letter: view} of the granularities the tensor's shape and strides
        fit (t tensor, r row of A, c column of C, b block)."""
        if scale is None:
            return {"n": None}
        v = view(scale, f"scale_{which}")
        if not v.is_cuda or v.device != device or v.dtype != "f32":
            raise _core.UsageError(
                f"scale_{which} is {v.dtype} on {v.device_text}: scales are f32 tensors on "
                "the GPU of a and b")
        shape, strides = tuple(v.shape), tuple(v.strides)
        numel = 1
        for extent in shape:
            numel *= extent
        kb = -(-k // 128)
        options = {}
        if numel == 1:
            options["t"] = v
        dense = all(s == 1 or e == 1 for e, s in zip(shape, strides))  # one run of memory
        if which == "a":
            if shape in ((m,), (m, 1)) and dense:
                options["r"] = v
            # The scale of row r and k-block j at j * M + r: [M, KB] with
            # strides (1, M) (outer-dim-major) or [KB, M] row-major.
            if (shape == (m, kb) and (strides[0] == 1 or m == 1) and (strides[1] == m or kb == 1)) \
                    or (shape == (kb, m) and (strides[1] == 1 or m == 1) and (strides[0] == m or kb == 1)):
                options["b"] = v
        else:
            if shape in ((n,), (1, n), (n, 1)) and dense:
                options["c"] = v
            nb = -(-n // 128)
            if shape == (nb, kb) and (strides[1] == 1 or kb == 1) and (strides[0] == kb or nb == 1):
                options["b"] = v
        if not options:
            expected = ("one element, [M, 1] per row, or [M, ceil(K/128)] with strides (1, M) "
                        "(1 x 128 blocks)" if which == "a" else
                        "one element, [1, N] per column, or [ceil(N/128), ceil(K/128)] "
                        "row-major (128 x 128 blocks)")
            raise _core.UsageError(
                f"scale_{which} has shape {list(shape)} and strides {list(strides)} for "
                f"M={m}, N={n}, K={k}: expected {expected}")
        return options

    def resolve(self, va, vb, m, n, k):
        """The granularities (letters) and views of the input scales."""
        a = self._options(self.scale_a, "a", m, n, k, va.device)
        b = self._options(self.scale_b, "b", m, n, k, va.device)
        if set(a) == {"b"} or set(b) == {"b"}:
            if "b" not in a or "b" not in b:
                raise _core.UsageError(
                    "block-wise scales go together: scale_a [M, ceil(K/128)] (1 x 128 blocks) "
                    "with scale_b [ceil(N/128), ceil(K/128)] (128 x 128 blocks)")
            la = lb = "b"
        else:
            la = next(c for c in "ntr" if c in a)
            lb = next(c for c in "ntc" if c in b)
        self.letters = (la, lb)
        self.views = {"a": a[la], "b": b[lb]}

    def spelling(self, va, vb, out_dtype):
        if va.dtype not in _FP8 + _INT8:
            if self.any_input() or self.accumulate != "promoted":
                raise _core.UsageError(
                    f"a and b are {va.dtype}: scales and accumulate apply to fp8 "
                    "(float8_e4m3fn, float8_e5m2) and 8-bit integer inputs")
            return ""
        if self.letters is None:
            self.resolve(va, vb, va.shape[-2], vb.shape[-2], va.shape[-1])
        la, lb = self.letters
        if la == "n" and lb == "n" and self.accumulate == "promoted":
            return ""
        return "q" + la + lb + ("f" if self.accumulate == "fast" else "")

    def sources(self, kernel, plan, c_dtype, device, transposed=False):
        """Where each scale and amax address of the kernel's parameters
        comes from, in their order (addresses() reads them): "scale_a",
        "scale_b", "scale_out", "amax" (zeroed before the launch) or
        "amax_scratch" (a zeroed word the result of which nobody reads). For a
        kernel of the transposed problem (C^T = B A^T) its A's scales are
        scale_b (B's column scales are the row scales of its A) and its B's
        scale_a."""
        if c_dtype in _FP8 and self.scale_out is None:
            raise _core.UsageError(
                f"an {c_dtype} output needs scale_out (one f32 on the GPU: C is multiplied by "
                "it before rounding to fp8)")
        if c_dtype not in _FP8 and (self.scale_out is not None or self.amax is not None):
            raise _core.UsageError("scale_out and amax apply to fp8 outputs (out_dtype e4m3 or "
                                   f"e5m2), not {c_dtype}")
        out = []
        for tensor, granularity, rows, cols in plan.scales:
            if tensor == "amax":
                if self.amax is None:
                    out.append("amax_scratch")
                else:
                    self._single(self.amax, "amax", device)
                    out.append("amax")
                continue
            if tensor == "c":
                self._single(self.scale_out, "scale_out", device)
                out.append("scale_out")
                continue
            mine = {"a": "b", "b": "a"}[tensor] if transposed else tensor
            if self.views.get(mine) is None:
                raise _core.UsageError(
                    f"{kernel.name} takes scale_{tensor} ({granularity}, {rows} x {cols} f32)")
            out.append("scale_" + mine)
        for which in ("a", "b"):
            theirs = {"a": "b", "b": "a"}[which] if transposed else which
            if self.views.get(which) is not None and not any(
                    t == theirs for t, _, _, _ in plan.scales):
                raise _core.UsageError(f"{kernel.name} takes no scale_{which}")
        return out

    def addresses(self, sources, mem):
        """The device addresses of `sources` (what sources() returned) for
        one launch: amax is zeroed first (the kernel only raises it)."""
        out = []
        for source in sources:
            if source == "amax_scratch":
                self._scratch = mem.bytes(4, True)
                out.append(mem.address(self._scratch))
                continue
            tensor = getattr(self, source)
            if source == "amax":
                mem.fill_zero(tensor)
            out.append(view(tensor, source).ptr)
        return out

    def signature(self):
        """What of the scales a call's choices depend on (_tensor_keys), or
        None when one is not a PyTorch tensor."""
        if self.plain():
            return ()
        keys = _tensor_keys((self.scale_a, self.scale_b, self.scale_out, self.amax))
        return None if keys is None else (self.accumulate,) + keys

    @staticmethod
    def _single(tensor, what, device):
        v = view(tensor, what)
        numel = 1
        for extent in v.shape:
            numel *= extent
        if numel != 1 or v.dtype != "f32" or not v.is_cuda or v.device != device:
            raise _core.UsageError(f"{what} must be one f32 on the GPU of a and b, got "
                                   f"{v.dtype} of shape {list(v.shape)} on {v.device_text}")
        return v


def _check_inputs(a, b):
    va, vb = view(a, "a"), view(b, "b")
    for v, name in ((va, "a"), (vb, "b")):
        if not v.is_cuda:
            raise _core.UsageError(
                f"{name} is on {v.device_text}: the kernels run on an NVIDIA GPU; move it there "
                "first (e.g. tensor.cuda())")
        if len(v.shape) not in (2, 3):
            raise _core.UsageError(
                f"{name} has shape {list(v.shape)}: expected a matrix "
                f"({'A [M, K]' if name == 'a' else 'B [N, K]'}) or a batch of them "
                f"({'A [batch, M, K]' if name == 'a' else 'B [batch, N, K]'})")
    if va.dtype not in _INPUT_TYPES or vb.dtype not in _INPUT_TYPES or (
            va.dtype != vb.dtype and not (va.dtype in _FP8 and vb.dtype in _FP8)
            and not (va.dtype in _INT8 and vb.dtype in _INT8)):
        raise _core.UsageError(
            f"a is {va.dtype} and b is {vb.dtype}: A and B must be both bf16, both f16 or "
            "both f32 (tf32), or an fp8 pair (float8_e4m3fn, float8_e5m2) or an 8-bit "
            "integer pair (int8, uint8) (convert with .to(torch.bfloat16))")
    if va.device != vb.device:
        raise _core.UsageError(f"a is on {va.device_text} and b on {vb.device_text}: "
                               "put both on the same GPU")
    if va.shape[-1] != vb.shape[-1]:
        raise _core.UsageError(
            f"a is {list(va.shape)} and b is {list(vb.shape)}: C = A @ B^T needs A [M, K] and "
            f"B [N, K] with the same K ({va.shape[-1]} != {vb.shape[-1]}); for x @ W with W [K, N] "
            "pass W.T (for A @ B with B [batch, K, N] use gemm.bmm)")
    ba = va.shape[0] if len(va.shape) == 3 else None
    bb = vb.shape[0] if len(vb.shape) == 3 else None
    if ba is not None and bb is not None and ba != bb and 1 not in (ba, bb):
        raise _core.UsageError(
            f"a is {list(va.shape)} and b is {list(vb.shape)}: their batch sizes {ba} and {bb} "
            "differ (a batch of 1, or a 2-D operand, is broadcast to every entry)")
    return va, vb


def _stream_handle(mem, stream):
    """The CUDA stream handle (int) of `stream`: the framework's current
    stream when None, an int as it is, else its .cuda_stream (torch) or
    .ptr (CuPy)."""
    if stream is None:
        return mem.stream()
    if isinstance(stream, int):
        return stream
    handle = getattr(stream, "cuda_stream", None) or getattr(stream, "ptr", None)
    if not isinstance(handle, int):
        raise _core.UsageError("stream must be a CUDA stream handle (int) or an object "
                               "with .cuda_stream (torch) or .ptr (CuPy)")
    return handle


def _out_view(out, va, inputs, shape, shape_text, out_dtype, allowed, allowed_text):
    """The view of `out` (the caller's C), refused unless it is on the GPU
    of `va` (`inputs` names them in the message), of `shape` (`shape_text`
    says which), of out_dtype when that is given, and of a type of
    `allowed` (`allowed_text` leads their list in the message)."""
    vc = view(out, "out")
    if not vc.is_cuda or vc.device != va.device:
        raise _core.UsageError(f"out is on {vc.device_text}, {inputs} on {va.device_text}: "
                               "put out on the same GPU")
    if tuple(vc.shape) != tuple(shape):
        raise _core.UsageError(f"out has shape {list(vc.shape)}; {shape_text}")
    if out_dtype is not None and vc.dtype != out_dtype:
        raise _core.UsageError(f"out is {vc.dtype} but out_dtype is {out_dtype}")
    if vc.dtype not in allowed:
        raise _core.UsageError(f"out is {vc.dtype}: {allowed_text} {', '.join(allowed)}")
    return vc


def _round_ld(count, element_bytes, row_align=_ALIGN):
    """The smallest leading dimension >= count whose rows are `row_align`
    (16: TMA's rule) byte multiples."""
    return -(-count * element_bytes // row_align) * row_align // element_bytes


def _storage(v, align=_ALIGN):
    """How TMA can read the 2-D view v [rows, cols] as it is: ("row", ld) when
    its rows are contiguous (cols elements, ld apart), ("col", ld) when its
    columns are, None when neither (other strides, a misaligned base or
    leading dimension). A single row or column is read along its elements.
    With `align` = 1: how a kernel that takes pointers (the direct kernels)
    reads it, at any alignment."""
    rows, cols = v.shape
    if v.ptr % align:
        return None
    s0, s1 = v.strides
    eb = v.element_bytes
    if cols <= 1 or s1 == 1:
        ld = s0 if rows > 1 else _round_ld(cols, eb)
        if ld >= cols and (ld * eb) % align == 0:
            return "row", ld
    if rows <= 1 or s0 == 1:
        ld = s1 if cols > 1 else _round_ld(rows, eb)
        if ld >= rows and (ld * eb) % align == 0:
            return "col", ld
    return None


class _Matrix:
    """One operand as the kernel sees it: the 2-D view of its first batch
    entry (`first`), the storage order and leading dimension TMA reads it
    with (`storage`, None when it must be copied), and the elements between
    batch entries (`stride`: None for a plain matrix, 0 for one matrix every
    entry reads)."""
    __slots__ = ("first", "storage", "stride", "loose")

    def __init__(self, v, batch):
        from gemm._tensors import TensorView
        if len(v.shape) == 3:
            self.first = TensorView(v.obj, v.framework, v.ptr, tuple(v.shape[1:]),
                                    tuple(v.strides[1:]), v.dtype, v.is_cuda, v.device,
                                    v.device_text)
            self.stride = v.strides[0] if v.shape[0] > 1 else 0
        else:
            self.first, self.stride = v, 0
        if not batch:
            self.stride = None
        self.storage = _storage(self.first)
        # TMA reads batch entries a 16-byte multiple apart.
        if self.storage and self.stride and (self.stride * v.element_bytes) % _ALIGN:
            self.storage = None
        # How a kernel that takes pointers reads it (plain matrices only).
        self.loose = _storage(self.first, 1) if not batch else None


def _copy(mem, v, what, order, batch=None, row_align=_ALIGN):
    """An aligned copy of the operand v (a TensorView, 2-D or 3-D) in
    storage order `order` ("row" or "col"), packed entries of `batch` (None:
    a plain matrix), rows `row_align` byte multiples, and its _Matrix."""
    if mem.kind is None or mem.kind != v.framework:
        raise _core.UsageError(
            f"{what} is not row- or column-major with 16-byte-aligned rows (strides "
            f"{list(v.strides)}, address {v.ptr:#x}) and cannot be copied for you: make it "
            "contiguous with rows of a multiple of 16 bytes")
    rows, cols = v.shape[-2:]
    entries = batch or 1
    eb = v.element_bytes
    if order == "row":
        copy = mem.empty3(entries, rows, cols, v.dtype, _round_ld(cols, eb, row_align))
    else:
        copy = mem.transpose(mem.empty3(entries, cols, rows, v.dtype,
                                        _round_ld(rows, eb, row_align)))
    source = v.obj if len(v.shape) == 3 else mem.unsqueeze(v.obj)
    mem.copy(copy, source)   # broadcasts a single entry to every entry
    return _Matrix(view(copy if batch else mem.squeeze(copy), what), batch)


# A [M, K] stored "row" is gemm.matmul's a(row) (K-major); B [N, K] stored
# "row" (N rows of K) is b(col), the K-major B; C [M, N] as stored.
_B_LAYOUT = {"row": "col", "col": "row"}


def _run(kernel, a, b, out, stream, out_dtype, scales=None):
    """C = A @ B^T with `kernel` (a Kernel, a Config, or None: the
    dispatcher's choice), for matrices or batches of them. A call like one
    before (_signature) that copied nothing repeats that call's launch."""
    if scales is None:
        scales = _Scales(None, None, None, None, "promoted")
    signature = _signature(kernel, a, b, out, stream, out_dtype, scales)
    if signature is not None:
        launch = _launches.get(signature)
        if launch is not None:
            return launch(a, b, out, scales)
    va, vb = _check_inputs(a, b)
    m, k = va.shape[-2:]
    n = vb.shape[-2]
    batched = len(va.shape) == 3 or len(vb.shape) == 3
    batch = max(va.shape[0] if len(va.shape) == 3 else 1,
                vb.shape[0] if len(vb.shape) == 3 else 1) if batched else None
    out_shape = (batch, m, n) if batched else (m, n)
    device = va.device
    quant = scales.spelling(va, vb, out_dtype)
    if isinstance(kernel, Config):
        kernel = compile(kernel, va.dtype, vb.dtype, out_dtype or _default_output(va.dtype, scales),
                         batched=bool(batch and batch > 1), quant=quant)
        out_dtype = kernel.dtypes[2]
    elif kernel is not None and not isinstance(kernel, Kernel):
        raise _core.UsageError(f"config must be a gemm.Config, got {type(kernel).__name__}")
    if kernel is not None and kernel.dtypes[:2] != (va.dtype, vb.dtype):
        raise _core.UsageError(
            f"{kernel.name} takes {kernel.dtypes[0]} x {kernel.dtypes[1]} inputs; a and b "
            f"are {va.dtype} x {vb.dtype}")
    c_dtype = out_dtype or _default_output(va.dtype, scales)
    if c_dtype not in _OUTPUT_TYPES:
        raise _core.UsageError(f"out_dtype={c_dtype}: expected one of {', '.join(_OUTPUT_TYPES)}")
    vc = None
    if out is not None:
        vc = _out_view(out, va, "a and b", out_shape, f"C = A @ B^T is {list(out_shape)}",
                       out_dtype, _OUTPUT_TYPES, "expected one of")
        c_dtype = vc.dtype
    if kernel is not None and kernel.dtypes[2] != c_dtype:
        raise _core.UsageError(f"{kernel.name} writes {kernel.dtypes[2]}; the output is {c_dtype}")
    # WGMMA reads 8-bit and tf32 operands K-major only: such A and B are
    # used K-major (copied so when they are not).
    k_major = va.dtype not in ("bf16", "f16")
    if kernel is None:
        # Refuse pairs, outputs and scales no kernel takes before any GPU work.
        try:
            _core.check_problem(max(m, 1), max(n, 1), max(k, 1), va.dtype, c_dtype, vb.dtype,
                                quant, "row,col,row" if k_major else _DEFAULT_LAYOUTS,
                                batch if batched and batch else 1)
        except _core.DispatchError as e:
            raise _core.UsageError(str(e)) from None
    mem = memory(va.framework if vc is None else vc.framework, device)
    if m == 0 or n == 0 or k == 0 or batch == 0:
        # Nothing to launch; an empty K sums nothing.
        result = mem.empty_nd(out_shape, c_dtype) if out is None else out
        if k == 0 and m and n and batch != 0:
            mem.fill_zero(result)
        return result
    # A batch of one is one problem: the plain kernel runs it.
    multi = bool(batched and batch > 1)
    if kernel is not None and kernel.batched != multi:
        raise _core.UsageError(
            f"{kernel.name} is {'a batched' if kernel.batched else 'a plain'} kernel; "
            f"the problem is {'a batch of ' + str(batch) if multi else 'one matrix product'}: "
            f"compile the configuration with batched={multi}")

    ma = _Matrix(va, multi)
    mb = _Matrix(vb, multi)
    mc = _Matrix(vc, multi) if vc is not None else None
    transposed = False
    if kernel is None:
        # The storage order of each operand as it is (its contiguous
        # dimension, whatever the alignment), and what a TMA kernel of that
        # layout would have to copy (the runtime's rule): the dispatcher
        # weighs those copies against the direct kernels, which need none.
        # 8-bit and tf32 A and B are used K-major (copied so when they are
        # not): no direct kernel takes them.
        orders = [(x.loose or x.storage or ("row",))[0] if x else "row" for x in (ma, mb, mc)]
        if k_major:
            orders[:2] = ["row", "row"]
        layouts = f"{orders[0]},{_B_LAYOUT[orders[1]]},{orders[2]}"
        staged = None
        if not multi:
            staged = _staging(m, n, k, va.dtype, c_dtype, (ma, mb, mc), orders)
        kernel, transposed = _dispatch(m, n, k, va.dtype, c_dtype, layouts, device,
                                       batch if multi else 1, vb.dtype, quant, staged)
        want = orders
    else:
        la, lb, lc = kernel.layouts.split(",")
        want = [la, _B_LAYOUT[lb], lc]
    loaded = kernel.loaded(device)
    tma = kernel.tma

    # Operands TMA cannot read in the kernel's layout are copied; so are those
    # whose rows straddle L2 lines where the kernel reuses them enough for the
    # copy to pay (gemm::runtime::realignPays, as gemm-runner decides). A
    # kernel that takes pointers (the direct kernels) reads any rows as they
    # are: only an operand with no contiguous dimension in its layout is
    # copied for it.
    rows = m * (batch if multi else 1)
    copied = False
    for index, name, v, want_order in ((0, "a", va, want[0]), (1, "b", vb, want[1])):
        mx = ma if name == "a" else mb
        if not tma[index] and mx.loose and mx.loose[0] == want_order:
            mx.storage = mx.loose
        elif mx.storage is None or mx.storage[0] != want_order:
            mx = _copy(mem, v, name, want_order, batch if multi else None)
            copied = True
        if tma[index] and _core.realign_pays(name, rows, n, k, mx.storage[1] * v.element_bytes):
            mx = _copy(mem, v, name, want_order, batch if multi else None,
                       _core.STAGING_ROW_ALIGNMENT)
            copied = True
        if name == "a":
            ma = mx
        else:
            mb = mx
    result = out
    output = None
    if out is None:
        output = _Output(mem, (batch,) if batched else (), m, n, c_dtype, want[2])
        result = output.allocate()
        mc = _Matrix(view(result, "out"), multi)
    target = None
    if not tma[2] and mc.loose and mc.loose[0] == want[2]:
        mc.storage = mc.loose   # written as it is, at any alignment
    if mc.storage is None or mc.storage[0] != want[2] or (multi and mc.stride == 0) or \
            (tma[2] and not _core.tma_stores_whole_chunks(c_dtype, n if want[2] == "row" else m)):
        # Computed into an aligned buffer of the kernel's layout, then copied
        # into the caller's (a TMA store would also write the rest of each
        # line's last 16-byte chunk: the caller's next elements).
        entries = batch if multi else 1
        eb = mc.first.element_bytes
        target = mem.empty3(entries, m, n, c_dtype, _round_ld(n, eb)) if want[2] == "row" \
            else mem.transpose(mem.empty3(entries, n, m, c_dtype, _round_ld(m, eb)))
        if not batched:
            target = mem.squeeze(target)
        mc = _Matrix(view(target, "out"), multi)

    stream = _stream_handle(mem, stream)
    # The kernel's problem: this one, or the transposed C^T = B A^T (A and B
    # exchanged, each keeping its memory, leading dimension and batch
    # stride).
    km, kn = (n, m) if transposed else (m, n)
    first, second = (mb, ma) if transposed else (ma, mb)
    lda, ldb, ldc = first.storage[1], second.storage[1], mc.storage[1]
    kbatch = batch if multi else 1
    strides = (first.stride, second.stride, mc.stride) if multi else (None, None, None)
    workspaces = []
    plan = None
    if loaded.has_workspaces:
        plan = loaded.plan(km, kn, k, lda, ldb, ldc, kbatch, strides)
        for size, zeroed in plan.workspaces:
            # Per-call buffers come from the framework's caching allocator,
            # which hands them out again only after this launch on the stream.
            buffer = _workspace(kernel, mem, device, stream, size, zeroed)
            workspaces.append((buffer, mem.address(buffer)))
    sources = []
    if quant or c_dtype in _FP8 or loaded.has_scales:
        plan = plan or loaded.plan(km, kn, k, lda, ldb, ldc, kbatch, strides)
        sources = scales.sources(kernel, plan, c_dtype, device, transposed)
    loaded.run(km, kn, k, first.first.ptr, lda, second.first.ptr, ldb, mc.first.ptr, ldc,
               [w[1] for w in workspaces], stream, kbatch, strides,
               scales.addresses(sources, mem))
    if target is not None:
        mem.copy(result, target)
    elif signature is not None and not copied:
        _remember(_launches, signature, _Launch(
            kernel, loaded, mem, device, transposed, (km, kn, k, lda, ldb, ldc, kbatch, strides),
            plan.workspaces if workspaces else (), sources, output))
    return result


_launches = {}         # a call's _signature -> the _Launch its warm calls repeat
_MAX_LAUNCHES = 4096   # signatures remembered (forgotten all at once past that)


def _remember(launches, signature, launch):
    """Keeps `launch` for calls of `signature` in `launches` (this module's,
    or gemm._grouped's), at most _MAX_LAUNCHES of them."""
    if len(launches) >= _MAX_LAUNCHES:
        launches.clear()
    launches[signature] = launch


def _signature(kernel, a, b, out, stream, out_dtype, scales):
    """Everything _run decides from, for PyTorch tensors on the current
    stream (None for other calls, and for calls that autograd or
    torch.compile must see through the custom ops): the kernel or
    configuration asked for, the output type, the scales and _tensor_keys of
    A, B and out."""
    if stream is not None or not _plain_options(kernel, out_dtype):
        return None
    keys = _tensor_keys((a, b, out), (a, b))
    key_scales = None if keys is None else scales.signature()
    if key_scales is None:
        return None
    return (kernel, out_dtype, key_scales) + keys


def _plain_options(*options):
    """Whether each option of a call is None, a string, a Config or a
    Kernel: what a signature may hold (anything else goes the whole way and
    is refused there by name)."""
    return all(o is None or isinstance(o, (str, Config, Kernel)) for o in options)


def _tensor_keys(tensors, differentiable=()):
    """Of each of `tensors` (or None) what a call's choices depend on: its
    shape, strides, type, device and whether its address is a 16-byte
    multiple (TMA's rule; the direct kernels' is the element size). None
    when one is not a PyTorch tensor, under torch.compile's tracing (nothing
    here may touch the tensors then), or when autograd must see the call
    (one of `differentiable` requires grad)."""
    torch = sys.modules.get("torch")
    if torch is None or torch.compiler.is_compiling():
        return None
    tensor_types = (torch.Tensor, torch.nn.Parameter)
    keys = []
    for t in tensors:
        if t is None:
            keys.append(None)
            continue
        if type(t) not in tensor_types:
            return None
        keys.append((t.shape, t.stride(), t.dtype, t.get_device(), t.data_ptr() & 15))
    if differentiable and torch.is_grad_enabled() and any(t.requires_grad
                                                          for t in differentiable):
        return None
    return tuple(keys)


class _Output:
    """The output _run allocates: `entries` (() or (batch,)) of M x N of
    `dtype`, packed, stored `order` ("row" or "col")."""
    __slots__ = ("mem", "shape", "dtype", "order")

    def __init__(self, mem, entries, m, n, dtype, order):
        self.mem, self.dtype, self.order = mem, dtype, order
        self.shape = entries + ((m, n) if order == "row" else (n, m))

    def allocate(self):
        buffer = self.mem.empty_nd(self.shape, self.dtype)
        return buffer if self.order == "row" else self.mem.transpose(buffer)


class _Launch:
    """A call _run made that copied nothing (A, B and the output used as
    they are), to repeat for calls of the same signature: the kernel's
    problem, leading dimensions and batch strides, its workspaces, where its
    scale addresses come from, and the output to allocate (None: out)."""
    __slots__ = ("kernel", "loaded", "mem", "device", "transposed", "args", "workspaces",
                 "sources", "output")

    def __init__(self, kernel, loaded, mem, device, transposed, args, workspaces, sources,
                 output):
        self.kernel, self.loaded, self.mem, self.device = kernel, loaded, mem, device
        self.transposed, self.args, self.workspaces = transposed, args, tuple(workspaces)
        self.sources, self.output = sources, output

    def __call__(self, a, b, out, scales):
        mem = self.mem
        result = self.output.allocate() if out is None else out
        first, second = (b, a) if self.transposed else (a, b)
        stream = mem.stream()
        spaces = [mem.address(_workspace(self.kernel, mem, self.device, stream, size, zeroed))
                  for size, zeroed in self.workspaces] if self.workspaces else []
        km, kn, k, lda, ldb, ldc, batch, strides = self.args
        self.loaded.run(km, kn, k, first.data_ptr(), lda, second.data_ptr(), ldb,
                        result.data_ptr(), ldc, spaces, stream, batch, strides,
                        scales.addresses(self.sources, mem) if self.sources else [])
        return result


def _staging(m, n, k, dtype, c_dtype, matrices, orders):
    """(a, b, c): whether a TMA kernel in the layouts `orders` would have to
    copy each operand (gemm._core.tma_staging of their leading dimensions and
    addresses; an operand with no contiguous dimension is copied for every
    kernel, and an output not given is allocated packed and aligned)."""
    lds, addresses, unusable = [], [], []
    packed = (k if orders[0] == "row" else m, k if orders[1] == "row" else n,
              n if orders[2] == "row" else m)
    for mx, order, ld in zip(matrices, orders, packed):
        if mx is None:
            lds.append(ld)
            addresses.append(0)
            unusable.append(False)
        elif mx.loose and mx.loose[0] == order:
            lds.append(mx.loose[1])
            addresses.append(mx.first.ptr)
            unusable.append(False)
        else:
            lds.append(ld)
            addresses.append(0)
            unusable.append(True)
    flags = _core.tma_staging(m, n, k, dtype, c_dtype, tuple(lds), tuple(addresses),
                              f"{orders[0]},{_B_LAYOUT[orders[1]]},{orders[2]}")
    return tuple(f or u for f, u in zip(flags, unusable))


def _workspace(kernel, mem, device, stream, size, zeroed):
    """Workspaces the kernel leaves zeroed are allocated (zeroed) once per
    device, stream and size and reused: launches on one stream are ordered, so
    no two use one at once. Others are allocated per call from the caching
    allocator."""
    if not zeroed:
        return mem.bytes(size, False)
    key = (device, stream, size, mem.kind)
    cache = kernel._workspaces
    buffer = cache.get(key)
    if buffer is None:
        buffer = cache[key] = mem.bytes(size, True)
    return buffer
