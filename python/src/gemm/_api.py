"""matmul, compile, load: the three ways in.

C[M, N] = A[M, K] @ B[N, K]^T with A and B of one 16-bit type (bf16 or f16),
K contiguous in both, f32 accumulation, C in the input type (or out_dtype);
or of low precision (docs/LowPrecision.md): fp8 (e4m3, e5m2) and 8-bit
integer (s8, u8) pairs with their scale factors, f32 through tf32.
The kernel for a shape comes from the C++ dispatcher (the one gemm-runner
--library uses), from the kernel library shipped in the package when it has
it, else compiled on first use (gemm._jit). Warm calls look the kernel up in
a dictionary and launch: no compiling, no file I/O, no device
synchronisation.
"""
import dataclasses
import os
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

    def kernel_config(self, dtype="bf16", out_dtype=None, b_dtype=None, quant=""):
        """The gemm._core.KernelConfig of this configuration for these types
        (and, for fp8 and int8, the quant spelling of its scales: e.g. "tt",
        "rc", "bb", "ttf"; docs/LowPrecision.md)."""
        if self.arch != "sm_90a":
            raise _core.UsageError(
                f"arch {self.arch}: the package compiles sm_90a configurations; SM100 "
                "kernels are built and checked with gemm-opt (no SM100 GPU to run them)")
        if len(self.tile) != 3 or len(self.cluster) != 2:
            raise _core.UsageError(f"tile must be (BM, BN, BK) and cluster (CM, CN), got "
                                   f"{self.tile} and {self.cluster}")
        return _core.KernelConfig.make(dtype, out_dtype, tuple(self.tile), tuple(self.cluster),
                                       self.schedule, self.raster, self.swizzle, self.stages,
                                       self.splits, self.stream_k, b_dtype, quant)

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


def select(m, n, k, dtype="bf16", out_dtype=None, device=None, sm_count=None, b_dtype=None,
           quant=""):
    """The dispatcher's choice for a problem (gemm._core.Selection: config,
    source, reason), as matmul makes it: for GPU `device`'s SM count, or for
    `sm_count` (default 132, the H200) without a GPU. Low precision: B's
    type when it differs from A's, and the quant spelling of the scales
    ("tt" per tensor, "rc" per row of A and column of B, "bb" block-wise, a
    trailing "f" for fast fp8 accumulation)."""
    arch = "sm_90a"
    if device is not None:
        info = device_info(device)
        arch, sm_count = info["arch"] or "unknown", info["sm_count"]
    return _core.select(m, n, k, dtype, out_dtype, dispatch_model(), arch, sm_count or 132,
                        None, b_dtype, quant)


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

    def plan(self, m, n, k, sm_count=132):
        """The launch plan without a GPU (what gemm-runner --dry-run prints)."""
        return self.bundle.plan(m, n, k, sm_count)

    def __call__(self, a, b, out=None, stream=None, *, scale_a=None, scale_b=None,
                 scale_out=None, amax=None):
        scales = _Scales(scale_a, scale_b, scale_out, amax, "promoted")
        return _run(self, a, b, out, stream, self.dtypes[2], scales)


_kernels = {}        # manifest path, or ("config", name, cache dir) -> Kernel
_dispatched = {}     # (m, n, k, dtype, out dtype, device) -> Kernel


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


def compile(config, a_dtype="bf16", b_dtype=None, c_dtype=None, quant=""):
    """The kernel of `config` (a gemm.Config) for these types (and scales:
    `quant`, e.g. "tt", "rc", "bb"), from the kernel library when it has it,
    else compiled (once, then from the disk cache). Needs no GPU."""
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
        _core.check_problem(1, 1, 1, a_dtype, c_dtype, b_dtype, quant)
    except _core.DispatchError as e:
        raise _core.UsageError(str(e)) from None
    return _kernel_for_config(config.kernel_config(a_dtype, c_dtype, b_dtype, quant))


def load(manifest_path):
    """A kernel bundle compiled ahead of time (NAME.json beside NAME.ptx and
    NAME.cubin); no compiler needed."""
    path = os.path.abspath(os.fspath(manifest_path))
    kernel = _kernels.get(path)
    if kernel is None:
        kernel = _kernels[path] = Kernel(path)
    return kernel


def _dispatch(m, n, k, dtype, out_dtype, device, b_dtype=None, quant=""):
    key = (m, n, k, dtype, out_dtype, device, b_dtype, quant)
    kernel = _dispatched.get(key)
    if kernel is None:
        info = device_info(device)
        if info["arch"] != "sm_90a":
            raise _core.ArchMismatchError(
                f"GPU {device} ({info['name']}, compute capability "
                f"{'.'.join(map(str, info['compute_capability']))}) does not run sm_90a kernels; "
                "the package runs kernels on Hopper GPUs (compute capability 9.0)")
        selection = _core.select(m, n, k, dtype, out_dtype if out_dtype != dtype else None,
                                 dispatch_model(), "sm_90a", info["sm_count"], None,
                                 b_dtype if b_dtype != dtype else None, quant)
        kernel = _dispatched[key] = _kernel_for_config(selection.config)
    return kernel


