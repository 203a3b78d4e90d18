"""The package on an sm_90a GPU with PyTorch: results against torch.matmul
over shapes, types and configurations, staging of tensors TMA cannot read,
the caller's stream, torch.compile, CuPy, the library and explicit kernels,
memory over 10,000 calls, and the errors only a GPU can raise."""
import os
import re
import subprocess
import sys
import textwrap

import pytest

import gemm

pytestmark = [pytest.mark.gpu, pytest.mark.torch]

torch = pytest.importorskip("torch")

TYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
# Relative Frobenius error bounds by output type (docs/Runtime.md): f32
# accumulation; the output rounding dominates.
TOLERANCE = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-4}


def reference(a, b):
    return (a.double() @ b.double().T)


def assert_close(c, a, b):
    ref = reference(a, b)
    err = ((c.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= TOLERANCE[c.dtype], f"relative error {err:.2e}"


def inputs(m, n, k, dtype=torch.bfloat16, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, device="cuda", dtype=dtype, generator=g)
    b = torch.randn(n, k, device="cuda", dtype=dtype, generator=g)
    return a, b


SHAPES = [(1, 1, 1), (1, 4096, 4096), (16, 8192, 8192), (64, 4096, 14336), (127, 4096, 4096),
          (200, 8192, 8192), (1000, 1000, 1000), (2048, 2048, 2048), (4096, 4096, 4096),
          (3000, 5000, 7000), (777, 333, 1100), (4095, 4097, 4104), (129, 28672, 4096)]


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_matmul_matches_torch(m, n, k, dtype):
    a, b = inputs(m, n, k, TYPES[dtype])
    c = gemm.matmul(a, b)
    assert c.shape == (m, n) and c.dtype == a.dtype and c.device == a.device
    assert_close(c, a, b)


@pytest.mark.parametrize("m,n,k", [(333, 4095, 4097), (1, 7, 9), (100, 1000, 1001)])
def test_unaligned_rows_are_staged(m, n, k):
    # K and N not multiples of 8: rows are not 16-byte multiples.
    a, b = inputs(m, n, k)
    assert_close(gemm.matmul(a, b), a, b)


def test_rows_straddling_l2_lines_are_realigned_where_reused():
    # K = 4104: 8208-byte rows, legal for TMA but not 128-byte multiples; A is
    # reused N = 4096 times (realigned), B M = 512 times (used as it is).
    a, b = inputs(512, 4096, 4104)
    assert gemm._core.realign_pays("a", 512, 4096, 4104, 4104 * 2)
    assert not gemm._core.realign_pays("b", 512, 4096, 4104, 4104 * 2)
    assert_close(gemm.matmul(a, b), a, b)


def test_views_and_transposes_are_staged_or_used_as_they_are():
    a, b = inputs(512, 768, 1024)
    wide = torch.randn(512, 2048, device="cuda", dtype=torch.bfloat16)
    view = wide[:, 64:64 + 1024]           # aligned row stride 2048: used as it is
    assert_close(gemm.matmul(view, b), view, b)
    w = torch.randn(1024, 768, device="cuda", dtype=torch.bfloat16)  # x @ W: W [K, N]
    assert_close(gemm.matmul(a, w.T), a, w.T)                      # N-major B: used as it is
    odd = wide[:, 1:1 + 1024]              # base not 16-byte aligned: staged
    assert_close(gemm.matmul(odd, b), odd, b)


@pytest.fixture
def no_copies(monkeypatch):
    """gemm.matmul must read and write the caller's tensors as they are:
    any copy into the kernel's layouts or aligned rows fails the test."""
    def no_copy(*args):
        raise AssertionError("an aligned operand was copied")
    monkeypatch.setattr(gemm._api, "_copy", no_copy)


def operand(rows, cols, column_major, dtype=torch.bfloat16, seed=0):
    """A [rows, cols] tensor, row-major or column-major (the .t() of a
    contiguous [cols, rows])."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    if column_major:
        return torch.randn(cols, rows, device="cuda", dtype=dtype, generator=g).t()
    return torch.randn(rows, cols, device="cuda", dtype=dtype, generator=g)


LAYOUT_SHAPES = [(256, 512, 1024), (1000, 1000, 1000), (16, 8192, 4096), (8192, 64, 1024),
                 (776, 336, 1104), (4096, 4096, 4096)]


@pytest.mark.parametrize("a_col", [False, True], ids=["a_row", "a_col"])
@pytest.mark.parametrize("b_col", [False, True], ids=["b_nk", "b_kn"])
@pytest.mark.parametrize("c_col", [False, True], ids=["c_row", "c_col"])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_every_layout_without_copies(a_col, b_col, c_col, dtype, no_copies):
    # a.t(), b.t() and a column-major out are read and written as they are
    # (the kernel of their layouts; a column-major C the library has no
    # kernel for as the transposed problem): nothing is copied.
    for m, n, k in LAYOUT_SHAPES:
        a = operand(m, k, a_col, TYPES[dtype], seed=1)
        b = operand(n, k, b_col, TYPES[dtype], seed=2)
        out = operand(m, n, c_col, TYPES[dtype], seed=3).zero_() if c_col else None
        c = gemm.matmul(a, b, out=out)
        assert_close(c, a, b)
        if c_col:
            assert c is out and c.stride(0) == 1


# M of a few hundred rows, where the dispatcher runs the transposed problem
# C^T = B A^T on narrow tiles (the problem's M along the tile's N in steps of
# 8; a column-major C^T is the caller's row-major C), in the layouts the
# library holds them in (A K-major, B K-major or N-major: an M-major A would
# be the N-major B of the transposed problem, loaded in 64-column blocks).
NARROW_SHAPES = [(432, 10240, 8192), (516, 1488, 5376), (1186, 4096, 4096), (45, 7168, 2048),
                 (2000, 200, 1024), (203, 5568, 1024)]


@pytest.mark.parametrize("layouts", ["row,col,row", "row,row,row"])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_narrow_tiles_of_the_transposed_problem(layouts, dtype, no_copies):
    a_col, b_col = layouts.split(",")[0] == "col", layouts.split(",")[1] == "row"
    narrow = []
    for m, n, k in NARROW_SHAPES:
        selection = gemm.select(m, n, k, dtype=dtype, layouts=layouts)
        if selection.transposed and selection.config.tile[1] % 64:
            narrow.append(selection.config.name)
        a = operand(m, k, a_col, TYPES[dtype], seed=1)
        b = operand(n, k, b_col, TYPES[dtype], seed=2)
        out = torch.full((m, n + 8), 7.0, device="cuda", dtype=TYPES[dtype])
        c = gemm.matmul(a, b, out=out[:, :n])      # rows of whole 16-byte chunks: in place
        assert_close(c, a, b)
        assert (out[:, n:] == 7).all()
    assert narrow, f"no narrow tile of a transposed problem picked for {NARROW_SHAPES}"


# N just past a tile multiple (a few hundred columns) or tile counts between
# waves, where the dispatcher runs narrow tiles along the problem's own N
# (a row-major C whose last epilogue sub-tile is packed), in the layouts
# the library holds them in (B K-major: an N-major B is loaded in 64-column
# blocks). Rows of 128-byte multiples, which nothing copies.
NARROW_N_SHAPES = [(7232, 272, 2944), (384, 13824, 5120), (1216, 928, 4928), (2048, 200, 1024)]


@pytest.mark.parametrize("layouts", ["row,col,row", "col,col,row"])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_narrow_tiles_along_n(layouts, dtype, no_copies):
    a_col = layouts.split(",")[0] == "col"
    narrow = []
    for m, n, k in NARROW_N_SHAPES:
        selection = gemm.select(m, n, k, dtype=dtype, layouts=layouts)
        if not selection.transposed and selection.config.tile[1] % 64:
            narrow.append(selection.config.name)
        a = operand(m, k, a_col, TYPES[dtype], seed=1)
        b = operand(n, k, False, TYPES[dtype], seed=2)
        # The columns past N must stay: the narrow box stops at N.
        out = torch.full((m, (n + 8 + 63) // 64 * 64), 7.0, device="cuda", dtype=TYPES[dtype])
        c = gemm.matmul(a, b, out=out[:, :n])
        assert_close(c, a, b)
        assert (out[:, n:] == 7).all()
    assert narrow, f"no narrow tile along N picked for {NARROW_N_SHAPES}"


@pytest.mark.parametrize("layouts", ["row,col,row", "col,col,row", "col,row,row"])
@pytest.mark.parametrize("tile_n", [128, 144])
def test_192_row_tiles_of_the_library(layouts, tile_n, no_copies):
    # Three consumer warpgroups of 64 rows: M below, at and past one 192-row
    # tile, N past one tile, K tails. An N-major B takes 64-column blocks.
    a_col, b_row = layouts.split(",")[0] == "col", layouts.split(",")[1] == "row"
    if b_row and tile_n % 64:
        pytest.skip("an N-major B is loaded in 64-column blocks")
    config = gemm.Config(tile=(192, tile_n, 64))
    kernel = gemm.load(gemm.kernel_library().manifest_path(
        config.kernel_config("bf16", None, layouts)))
    for m, n, k in [(8, 64, 64), (152, 304, 200), (192, 8, 72), (200, 520, 1000), (400, 144, 136)]:
        a = operand(m, k, a_col, torch.bfloat16, seed=1)
        b = operand(n, k, b_row, torch.bfloat16, seed=2)
        assert_close(kernel(a, b), a, b)


@pytest.mark.compiler
@pytest.mark.parametrize("out_dtype", ["f32", "bf16"])
def test_x_at_w_and_transposes_match_torch(out_dtype):
    x = torch.randn(512, 1024, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(1024, 768, device="cuda", dtype=torch.bfloat16)   # W [K, N]
    c = gemm.matmul(x, w.T, out_dtype=out_dtype)                       # x @ W
    ref = x.double() @ w.double()
    assert ((c.double() - ref).norm() / ref.norm()).item() < TOLERANCE[TYPES[out_dtype]]
    ct = gemm.matmul(w.T, x, out_dtype=out_dtype)                      # (x @ W)^T = W^T x^T
    assert ((ct.double() - ref.T).norm() / ref.norm()).item() < TOLERANCE[TYPES[out_dtype]]


def test_explicit_kernel_of_other_layouts_copies_what_does_not_fit():
    config = gemm.Config(tile=(128, 128, 64), schedule="pingpong")
    library = gemm.kernel_library()
    kernel = gemm.load(library.manifest_path(
        config.kernel_config("bf16", None, "col,row,row")))
    assert kernel.layouts == "col,row,row"
    a, b = inputs(300, 400, 512)              # row-major: copied into the kernel's layouts
    assert_close(kernel(a, b), a, b)
    assert_close(kernel(a.t().contiguous().t(), b.t().contiguous().t()), a, b)


def assert_close_batched(c, a, b):
    ref = a.double() @ b.double().transpose(-1, -2)
    err = ((c.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err <= TOLERANCE[c.dtype], f"relative error {err:.2e}"


BMM_SHAPES = [(8, 256, 384, 512), (4, 1000, 1000, 256), (16, 64, 128, 64), (3, 777, 336, 1104),
              (32, 1024, 1024, 1024), (1, 512, 512, 512)]


@pytest.mark.parametrize("batch,m,n,k", BMM_SHAPES)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_bmm_matches_torch(batch, m, n, k, dtype):
    g = torch.Generator(device="cuda").manual_seed(batch + m)
    a = torch.randn(batch, m, k, device="cuda", dtype=TYPES[dtype], generator=g)
    b = torch.randn(batch, k, n, device="cuda", dtype=TYPES[dtype], generator=g)
    c = gemm.bmm(a, b)                                   # B [batch, K, N]: N-major, no copy
    assert c.shape == (batch, m, n)
    ref = torch.bmm(a.double(), b.double())
    assert ((c.double() - ref).norm() / ref.norm()).item() <= TOLERANCE[TYPES[dtype]]


@pytest.mark.compiler
def test_batched_forms_run_without_copies(no_copies):
    batch, m, n, k = 6, 304, 256, 512
    g = torch.Generator(device="cuda").manual_seed(7)
    def randn(*shape):
        return torch.randn(*shape, device="cuda", dtype=torch.bfloat16, generator=g)
    a3, w = randn(batch, m, k), randn(n, k)
    assert_close_batched(gemm.matmul(a3, w), a3, w.expand(batch, n, k))        # 2-D B: broadcast
    wb = w.expand(batch, n, k)                                                 # stride 0
    assert_close_batched(gemm.matmul(a3, wb), a3, wb)
    a2, b3 = randn(m, k), randn(batch, n, k)
    assert_close_batched(gemm.matmul(a2, b3), a2.expand(batch, m, k), b3)      # 2-D A
    assert_close_batched(gemm.matmul(a2[None], b3), a2.expand(batch, m, k), b3)  # batch of 1
    wide = randn(batch, m + 8, k + 64)
    view = wide[:, 8:, 64:]                                                     # gaps, offsets
    assert_close_batched(gemm.matmul(view, b3), view, b3)
    x = randn(m, batch, k)                                                      # [M, batch, K]
    xi = x.transpose(0, 1)                                                      # interleaved
    assert_close_batched(gemm.matmul(xi, b3), xi, b3)
    at = randn(batch, k, m).transpose(-1, -2)                                   # M-major entries
    bt = randn(batch, k, n).transpose(-1, -2)                                   # N-major entries
    out = torch.empty(batch, n, m, device="cuda", dtype=torch.bfloat16).transpose(-1, -2)
    c = gemm.matmul(at, bt, out=out)                                            # column-major C
    assert c is out
    assert_close_batched(c, at, bt)
    c32 = gemm.matmul(a3, b3, out_dtype="f32")
    assert c32.dtype == torch.float32 and c32.shape == (batch, m, n)
    assert_close_batched(c32, a3, b3)


def test_batched_bad_input_is_named():
    a, b = torch.randn(4, 64, 64, device="cuda", dtype=torch.bfloat16), \
        torch.randn(4, 64, 64, device="cuda", dtype=torch.bfloat16)
    flat = torch.empty(64 * 64 + 64, device="cuda", dtype=torch.bfloat16)
    overlapping = flat.as_strided((4, 64, 64), (16, 64, 1))
    with pytest.raises(gemm.UsageError, match="entries of C overlap"):
        gemm.matmul(a, b, out=overlapping)
    with pytest.raises(gemm.UsageError, match="batch sizes 4 and 3 differ"):
        gemm.matmul(a, b[:3])


def test_batched_compile_and_backward():
    import torch._dynamo
    torch._dynamo.reset()
    a = torch.randn(4, 128, 256, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4, 256, 192, device="cuda", dtype=torch.bfloat16)
    f = torch.compile(lambda a, b: gemm.bmm(a, b), fullgraph=True)
    ref = torch.bmm(a.double(), b.double())
    assert ((f(a, b).double() - ref).norm() / ref.norm()).item() < 1e-2
    torch.library.opcheck(torch.ops.gemm.matmul.default, (a, b.mT, None, None))
    # A weight shared by every entry gets the sum of the entries' gradients.
    x = torch.randn(4, 128, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(192, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    grad = torch.randn(4, 128, 192, device="cuda", dtype=torch.bfloat16)
    gemm.matmul(x, w).backward(grad)
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    (x @ w.T).backward(grad)
    for ours, theirs in ((gx, x.grad), (gw, w.grad)):
        err = ((ours.double() - theirs.double()).norm() / theirs.double().norm()).item()
        assert err < 1e-2, err


DIRECT = gemm.Config(tile=(64, 64, 64), schedule="direct")
DIRECT_128 = gemm.Config(tile=(128, 64, 64), schedule="direct")
# Rows TMA cannot read (K or N not multiples of 8), tails of every size,
# one and several k-blocks: the small problems the direct kernels are for.
ODD = [(1, 1, 1), (8688, 23, 28), (278, 38, 50), (44, 206, 46), (282, 282, 282),
       (1312, 388, 18), (272, 7783, 19), (96, 528, 382), (65, 129, 63), (3, 5, 1000)]


@pytest.mark.compiler
@pytest.mark.parametrize("m,n,k", ODD)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
@pytest.mark.parametrize("config", [DIRECT, DIRECT_128], ids=["64x64", "128x64"])
def test_direct_kernels_match_torch(m, n, k, dtype, config, tmp_path, monkeypatch):
    monkeypatch.setenv("GEMM_CACHE_DIR", str(tmp_path))
    a, b = inputs(m, n, k, TYPES[dtype])
    assert_close(gemm.matmul(a, b, config=config), a, b)
    assert_close(gemm.matmul(a, b, config=config, out_dtype="f32"), a, b)


@pytest.mark.compiler
def test_direct_kernels_read_views_as_they_are(monkeypatch):
    # Odd row strides, odd base addresses, an f32 output view: the direct
    # kernel takes them all as they are (no copy), where a TMA kernel gets
    # each copied.
    copies = []
    copy = gemm._api._copy
    monkeypatch.setattr(gemm._api, "_copy",
                        lambda *args, **kw: copies.append(args[2]) or copy(*args, **kw))
    kernel = gemm.compile(DIRECT, a_dtype="bf16", c_dtype="f32")
    wide_a = torch.randn(300, 77, device="cuda", dtype=torch.bfloat16)
    wide_b = torch.randn(40, 61, device="cuda", dtype=torch.bfloat16)
    a, b = wide_a[:, 3:3 + 50], wide_b[:, 1:1 + 50]
    wide_c = torch.zeros(300, 45, device="cuda", dtype=torch.float32)
    c = wide_c[:, 1:1 + 40]
    kernel(a, b, out=c)
    assert_close(c, a, b)
    assert copies == []
    assert wide_c[:, 0].abs().sum().item() == 0 and wide_c[:, 41:].abs().sum().item() == 0
    tma = gemm.compile(gemm.Config(tile=(64, 64, 64), schedule="pingpong"), a_dtype="bf16",
                       c_dtype="f32")
    tma(a, b, out=c)
    assert_close(c, a, b)
    assert copies == ["a", "b"]


def test_matmul_on_odd_sizes_copies_only_for_tma_kernels(monkeypatch):
    # The dispatcher weighs the copies a TMA kernel needs (the runtime's
    # rule) against the direct kernels, which need none.
    copies = []
    copy = gemm._api._copy
    monkeypatch.setattr(gemm._api, "_copy",
                        lambda *args, **kw: copies.append(args[2]) or copy(*args, **kw))
    model = gemm.dispatch_model()
    if not any(c.schedule == "direct" for c in model.candidates):
        pytest.skip("the dispatcher's model has no direct kernels yet (fit it with "
                    "gemm_bench.fit on measurements of bench/direct-h200.sh)")
    picked = []
    for m, n, k in ODD:
        a, b = inputs(m, n, k)
        copies.clear()
        assert_close(gemm.matmul(a, b), a, b)
        staged = gemm._core.tma_staging(m, n, k)
        config = gemm.select(m, n, k, staged=staged).config
        picked.append(config.schedule)
        # A TMA kernel gets exactly the inputs the rule stages copied (C,
        # when staged, is computed in scratch, not through _copy).
        expected = [] if config.schedule == "direct" else \
            [name for name, flag in zip(("a", "b"), staged) if flag]
        assert copies == expected, (m, n, k, config.name)
    print("dispatched:", picked)


@pytest.mark.compiler
def test_out_and_out_dtype():
    a, b = inputs(256, 512, 1024)
    out = torch.empty(256, 512, device="cuda", dtype=torch.bfloat16)
    assert gemm.matmul(a, b, out=out) is out
    assert_close(out, a, b)
    c32 = gemm.matmul(a, b, out_dtype="f32")
    assert c32.dtype == torch.float32
    assert_close(c32, a, b)
    wide = torch.zeros(256, 1024 + 3, device="cuda", dtype=torch.bfloat16)
    gemm.matmul(a, b, out=wide[:, 3:3 + 512])   # misaligned out: computed aside, copied
    assert_close(wide[:, 3:3 + 512], a, b)
    assert wide[:, :3].abs().sum().item() == 0


def test_out_view_keeps_the_columns_after_it():
    # out = wide[:, :130]: rows 272 bytes apart (TMA's rule holds), but 130
    # bf16 end inside a 16-byte chunk, which a TMA store writes whole
    # (bench/probes/tma-store-extent.cu): such an out is computed aside and
    # copied, and wide's last 6 columns keep their values.
    a, b = inputs(256, 130, 512)
    wide = torch.full((256, 136), 7.0, device="cuda", dtype=torch.bfloat16)
    tma = gemm.compile(gemm.Config(tile=(128, 128, 64)), a_dtype="bf16")
    tma(a, b, out=wide[:, :130])
    assert_close(wide[:, :130], a, b)
    assert (wide[:, 130:] == 7).all()
    # Lines of whole chunks are written in place.
    wide.fill_(7.0)
    a, b = inputs(256, 128, 512)
    tma(a, b, out=wide[:, :128])
    assert_close(wide[:, :128], a, b)
    assert (wide[:, 128:] == 7).all()


def test_empty_problems():
    a, b = inputs(0, 64, 64)
    assert gemm.matmul(a, b).shape == (0, 64)
    a, b = inputs(8, 16, 0)
    assert gemm.matmul(a, b).abs().sum().item() == 0


CONFIGS = [gemm.Config(tile=(128, 256, 64), cluster=(2, 1)),
           gemm.Config(tile=(64, 128, 64), schedule="pingpong", splits=4),
           gemm.Config(tile=(128, 256, 64), cluster=(1, 2), stream_k=True),
           gemm.Config(tile=(128, 128, 64), cluster=(1, 2), raster="along_n", swizzle=4)]


@pytest.mark.compiler
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.kernel_config().key)
def test_explicit_configs(config, tmp_path, monkeypatch):
    monkeypatch.setenv("GEMM_CACHE_DIR", str(tmp_path))
    kernel = gemm.compile(config, a_dtype="bf16")
    for m, n, k in [(64, 4096, 8192), (1000, 1000, 1000), (2048, 2048, 2048)]:
        a, b = inputs(m, n, k)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        kernel(a, b, out=c)
        assert_close(c, a, b)
        assert_close(gemm.matmul(a, b, config=config), a, b)


def test_load_a_bundle():
    library = gemm.kernel_library()
    config = gemm.select(4096, 4096, 4096).config
    kernel = gemm.load(library.manifest_path(config))
    a, b = inputs(4096, 4096, 4096)
    assert_close(kernel(a, b), a, b)
    with pytest.raises(gemm.UsageError, match="takes bf16 x bf16 inputs; a and b are f16 x f16"):
        kernel(a.half(), b.half())


def test_runs_on_the_callers_stream():
    a, b = inputs(2048, 2048, 2048)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        # Inputs produced on the side stream, consumed there without a sync.
        a2 = a * 2
        c = gemm.matmul(a2, b)
    side.synchronize()
    assert_close(c, a2, b)
    # A graph capture only works if nothing synchronises.
    graph = torch.cuda.CUDAGraph()
    out = torch.empty(2048, 2048, device="cuda", dtype=torch.bfloat16)
    gemm.matmul(a, b, out=out)
    with torch.cuda.graph(graph):
        gemm.matmul(a, b, out=out)
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    assert_close(out, a, b)


def test_torch_compile_captures_without_graph_breaks():
    import torch._dynamo
    torch._dynamo.reset()

    def mlp(x, w1, w2):
        return gemm.matmul(torch.relu(gemm.matmul(x, w1)), w2)

    x, w1 = inputs(256, 1024, 512)
    w2 = torch.randn(384, 1024, device="cuda", dtype=torch.bfloat16)
    explanation = torch._dynamo.explain(mlp)(x, w1, w2)
    assert explanation.graph_break_count == 0, explanation.break_reasons
    compiled = torch.compile(mlp, fullgraph=True)
    expected = reference(torch.relu(reference(x, w1).bfloat16()), w2)
    got = compiled(x, w1, w2).double()
    assert ((got - expected).norm() / expected.norm()).item() < 2e-2
    torch.library.opcheck(torch.ops.gemm.matmul.default, (x, w1, None, None))
    # Transposed operands (x @ W with W [K, N], grads' layouts) compile too.
    torch._dynamo.reset()
    w = torch.randn(512, 768, device="cuda", dtype=torch.bfloat16)
    f = torch.compile(lambda x, w: gemm.matmul(x, w.T), fullgraph=True)
    got = f(x, w).double()
    expected = x.double() @ w.double()
    assert ((got - expected).norm() / expected.norm()).item() < 1e-2
    torch.library.opcheck(torch.ops.gemm.matmul.default, (x, w.T, None, None))


def test_backward_matches_torch():
    a, b = inputs(256, 384, 512)
    a.requires_grad_(True)
    b.requires_grad_(True)
    grad = torch.randn(256, 384, device="cuda", dtype=torch.bfloat16)
    gemm.matmul(a, b).backward(grad)
    ga, gb = a.grad.clone(), b.grad.clone()
    a.grad = b.grad = None
    (a @ b.T).backward(grad)
    for ours, theirs in ((ga, a.grad), (gb, b.grad)):
        err = ((ours.double() - theirs.double()).norm() / theirs.double().norm()).item()
        assert err < 1e-2, err


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    a = cupy.random.standard_normal((300, 512), dtype=cupy.float32).astype(cupy.float16)
    b = cupy.random.standard_normal((200, 512), dtype=cupy.float32).astype(cupy.float16)
    c = gemm.matmul(a, b)
    assert isinstance(c, cupy.ndarray) and c.shape == (300, 200)
    ref = a.astype(cupy.float64) @ b.astype(cupy.float64).T
    assert float(cupy.linalg.norm(c.astype(cupy.float64) - ref) / cupy.linalg.norm(ref)) < 2e-3


def test_jax_arrays():
    # In its own process: JAX takes GPU memory and its own CUDA libraries.
    script = textwrap.dedent("""
        import jax, jax.numpy as jnp, numpy as np, gemm
        if not any(d.platform == "gpu" for d in jax.devices()):
            print("no JAX GPU"); raise SystemExit(0)
        ka, kb = jax.random.split(jax.random.PRNGKey(0))
        a = jax.random.normal(ka, (192, 320), dtype=jnp.bfloat16)
        b = jax.random.normal(kb, (96, 320), dtype=jnp.bfloat16)
        a.block_until_ready(); b.block_until_ready()
        import torch
        c = gemm.matmul(a, b)
        torch.cuda.synchronize()
        ref = np.asarray(a, np.float64) @ np.asarray(b, np.float64).T
        err = np.linalg.norm(c.double().cpu().numpy() - ref) / np.linalg.norm(ref)
        assert err < 1e-2, err
        print("jax ok", type(c).__module__, err)
    """)
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, timeout=300)
    if "No module named 'jax'" in result.stderr:
        pytest.skip("JAX is not installed")
    assert result.returncode == 0, result.stdout + result.stderr
    if "no JAX GPU" in result.stdout:
        pytest.skip("JAX sees no GPU")
    assert "jax ok torch" in result.stdout


def test_dlpack_tensors():
    a, b = inputs(128, 256, 512, torch.float16)

    class Capsule:
        """Only DLPack (as JAX arrays offer it)."""
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None, **kwargs):
            return self.t.__dlpack__()

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    out = torch.empty(128, 256, device="cuda", dtype=torch.float16)
    gemm.matmul(Capsule(a), Capsule(b), out=out)
    assert_close(out, a, b)


def test_warm_calls_neither_compile_nor_touch_files(monkeypatch):
    a, b = inputs(300, 500, 700)
    c = gemm.matmul(a, b)
    from gemm import _jit

    def forbidden(*args, **kwargs):
        raise AssertionError("a warm call compiled or opened a file")
    monkeypatch.setattr(_jit.subprocess, "run", forbidden)
    monkeypatch.setattr("builtins.open", forbidden)
    monkeypatch.setattr(os, "stat", forbidden)
    for _ in range(3):
        gemm.matmul(a, b, out=c)
    monkeypatch.undo()
    assert_close(c, a, b)


def test_warm_calls_repeat_a_launch_only_for_the_same_signature(monkeypatch):
    # A call whose tensors have the shapes, strides, types, device and
    # address alignment of an earlier call that copied nothing repeats that
    # call's launch (gemm._api._launches) without the checks and the
    # dispatch; a call that differs in any of them goes the whole way.
    gemm._api._launches.clear()
    whole = []
    check = gemm._api._check_inputs
    monkeypatch.setattr(gemm._api, "_check_inputs",
                        lambda *args: whole.append(args) or check(*args))
    # Rows of A, B and C (either way) 16-byte multiples: nothing is staged.
    a, b = inputs(304, 512, 704)
    split = gemm.compile(gemm.Config(tile=(64, 128, 64), schedule="pingpong", splits=2))
    c_col = torch.empty(512, 304, device="cuda", dtype=torch.bfloat16).t()
    calls = [lambda x, y: gemm.matmul(x, y),              # a new output
             lambda x, y: gemm.matmul(x, y, out=c_col),   # the transposed problem
             lambda x, y: split(x, y),                    # a split-K workspace
             lambda x, y: gemm.bmm(x.expand(3, -1, -1), y.T.expand(3, -1, -1))]
    for call in calls:
        call(a, b)
    assert len(whole) == len(calls) == len(gemm._api._launches)
    for seed in (1, 2):
        a2, b2 = inputs(304, 512, 704, seed=seed)
        for call in calls:
            c = call(a2, b2)
            for entry in (c if c.dim() == 3 else [c]):
                assert_close(entry, a2, b2)
    assert len(whole) == len(calls), "a warm call of the same signature went the whole way"
    # A TMA kernel's A at an address 2 bytes past a 16-byte multiple, and
    # with rows 706 elements apart: other signatures, copied every call.
    tma = gemm.compile(gemm.Config(tile=(64, 64, 64), schedule="pingpong"))
    tma(a, b)
    flat = torch.randn(304 * 704 + 1, device="cuda", dtype=torch.bfloat16)
    wide = torch.randn(304, 706, device="cuda", dtype=torch.bfloat16)
    for odd in (flat[1:].view(304, 704), wide[:, :704]):
        for _ in range(2):
            assert_close(tma(odd, b), odd, b)
    assert len(whole) == len(calls) + 5
    assert len(gemm._api._launches) == len(calls) + 1


def test_no_leak_over_ten_thousand_calls():
    a, b = inputs(64, 1024, 1024)
    split = gemm.compile(gemm.Config(tile=(64, 128, 64), schedule="pingpong", splits=2))
    for _ in range(100):
        gemm.matmul(a, b)
        split(a, b)
    torch.cuda.synchronize()
    allocated = torch.cuda.memory_allocated()
    free_before, _ = gemm._core.device_memory(0)
    for _ in range(5000):
        gemm.matmul(a, b)
        split(a, b)
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == allocated
    free_after, _ = gemm._core.device_memory(0)
    assert free_before - free_after < 8 << 20, (free_before, free_after)


def test_gpu_errors():
    a, b = inputs(64, 64, 64)
    with pytest.raises(gemm.UsageError, match="is on cpu"):
        gemm.matmul(a.cpu(), b)
    sm100 = os.path.join(os.path.dirname(__file__), "..", "..", "test", "Runtime", "Inputs",
                         "gemm_sm100_pair_clc_c4x1.json")
    with pytest.raises(gemm.ArchMismatchError, match="sm_100a"):
        gemm.load(sm100)(a, b)
    if torch.cuda.device_count() > 1:
        with pytest.raises(gemm.UsageError, match="same GPU"):
            gemm.matmul(a, b.to("cuda:1"))


@pytest.mark.parametrize("m,n,k", [(4096, 4096, 4096), (100, 100, 100), (16, 8192, 8192)])
def test_runner_on_this_gpu_picks_what_the_package_runs(runner, m, n, k):
    library = gemm.kernel_library()
    out = subprocess.run([runner, "--library", library.dir, "--m", str(m), "--n", str(n),
                          "--k", str(k), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    picked = re.search(r"^library: (\S+) for", out.stdout, re.M).group(1)
    assert picked == gemm.select(m, n, k, device=0).config.name
