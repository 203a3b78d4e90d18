"""grouped_matmul and grouped_mm: grouped (MoE) GEMM in one launch.

G problems of different M (the tokens routed to each expert) with shared N
and K: A is one [sum of M_g, K] matrix whose groups are consecutive rows, B
holds one N x K matrix per group, C is [sum of M_g, N]. Group g is the rows
[offs[g - 1], offs[g]) of A and C (offs[-1] = 0): torch._grouped_mm's
`offs`, the cumulative ends, an int32 (or int64) tensor on the GPU, so a
router's output is used as it is. The host never reads the offsets: the
runtime's prep kernel turns them into the group table on the stream
(docs/Runtime.md, "Groups"), then the grouped kernel that the dispatcher
picks for G, the rows, N and K runs. Offsets that decrease or pass the end
of A are found by the prep kernel, which then makes the kernel write
nothing; `check=True` synchronises and raises UsageError naming the group.
"""
import functools

from gemm import _api, _core
from gemm._tensors import TensorView, memory, view

_ALIGN = 16
_OUT_TYPES = ("bf16", "f16", "f32")
_dispatched = {}  # (rows, n, k, groups, dtype, c dtype, B layout, device) -> Kernel


def grouped_mm(a, b, offs, out=None, *, out_dtype=None, config=None, stream=None,
               check=False):
    """torch._grouped_mm(a, b, offs=offs) for A [sum of M_g, K] and B
    [G, K, N]: C[rows of g] = A[rows of g] @ B[g]; returns C [sum of M_g, N].
    The same as grouped_matmul(a, b^T, offs) with B's last two dimensions
    exchanged (a view, no copy: a row-major [G, K, N] B is the N-major B of
    the kernels, and the transposed view of a [G, N, K] one the K-major
    B)."""
    signature = _signature("mm", a, b, offs, out, out_dtype, config, stream, check)
    launch = _launches.get(signature) if signature is not None else None
    if launch is not None:
        return launch(a, b, offs, out)
    vb = view(b, "b")
    if len(vb.shape) == 3:
        vb = TensorView(vb.obj, vb.framework, vb.ptr, (vb.shape[0], vb.shape[2], vb.shape[1]),
                        (vb.strides[0], vb.strides[2], vb.strides[1]), vb.dtype, vb.is_cuda,
                        vb.device, vb.device_text)
    return _grouped(view(a, "a"), vb, view(offs, "offs"), out, out_dtype, config, stream,
                    check, signature)


def grouped_matmul(a, b, offs, out=None, *, out_dtype=None, config=None, stream=None,
                   check=False):
    """C[rows of g] = A[rows of g] @ B[g]^T for A [sum of M_g, K], B
    [G, N, K] and offs [G] (the groups' cumulative row ends, int32 or int64
    on the GPU: group g is rows offs[g - 1] to offs[g] of A and C, from 0);
    returns C [sum of M_g, N].

    A and B are both bf16 or both f16; C is the input type or out_dtype
    ("bf16", "f16", "f32"). A and C are row-major, B K-major ([G, N, K]
    with K contiguous) or N-major (N contiguous: the transposed view of a
    [G, K, N] tensor), each used where it lies: rows (and B's entries) must
    be 16-byte multiples apart at 16-byte-aligned addresses, since the
    grouped kernels read the groups' rows through TMA. Groups may be empty
    and of any size; rows of A past offs[-1] are not read and the same rows
    of C not written.

    No host synchronisation: the offsets are read on the GPU as they are
    (the prep kernel takes the G ends, the first group starting at row 0). If
    they decrease or pass the end of A, the kernel writes nothing; with
    check=True the call synchronises and raises UsageError naming the first
    bad group and its offsets. config: a gemm.Config instead of the
    dispatcher's choice (compiled as a grouped kernel). stream: a CUDA
    stream handle for non-PyTorch, non-CuPy tensors.
    """
    signature = _signature("matmul", a, b, offs, out, out_dtype, config, stream, check)
    launch = _launches.get(signature) if signature is not None else None
    if launch is not None:
        return launch(a, b, offs, out)
    return _grouped(view(a, "a"), view(b, "b"), view(offs, "offs"), out, out_dtype, config,
                    stream, check, signature)