def matmul(a, b, out=None, *, out_dtype=None, scale_a=None, scale_b=None, scale_out=None,
           amax=None, accumulate="promoted", config=None, stream=None):
    """C = A @ B^T for A [M, K] and B [N, K]; returns C [M, N].

    out: write into this tensor (M x N, of the output type) instead of a new
    one. out_dtype: "bf16", "f16", "f32", "e4m3", "e5m2" or "s32" (default:
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
    """
    from gemm import _torch_ops
    plain = (scale_a is None and scale_b is None and scale_out is None and amax is None
             and accumulate == "promoted")
    if plain and _torch_ops.is_torch(a, b, out) and stream is None and \
            _torch_ops.is_16bit(a, b):
        return _torch_ops.matmul(a, b, out, out_dtype, config)
    return matmul_impl(a, b, out, out_dtype, config, stream,
                       _Scales(scale_a, scale_b, scale_out, amax, accumulate))


def matmul_impl(a, b, out, out_dtype, config, stream, scales=None):
    if config is not None:
        va, vb = view(a, "a"), view(b, "b")
        c_dtype = out_dtype or _default_output(va.dtype, scales)
        quant = scales.spelling(va, vb, out_dtype) if scales else ""
        kernel = compile(config, va.dtype, vb.dtype, c_dtype, quant)
        return _run(kernel, a, b, out, stream, kernel.dtypes[2], scales)
    return _run(None, a, b, out, stream, out_dtype, scales)


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
            self.resolve(va, vb, va.shape[0], vb.shape[0], va.shape[1])
        la, lb = self.letters
        if la == "n" and lb == "n" and self.accumulate == "promoted":
            return ""
        return "q" + la + lb + ("f" if self.accumulate == "fast" else "")

    def pointers(self, kernel, plan, mem, c_dtype, device):
        """The scale and amax addresses in the kernel's parameter order."""
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
                    buffer = mem.bytes(4, True)
                    self._scratch = buffer
                    out.append(mem.address(buffer))
                    continue
                v = self._single(self.amax, "amax", device)
                mem.fill_zero(self.amax)  # the kernel only raises it
                out.append(v.ptr)
                continue
            if tensor == "c":
                out.append(self._single(self.scale_out, "scale_out", device).ptr)
                continue
            v = self.views.get(tensor)
            if v is None:
                raise _core.UsageError(
                    f"{kernel.name} takes scale_{tensor} ({granularity}, {rows} x {cols} f32)")
            out.append(v.ptr)
        for which in ("a", "b"):
            if self.views.get(which) is not None and not any(
                    t == which for t, _, _, _ in plan.scales):
                raise _core.UsageError(f"{kernel.name} takes no scale_{which}")
        return out

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
        if len(v.shape) != 2:
            raise _core.UsageError(
                f"{name} has shape {list(v.shape)}: expected a 2-D matrix "
                f"({'A [M, K]' if name == 'a' else 'B [N, K]'}); batched GEMM is not supported yet")
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
    if va.shape[1] != vb.shape[1]:
        raise _core.UsageError(
            f"a is {list(va.shape)} and b is {list(vb.shape)}: C = A @ B^T needs A [M, K] and "
            f"B [N, K] with the same K ({va.shape[1]} != {vb.shape[1]}); for x @ W with W [K, N] "
            "pass W.T")
    return va, vb


def _aligned(v):
    """Row-major with 16-byte-aligned rows and base: usable by TMA as it is."""
    rows, cols = v.shape
    if cols > 1 and v.strides[1] != 1:
        return False
    ld = v.strides[0] if rows > 1 else max(cols, 1)
    return v.ptr % _ALIGN == 0 and (ld * v.element_bytes) % _ALIGN == 0 and ld >= cols


