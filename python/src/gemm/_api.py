"""matmul, compile, load: the three ways in.

C[M, N] = A[M, K] @ B[N, K]^T with A and B of one 16-bit type (bf16 or f16),
K contiguous in both, f32 accumulation, C in the input type (or out_dtype).
The kernel for a shape comes from the C++ dispatcher (the one gemm-runner
--library uses), from the kernel library shipped in the package when it has
it, else compiled on first use (gemm._jit). Warm calls look the kernel up in
a dictionary and launch: no compiling, no file I/O, no device
synchronisation.

Kernels that read a matrix through TMA need its rows and address 16-byte
aligned; a matrix that is not (or whose rows are worth realigning) is copied
for them, by the runtime's rule (gemm._core.tma_staging), and the dispatcher
counts the copies against those kernels. The direct kernels (schedule =
direct) take any leading dimension and address: nothing is copied for them.
"""
import dataclasses
import os
import threading

from gemm import _core, _jit
from gemm._tensors import memory, view

# What the build installs (data/, kernels/, bin/) lies beside the compiled
# module, which in an editable install is not beside these sources.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(_core.__file__))
_INPUT_TYPES = ("bf16", "f16")
_OUTPUT_TYPES = ("bf16", "f16", "f32")
_ALIGN = 16  # TMA: base addresses and row strides are 16-byte multiples
_NO_STAGING = (False, False, False)


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

    def kernel_config(self, dtype="bf16", out_dtype=None):
        """The gemm._core.KernelConfig of this configuration for these types."""
        if self.arch != "sm_90a":
            raise _core.UsageError(
                f"arch {self.arch}: the package compiles sm_90a configurations; SM100 "
                "kernels are built and checked with gemm-opt (no SM100 GPU to run them)")
        if len(self.tile) != 3 or len(self.cluster) != 2:
            raise _core.UsageError(f"tile must be (BM, BN, BK) and cluster (CM, CN), got "
                                   f"{self.tile} and {self.cluster}")
        return _core.KernelConfig.make(dtype, out_dtype, tuple(self.tile), tuple(self.cluster),
                                       self.schedule, self.raster, self.swizzle, self.stages,
                                       self.splits, self.stream_k)

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


def select(m, n, k, dtype="bf16", out_dtype=None, device=None, sm_count=None, staged=None):
    """The dispatcher's choice for a problem (gemm._core.Selection: config,
    source, reason), as matmul makes it: for GPU `device`'s SM count, or for
    `sm_count` (default 132, the H200) without a GPU. `staged`: which of A, B,
    C a TMA kernel would have to copy (gemm._core.tma_staging of the
    caller's strides and addresses); default: packed rows, as gemm-runner
    --library assumes."""
    arch = "sm_90a"
    if device is not None:
        info = device_info(device)
        arch, sm_count = info["arch"] or "unknown", info["sm_count"]
    return _core.select(m, n, k, dtype, out_dtype, dispatch_model(), arch, sm_count or 132,
                        None, staged)


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
        # Which matrices it reads (writes) through TMA, which needs aligned
        # rows; the others it takes as pointers.
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

    def plan(self, m, n, k, sm_count=132):
        """The launch plan without a GPU (what gemm-runner --dry-run prints)."""
        return self.bundle.plan(m, n, k, sm_count)

    def __call__(self, a, b, out=None, stream=None):
        return _run(self, a, b, out, stream, self.dtypes[2])


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


def compile(config, a_dtype="bf16", b_dtype=None, c_dtype=None):
    """The kernel of `config` (a gemm.Config) for these types, from the kernel
    library when it has it, else compiled (once, then from the disk cache).
    Needs no GPU."""
    if isinstance(config, str):
        config = Config.from_kernel_config(_core.KernelConfig(config, a_dtype))
    if not isinstance(config, Config):
        raise _core.UsageError(f"config must be a gemm.Config, got {type(config).__name__}")
    b_dtype = b_dtype or a_dtype
    if a_dtype not in _INPUT_TYPES or b_dtype != a_dtype:
        raise _core.UsageError(
            f"a_dtype={a_dtype}, b_dtype={b_dtype}: sm_90a kernels take A and B of one type, "
            "bf16 or f16")
    if c_dtype is not None and c_dtype not in _OUTPUT_TYPES:
        raise _core.UsageError(f"c_dtype={c_dtype}: expected one of {', '.join(_OUTPUT_TYPES)}")
    return _kernel_for_config(config.kernel_config(a_dtype, c_dtype))


def load(manifest_path):
    """A kernel bundle compiled ahead of time (NAME.json beside NAME.ptx and
    NAME.cubin); no compiler needed."""
    path = os.path.abspath(os.fspath(manifest_path))
    kernel = _kernels.get(path)
    if kernel is None:
        kernel = _kernels[path] = Kernel(path)
    return kernel


def _dispatch(m, n, k, dtype, out_dtype, device, staged):
    key = (m, n, k, dtype, out_dtype, device, staged)
    kernel = _dispatched.get(key)
    if kernel is None:
        info = device_info(device)
        if info["arch"] != "sm_90a":
            raise _core.ArchMismatchError(
                f"GPU {device} ({info['name']}, compute capability "
                f"{'.'.join(map(str, info['compute_capability']))}) does not run sm_90a kernels; "
                "the package runs kernels on Hopper GPUs (compute capability 9.0)")
        selection = _core.select(m, n, k, dtype, out_dtype if out_dtype != dtype else None,
                                 dispatch_model(), "sm_90a", info["sm_count"], None, staged)
        kernel = _dispatched[key] = _kernel_for_config(selection.config)
    return kernel