_launches = {}  # a call's _signature -> the _Launch its calls repeat


def _signature(form, a, b, offs, out, out_dtype, config, stream, check):
    """Everything _grouped decides from, for PyTorch tensors on the current
    stream without check (None otherwise): the form (grouped_mm's B is
    [G, K, N]), the options and _api._tensor_keys of the tensors."""
    if stream is not None or check or not _api._plain_options(out_dtype, config):
        return None
    keys = _api._tensor_keys((a, b, offs, out))
    return None if keys is None else (form, out_dtype, config) + keys


class _Launch:
    """A grouped call to repeat for calls of the same signature: the
    kernel, the problem and leading dimensions, the group table's size and
    the output to allocate (None: out)."""
    __slots__ = ("loaded", "mem", "args", "table_bytes", "output")

    def __init__(self, loaded, mem, args, table_bytes, output):
        self.loaded, self.mem, self.args = loaded, mem, args
        self.table_bytes, self.output = table_bytes, output

    def __call__(self, a, b, offs, out):
        mem = self.mem
        result = out if out is not None else mem.empty_nd(*self.output)
        table = mem.bytes(self.table_bytes, False)
        rows, n, k, groups, lda, ldb, b_stride, ldc, offsets64 = self.args
        self.loaded.run_grouped(rows, n, k, groups, a.data_ptr(), lda, b.data_ptr(), ldb,
                                b_stride, result.data_ptr(), ldc, offs.data_ptr(), offsets64,
                                True, mem.address(table), self.table_bytes, mem.stream())
        return result