def _leading_dim(v):
    rows, cols = v.shape
    if rows > 1:
        return v.strides[0]
    # A single row: any aligned stride at least the row length will do.
    return -(-cols * v.element_bytes // _ALIGN) * _ALIGN // v.element_bytes


def _staged(mem, v, what, row_align=_ALIGN):
    """A copy of `v` that TMA can read (contiguous rows, `row_align`-byte
    aligned: 16, or 128 where the runtime says realigning pays)."""
    if mem.kind is None or mem.kind != v.framework:
        raise _core.UsageError(
            f"{what} is not row-major with 16-byte-aligned rows (strides {list(v.strides)}, "
            f"address {v.ptr:#x}) and cannot be copied for you: make it contiguous with rows "
            "of a multiple of 16 bytes")
    rows, cols = v.shape
    ld = -(-cols * v.element_bytes // row_align) * row_align // v.element_bytes
    copy = mem.empty(rows, cols, v.dtype, ld)
    mem.copy(copy, v.obj)
    return view(copy, what)


def _run(kernel, a, b, out, stream, out_dtype, scales=None):
    va, vb = _check_inputs(a, b)
    m, k = va.shape
    n = vb.shape[0]
    device = va.device
    if kernel is not None and kernel.dtypes[:2] != (va.dtype, vb.dtype):
        raise _core.UsageError(
            f"{kernel.name} takes {kernel.dtypes[0]} x {kernel.dtypes[1]} inputs; a and b "
            f"are {va.dtype} x {vb.dtype}")
    if scales is None:
        scales = _Scales(None, None, None, None, "promoted")
    quant = scales.spelling(va, vb, out_dtype)
    c_dtype = out_dtype or _default_output(va.dtype, scales)
    if c_dtype not in _OUTPUT_TYPES:
        raise _core.UsageError(f"out_dtype={c_dtype}: expected one of {', '.join(_OUTPUT_TYPES)}")
    vc = None
    if out is not None:
        vc = view(out, "out")
        if not vc.is_cuda or vc.device != device:
            raise _core.UsageError(f"out is on {vc.device_text}, a and b on {va.device_text}: "
                                   "put out on the same GPU")
        if tuple(vc.shape) != (m, n):
            raise _core.UsageError(f"out has shape {list(vc.shape)}; C = A @ B^T is [{m}, {n}]")
        if out_dtype is not None and vc.dtype != out_dtype:
            raise _core.UsageError(f"out is {vc.dtype} but out_dtype is {out_dtype}")
        c_dtype = vc.dtype
        if c_dtype not in _OUTPUT_TYPES:
            raise _core.UsageError(f"out is {c_dtype}: expected one of "
                                   f"{', '.join(_OUTPUT_TYPES)}")
    if kernel is not None and kernel.dtypes[2] != c_dtype:
        raise _core.UsageError(f"{kernel.name} writes {kernel.dtypes[2]}; the output is {c_dtype}")
    if kernel is None:
        # Refuse pairs, outputs and scales no kernel takes before any GPU work.
        try:
            _core.check_problem(max(m, 1), max(n, 1), max(k, 1), va.dtype, c_dtype, vb.dtype,
                                quant)
        except _core.DispatchError as e:
            raise _core.UsageError(str(e)) from None
    mem = memory(va.framework if vc is None else vc.framework, device)
    if m == 0 or n == 0 or k == 0:
        # Nothing to launch; an empty K sums nothing.
        result = mem.empty(m, n, c_dtype) if out is None else out
        if k == 0 and m and n:
            mem.fill_zero(result)
        return result
    if kernel is None:
        kernel = _dispatch(m, n, k, va.dtype, c_dtype, device, vb.dtype, quant)
    loaded = kernel.loaded(device)

    # Operands TMA cannot read are copied; so are those whose rows straddle
    # L2 lines where the kernel reuses them enough for the copy to pay
    # (gemm::runtime::realignPays, as gemm-runner decides).
    for name in ("a", "b"):
        v = va if name == "a" else vb
        if not _aligned(v):
            v = _staged(mem, v, name)
        elif _core.realign_pays(name, m, n, k, _leading_dim(v) * v.element_bytes):
            v = _staged(mem, v, name, _core.STAGING_ROW_ALIGNMENT)
        if name == "a":
            va = v
        else:
            vb = v
    result = out
    if out is None:
        result = mem.empty(m, n, c_dtype)
        vc = view(result, "out")
    target = None
    if not _aligned(vc):
        # Computed into aligned rows, then copied into the caller's layout.
        target = mem.empty(m, n, c_dtype, -(-n * vc.element_bytes // _ALIGN) * _ALIGN
                           // vc.element_bytes)
        vc = view(target, "out")

    if stream is None:
        stream = mem.stream()
    elif not isinstance(stream, int):
        stream = getattr(stream, "cuda_stream", None) or getattr(stream, "ptr", None)
        if not isinstance(stream, int):
            raise _core.UsageError("stream must be a CUDA stream handle (int) or an object "
                                   "with .cuda_stream (torch) or .ptr (CuPy)")
    lda, ldb, ldc = _leading_dim(va), _leading_dim(vb), _leading_dim(vc)
    workspaces = []
    plan = None
    if loaded.has_workspaces:
        plan = loaded.plan(m, n, k, lda, ldb, ldc)
        for size, zeroed in plan.workspaces:
            # Per-call buffers come from the framework's caching allocator,
            # which hands them out again only after this launch on the stream.
            buffer = _workspace(kernel, mem, device, stream, size, zeroed)
            workspaces.append((buffer, mem.address(buffer)))
    pointers = []
    if quant or c_dtype in _FP8 or loaded.has_scales:
        plan = plan or loaded.plan(m, n, k, lda, ldb, ldc)
        pointers = scales.pointers(kernel, plan, mem, c_dtype, device)
    loaded.run(m, n, k, va.ptr, lda, vb.ptr, ldb, vc.ptr, ldc, [w[1] for w in workspaces], stream,
               pointers)
    if target is not None:
        mem.copy(result, target)
    return result


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