def matmul(a, b, out=None, *, out_dtype=None, config=None, stream=None):
    """C = A @ B^T for A [M, K] and B [N, K]; returns C [M, N].

    out: write into this tensor (M x N, of the output type) instead of a new
    one. out_dtype: "bf16", "f16" or "f32" (default: the input type).
    config: a gemm.Config to use instead of the dispatcher's choice.
    stream: a CUDA stream handle (int) for non-PyTorch, non-CuPy tensors;
    otherwise the framework's current stream is used.
    """
    from gemm import _torch_ops
    if _torch_ops.is_torch(a, b, out) and stream is None:
        return _torch_ops.matmul(a, b, out, out_dtype, config)
    return matmul_impl(a, b, out, out_dtype, config, stream)


def matmul_impl(a, b, out, out_dtype, config, stream):
    if config is not None:
        dtype = view(a, "a").dtype
        kernel = compile(config, dtype, dtype, out_dtype)
        return _run(kernel, a, b, out, stream, kernel.dtypes[2])
    return _run(None, a, b, out, stream, out_dtype)


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
    if va.dtype != vb.dtype or va.dtype not in _INPUT_TYPES:
        raise _core.UsageError(
            f"a is {va.dtype} and b is {vb.dtype}: A and B must be both bf16 or both f16 "
            "(convert with .to(torch.bfloat16))")
    if va.device != vb.device:
        raise _core.UsageError(f"a is on {va.device_text} and b on {vb.device_text}: "
                               "put both on the same GPU")
    if va.shape[1] != vb.shape[1]:
        raise _core.UsageError(
            f"a is {list(va.shape)} and b is {list(vb.shape)}: C = A @ B^T needs A [M, K] and "
            f"B [N, K] with the same K ({va.shape[1]} != {vb.shape[1]}); for x @ W with W [K, N] "
            "pass W.T")
    return va, vb


def _rows(v):
    """Rows of contiguous elements, `ld` apart: what every kernel reads."""
    rows, cols = v.shape
    return (cols <= 1 or v.strides[1] == 1) and (rows <= 1 or v.strides[0] >= cols)


def _leading_dim(v):
    rows, cols = v.shape
    if rows > 1:
        return v.strides[0]
    # A single row: any aligned stride at least the row length will do.
    return -(-cols * v.element_bytes // _ALIGN) * _ALIGN // v.element_bytes


def _staged(mem, v, what):
    """A copy of `v` in rows TMA reads well: contiguous, 128-byte multiples
    (gemm._core.STAGING_ROW_ALIGNMENT, as the runtime's staging copies)."""
    if mem.kind is None or mem.kind != v.framework:
        raise _core.UsageError(
            f"{what} is not row-major with 16-byte-aligned rows (strides {list(v.strides)}, "
            f"address {v.ptr:#x}) and cannot be copied for you: make it contiguous with rows "
            "of a multiple of 16 bytes")
    rows, cols = v.shape
    row_align = _core.STAGING_ROW_ALIGNMENT
    ld = -(-cols * v.element_bytes // row_align) * row_align // v.element_bytes
    copy = mem.empty(rows, cols, v.dtype, ld)
    mem.copy(copy, v.obj)
    return view(copy, what)


def _run(kernel, a, b, out, stream, out_dtype):
    va, vb = _check_inputs(a, b)
    m, k = va.shape
    n = vb.shape[0]
    device = va.device
    if kernel is not None and kernel.dtypes[0] != va.dtype:
        raise _core.UsageError(
            f"{kernel.name} takes {kernel.dtypes[0]} inputs; a and b are {va.dtype}")
    c_dtype = out_dtype or va.dtype
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
    mem = memory(va.framework if vc is None else vc.framework, device)
    if m == 0 or n == 0 or k == 0:
        # Nothing to launch; an empty K sums nothing.
        result = mem.empty(m, n, c_dtype) if out is None else out
        if k == 0 and m and n:
            mem.fill_zero(result)
        return result
    # Every kernel reads rows of contiguous elements: other views of A and B
    # are copied first, for any kernel.
    if not _rows(va):
        va = _staged(mem, va, "a")
    if not _rows(vb):
        vb = _staged(mem, vb, "b")
    result = out
    if out is None:
        result = mem.empty(m, n, c_dtype)
        vc = view(result, "out")
    # What a TMA kernel would have to copy (the runtime's rule): the
    # dispatcher weighs those copies against the kernels that need none.
    staged = _NO_STAGING
    if _rows(vc):
        staged = _core.tma_staging(m, n, k, va.dtype, c_dtype,
                                   (_leading_dim(va), _leading_dim(vb), _leading_dim(vc)),
                                   (va.ptr, vb.ptr, vc.ptr))
    if kernel is None:
        kernel = _dispatch(m, n, k, va.dtype, c_dtype, device, staged)
    loaded = kernel.loaded(device)
    tma = kernel.tma
    if tma[0] and staged[0]:
        va = _staged(mem, va, "a")
    if tma[1] and staged[1]:
        vb = _staged(mem, vb, "b")
    target = None
    if not _rows(vc) or (tma[2] and staged[2]):
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
    if loaded.has_workspaces:
        for size, zeroed in loaded.plan(m, n, k, lda, ldb, ldc).workspaces:
            # Per-call buffers come from the framework's caching allocator,
            # which hands them out again only after this launch on the stream.
            buffer = _workspace(kernel, mem, device, stream, size, zeroed)
            workspaces.append((buffer, mem.address(buffer)))
    loaded.run(m, n, k, va.ptr, lda, vb.ptr, ldb, vc.ptr, ldc, [w[1] for w in workspaces], stream)
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