def _grouped(va, vb, vo, out, out_dtype, config, stream, check, signature=None):
    """grouped_matmul on the views of A, B [G, N, K] and offs; a call of a
    `signature` is remembered to be repeated."""
    _check_tensors(va, vb, vo)
    rows, k = va.shape
    groups, n = vb.shape[0], vb.shape[1]
    device = va.device
    c_dtype = out_dtype or va.dtype
    if c_dtype not in _OUT_TYPES:
        raise _core.UsageError(f"out_dtype={c_dtype}: grouped kernels write "
                               f"{', '.join(_OUT_TYPES)}")
    eb = va.element_bytes
    for name, value in (("K", k), ("N", n)):
        if (value * eb) % _ALIGN:
            raise _core.UsageError(
                f"{name} = {value}: grouped kernels read the caller's rows through TMA (no "
                f"copies), so rows of {name} x {eb} bytes must be a multiple of {_ALIGN} "
                f"bytes: pad {name} to a multiple of {_ALIGN // eb}")
    # B's storage: K-major ([G, N, K], K contiguous) or N-major.
    s_g, s_n, s_k = vb.strides
    if s_k == 1 or k == 1:
        b_layout, ldb = "col", (s_n if n > 1 else _round(k, eb))
    elif s_n == 1 or n == 1:
        b_layout, ldb = "row", (s_k if k > 1 else _round(n, eb))
    else:
        raise _core.UsageError(
            f"b has strides {list(vb.strides)}: grouped kernels read each B[g] K-major "
            "([G, N, K] with K contiguous) or N-major (N contiguous, e.g. the transposed view "
            "of a [G, K, N] tensor); make it contiguous")
    b_stride = s_g if groups > 1 else (n * ldb if b_layout == "col" else k * ldb)
    _check_aligned("b", vb.ptr, ldb, eb, n if b_layout == "col" else k,
                   "B[g]'s rows" if b_layout == "col" else "B[g]'s columns (N-major)")
    if groups > 1 and (b_stride * eb) % _ALIGN:
        raise _core.UsageError(
            f"b: its groups are {b_stride} elements ({b_stride * eb} bytes) apart; grouped "
            f"kernels read B through TMA, which needs a multiple of {_ALIGN} bytes: make b "
            "contiguous")
    lda = va.strides[0] if rows > 1 else _round(k, eb)
    if rows and va.strides[1] != 1 and k > 1:
        raise _core.UsageError(
            f"a has strides {list(va.strides)}: grouped kernels read A as [sum of M_g, K] "
            "rows (K contiguous); make it contiguous")
    _check_aligned("a", va.ptr, lda, eb, rows, "A's rows")

    mem = memory(va.framework, device)
    vc = None
    if out is not None:
        vc = _api._out_view(out, va, "a", (rows, n), f"C is [sum of M_g, N] = {[rows, n]}",
                            out_dtype, _OUT_TYPES, "grouped kernels write")
        c_dtype = vc.dtype
        if rows and n and vc.strides[1] != 1 and n > 1:
            raise _core.UsageError(
                f"out has strides {list(vc.strides)}: grouped kernels write C as [sum of M_g, "
                "N] rows (N contiguous)")
    result = out if out is not None else mem.empty_nd((rows, n), c_dtype)
    if rows == 0 or n == 0:
        if check:
            _check_on_host(mem, vo, groups, rows)
        return result
    if k == 0:
        mem.fill_zero(result)
        if check:
            _check_on_host(mem, vo, groups, rows)
        return result
    vc = view(result, "out")
    ldc = vc.strides[0] if rows > 1 else _round(n, vc.element_bytes)
    _check_aligned("out", vc.ptr, ldc, vc.element_bytes, rows, "C's rows")

    layouts = f"row,{b_layout},row"
    if config is not None:
        if not isinstance(config, _api.Config):
            raise _core.UsageError(
                f"config must be a gemm.Config, got {type(config).__name__}")
        kernel = _api.compile(config, va.dtype, va.dtype, c_dtype, layouts, grouped=True)
    else:
        kernel = _dispatch(rows, n, k, groups, va.dtype, c_dtype, layouts, device)
    loaded = kernel.loaded(device)
    stream = _api._stream_handle(mem, stream)
    table_bytes = _table_bytes(loaded, rows, n, k, lda, ldb, ldc, b_stride, groups)
    # From the caller's allocator on its stream, like the output: reused only
    # after this launch.
    table = mem.bytes(table_bytes, False)
    # The prep kernel reads torch's G ends as they are (the first group
    # starts at row 0).
    loaded.run_grouped(rows, n, k, groups, va.ptr, lda, vb.ptr, ldb, b_stride, vc.ptr, ldc,
                       vo.ptr, vo.dtype == "s64", True, mem.address(table), table_bytes,
                       stream)
    if check:
        header = mem.read_words(table, 2)
        if header[1]:
            _raise_bad_offsets(vo.obj, header[1] - 1, rows)
    elif signature is not None:
        _api._remember(_launches, signature, _Launch(
            loaded, mem, (rows, n, k, groups, lda, ldb, b_stride, ldc, vo.dtype == "s64"),
            table_bytes, None if out is not None else ((rows, n), c_dtype)))
    return result


@functools.lru_cache(maxsize=1024)
def _table_bytes(loaded, rows, n, k, lda, ldb, ldc, b_stride, groups):
    """The group table's bytes for the launch (planned once per problem: the
    launch plans it again and checks the problem)."""
    plan = loaded.plan(rows, n, k, lda, ldb, ldc, 1, (None, b_stride, None), groups)
    return plan.group_table_bytes


def _dispatch(rows, n, k, groups, dtype, c_dtype, layouts, device):
    key = (rows, n, k, groups, dtype, c_dtype, layouts, device)
    kernel = _dispatched.get(key)
    if kernel is None:
        info = _api.device_info(device)
        if info["arch"] != "sm_90a":
            raise _core.ArchMismatchError(
                f"GPU {device} ({info['name']}) does not run sm_90a kernels; the package runs "
                "kernels on Hopper GPUs (compute capability 9.0)")
        selection = _api._select(rows, n, k, dtype, c_dtype if c_dtype != dtype else None,
                                 "sm_90a", info["sm_count"], layouts, groups=groups)
        kernel = _dispatched[key] = _api._kernel_for_config(selection.config)
    return kernel


def _round(count, element_bytes):
    return -(-count * element_bytes // _ALIGN) * _ALIGN // element_bytes


def _check_aligned(name, ptr, ld, eb, rows, what):
    if ptr % _ALIGN:
        raise _core.UsageError(
            f"{name} starts at {ptr:#x}, not a multiple of {_ALIGN} bytes: grouped kernels read "
            "it through TMA as it lies (no copies); pass an aligned tensor (e.g. .contiguous() "
            "or .clone())")
    if rows > 1 and (ld * eb) % _ALIGN:
        raise _core.UsageError(
            f"{name}: {what} are {ld} elements ({ld * eb} bytes) apart, not a multiple of "
            f"{_ALIGN} bytes: grouped kernels read them through TMA as they lie (no copies); "
            "pad the rows to a multiple of 16 bytes")


def _check_tensors(va, vb, vo):
    if va.dtype not in ("bf16", "f16") or vb.dtype != va.dtype:
        raise _core.UsageError(
            f"a is {va.dtype} and b {vb.dtype}: grouped kernels take bf16 or f16 A and B, both "
            "the same; convert them (e.g. .to(torch.bfloat16))")
    if len(va.shape) != 2:
        raise _core.UsageError(
            f"a has shape {list(va.shape)}: grouped_matmul takes A as [sum of M_g, K] (the "
            "groups' rows one after the other)")
    if len(vb.shape) != 3:
        raise _core.UsageError(
            f"b has shape {list(vb.shape)}: grouped_matmul takes B as [G, N, K] (one N x K "
            "matrix per group; grouped_mm takes torch._grouped_mm's [G, K, N])")
    for name, v in (("a", va), ("b", vb), ("offs", vo)):
        if not v.is_cuda:
            raise _core.UsageError(f"{name} is on {v.device_text}: grouped_matmul runs on the "
                                   "GPU; move it there (offs too: the kernel reads it there)")
    if vb.device != va.device or vo.device != va.device:
        raise _core.UsageError(
            f"a is on {va.device_text}, b on {vb.device_text}, offs on {vo.device_text}: put "
            "them on one GPU")
    if vb.shape[0] == 0:
        raise _core.UsageError("b has no groups (G = 0): a grouped problem needs at least one "
                               "group")
    if va.shape[1] != vb.shape[2]:
        raise _core.UsageError(
            f"a is {list(va.shape)} and b {list(vb.shape)}: K differs ({va.shape[1]} vs "
            f"{vb.shape[2]}); B is [G, N, K] (for torch._grouped_mm's [G, K, N] use "
            "gemm.grouped_mm)")
    if vo.dtype not in ("s32", "s64"):
        raise _core.UsageError(
            f"offs is {vo.dtype}: the group offsets are int32 (torch._grouped_mm's) or int64")
    if len(vo.shape) != 1 or vo.shape[0] != vb.shape[0]:
        raise _core.UsageError(
            f"offs has shape {list(vo.shape)} and b {vb.shape[0]} groups: offs holds the G "
            f"cumulative row ends of the groups, shape [{vb.shape[0]}]")
    if vo.shape[0] > 1 and vo.strides[0] != 1:
        raise _core.UsageError(f"offs has stride {vo.strides[0]}: make it contiguous")
    if vo.ptr % vo.element_bytes:
        raise _core.UsageError(
            f"offs starts at {vo.ptr:#x}, not a multiple of its {vo.element_bytes}-byte "
            "elements: pass an aligned tensor (e.g. .clone())")


def _check_on_host(mem, vo, groups, rows):
    """check=True where nothing is launched: the offsets read back and
    checked by the runtime's rule."""
    ends = [int(x) for x in vo.obj.tolist()]
    problems = _core.check_group_offsets([0] + ends, rows)
    if problems:
        raise _core.UsageError(_bad_offsets_message(problems, rows))


def _raise_bad_offsets(ends, group, rows):
    values = [0] + [int(x) for x in ends.tolist()]
    problems = _core.check_group_offsets(values, rows) or [
        f"group {group}: offsets {values[group]} to {values[group + 1]}"]
    raise _core.UsageError(_bad_offsets_message(problems, rows))


def _bad_offsets_message(problems, rows):
    return ("offs (read as the G + 1 offsets [0, *offs]): " + "; ".join(problems) +
            f" (A has {rows} rows; offs are the groups' "
            "cumulative row ends, non-decreasing, at most the rows of A); the kernel wrote "
            "nothing")
