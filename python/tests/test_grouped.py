"""gemm.grouped_matmul / gemm.grouped_mm (grouped MoE GEMM): bad input named
before any GPU work and the dispatcher's grouped picks (no GPU), then on an
sm_90a GPU with PyTorch: results against a per-group torch reference over
ragged groups (M_g = 0, 1, 63..65, 127..129, random), K- and N-major B,
bf16 and f16, f32 outputs, torch._grouped_mm's own call, bad offsets caught
on the device, and no host synchronisation."""
import random

import numpy as np
import pytest

import gemm


class FakeCuda:
    """An array that claims to live on a GPU (never dereferenced: every case
    below fails its checks first)."""

    def __init__(self, shape, typestr="<f2", device=0, strides=None, ptr=0x10000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (ptr, False), "version": 3,
                                         "strides": strides}

        class Device:
            id = device
        self.device = Device()


A = FakeCuda((100, 64))
B = FakeCuda((4, 32, 64))
OFFS = FakeCuda((4,), "<i4")


@pytest.mark.parametrize("a,b,offs,message", [
    (FakeCuda((100, 64), "<f4"), FakeCuda((4, 32, 64), "<f4"), OFFS,
     "a is f32 and b f32: grouped kernels take bf16 or f16"),
    (A, FakeCuda((4, 32, 64), "<V2"), OFFS, "a is f16 and b bf16"),
    (FakeCuda((2, 100, 64)), B, OFFS, r"a has shape \[2, 100, 64\]: .*\[sum of M_g, K\]"),
    (A, FakeCuda((32, 64)), OFFS, r"b has shape \[32, 64\]: grouped_matmul takes B as \[G, N, K\]"),
    (A, FakeCuda((0, 32, 64)), FakeCuda((0,), "<i4"), r"no groups \(G = 0\)"),
    (A, FakeCuda((4, 32, 48)), OFFS, r"K differs \(64 vs 48\)"),
    (A, B, FakeCuda((4,), "<f4"), "offs is f32: the group offsets are int32"),
    (A, B, FakeCuda((5,), "<i4"), r"offs has shape \[5\] and b 4 groups.*shape \[4\]"),
    (A, B, FakeCuda((4, 1), "<i4"), r"offs has shape \[4, 1\]"),
    (A, B, FakeCuda((4,), "<i4", ptr=0x10002),
     "offs starts at 0x10002, not a multiple of its 4-byte elements"),
    (A, B, np.arange(4, dtype=np.int32), "offs is on cpu"),
    (A, B, FakeCuda((4,), "<i4", device=1), "put them on one GPU"),
    (FakeCuda((100, 60)), FakeCuda((4, 32, 60)), OFFS,
     "K = 60: .*pad K to a multiple of 8"),
    (A, FakeCuda((4, 36, 64)), OFFS, "N = 36: .*pad N to a multiple of 8"),
    (FakeCuda((100, 64), strides=(136, 2)), B, OFFS,
     r"a: A's rows are 68 elements \(136 bytes\) apart, not a multiple of 16 bytes"),
    (FakeCuda((100, 64), ptr=0x10008), B, OFFS, "a starts at 0x10008, not a multiple of 16"),
    (FakeCuda((100, 64), strides=(2, 200)), B, OFFS, "a has strides .*K contiguous"),
    (A, FakeCuda((4, 32, 64), strides=(4100, 128, 2)), OFFS,
     r"b: its groups are 2050 elements \(4100 bytes\) apart"),
    (A, FakeCuda((4, 32, 64), strides=(4096, 256, 4)), OFFS, "b has strides .*make it contiguous"),
])
def test_bad_input_is_named(a, b, offs, message):
    with pytest.raises(gemm.UsageError, match=message):
        gemm.grouped_matmul(a, b, offs)


def test_bad_output_is_named():
    with pytest.raises(gemm.UsageError, match=r"out has shape \[100, 31\]; C is .*\[100, 32\]"):
        gemm.grouped_matmul(A, B, OFFS, out=FakeCuda((100, 31)))
    with pytest.raises(gemm.UsageError, match="out_dtype=e4m3: grouped kernels write"):
        gemm.grouped_matmul(A, B, OFFS, out_dtype="e4m3")
    with pytest.raises(gemm.UsageError, match="out is f16 but out_dtype is f32"):
        gemm.grouped_matmul(A, B, OFFS, out=FakeCuda((100, 32)), out_dtype="f32")
    with pytest.raises(gemm.UsageError, match="out has strides .*N contiguous"):
        gemm.grouped_matmul(A, B, OFFS, out=FakeCuda((100, 32), strides=(2, 200)))


def test_grouped_mm_is_torch_grouped_mm_b_layout():
    # torch._grouped_mm's B is [G, K, N]: K of 64 must match A's.
    with pytest.raises(gemm.UsageError, match=r"K differs \(64 vs 32\)"):
        gemm.grouped_mm(A, FakeCuda((4, 32, 64)), OFFS)


MOE = [(8, 16384, 14336, 4096), (64, 131072, 2048, 7168), (256, 131072, 2048, 7168),
       (128, 131072, 768, 2048)]


@pytest.mark.parametrize("groups,rows,n,k", MOE)
@pytest.mark.parametrize("layouts", ["row,col,row", "row,row,row"])
def test_select_picks_a_library_grouped_kernel(groups, rows, n, k, layouts):
    s = gemm.select(rows, n, k, layouts=layouts, groups=groups)
    assert s.config.grouped and "grouped_" in s.config.name
    assert s.config.splits == 1 and not s.config.stream_k and s.config.schedule != "direct"
    assert s.config.layouts == layouts
    assert s.config in gemm.kernel_library().configs, "grouped kernels ship in the library"
    # The H200's grouped kernels were measured on these problems: their
    # residuals correct the physics here.
    assert s.estimate["evidence"] > 0.5
    # The plain problem of the same rows never gets a grouped kernel.
    assert not gemm.select(rows, n, k, layouts=layouts).config.grouped


def test_select_counts_each_groups_tiles():
    # 128 groups of 64 rows: no tile twice as tall as a group, and each group
    # counted as a whole 64-row tile and a ragged one (a router's sizes are
    # rarely multiples of the tile): twice the tiles of 8192 plain rows.
    s = gemm.select(8192, 768, 2048, groups=128)
    assert s.config.tile[0] == 64
    assert s.estimate["tiles"] == 128 * 2 * -(-768 // s.config.tile[1])
    f32 = gemm.select(8192, 768, 2048, dtype="f16", out_dtype="f32", groups=128)
    assert f32.config.out_dtype == "f32" and f32.config.grouped


def test_select_refuses_grouped_problems_no_kernel_takes():
    with pytest.raises(gemm.DispatchError, match="A and C row-major"):
        gemm.select(1024, 256, 256, layouts="col,col,row", groups=8)
    with pytest.raises(gemm.DispatchError, match="grouped kernels take bf16 or f16"):
        gemm.select(1024, 256, 256, dtype="e4m3", groups=8)
    with pytest.raises(gemm.UsageError, match="A and C row-major"):
        gemm.compile(gemm.Config(), a_dtype="bf16", layouts="col,col,row", grouped=True)


def test_grouped_configs_and_bundles_without_gpu():
    kc = gemm.Config(tile=(128, 256, 64), cluster=(1, 2)).kernel_config(
        "bf16", None, "row,row,row", grouped=True)
    assert kc.name == "sm90_bf16_akbncr_grouped_128x256x64_coop_c1x2_rm_s8_st0"
    assert kc.grouped and "acc(f32) grouped" in kc.mlir
    library = gemm.kernel_library()
    config = gemm.select(16384, 14336, 4096, groups=8).config
    kernel = gemm.load(library.manifest_path(config))
    assert kernel.grouped
    with pytest.raises(gemm.UsageError, match="a group count of 0"):
        kernel.plan(16384, 14336, 4096)   # a grouped kernel plans grouped problems
    grouped_plan = kernel.bundle.plan(16384, 14336, 4096, groups=8,
                                      batch_strides=(None, 14336 * 4096, None))
    unit = config.tile[0] * config.cluster[0]
    assert grouped_plan.group_unit_rows == unit
    assert grouped_plan.group_table_bytes == 16 + 16 * (-(-16384 // unit) + 8)
    with pytest.raises(gemm.UsageError, match="is a grouped kernel: call gemm.grouped_matmul"):
        kernel(FakeCuda((4, 8)), FakeCuda((4, 8)))


def test_group_offsets_rule_is_the_runtimes():
    assert gemm._core.check_group_offsets([0, 3, 3, 10], 10) == []
    (problem,) = gemm._core.check_group_offsets([0, 5, 3, 10], 10)
    assert "decrease at group 1" in problem
    (problem,) = gemm._core.check_group_offsets([0, 5, 11], 10)
    assert "group 1 ends at row 11, past the end of A (10 rows)" in problem


# ---------------------------------------------------------------------------
# On the GPU
# ---------------------------------------------------------------------------

def _torch():
    import torch
    return torch


TOLERANCE = {"bf16": 1e-2, "f16": 2e-3, "f32": 1e-4}


def _problem(sizes, n, k, dtype, seed=0):
    torch = _torch()
    t = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    g = torch.Generator(device="cuda").manual_seed(seed)
    rows = sum(sizes)
    a = torch.randn(rows, k, device="cuda", dtype=t, generator=g)
    b = torch.randn(len(sizes), n, k, device="cuda", dtype=t, generator=g)
    offs = torch.tensor(np.cumsum(sizes), device="cuda", dtype=torch.int32)
    return a, b, offs


def _assert_matches(c, a, b, sizes, tolerance):
    torch = _torch()
    start = 0
    for g, m in enumerate(sizes):
        if m:
            ref = a[start:start + m].double() @ b[g].double().T
            got = c[start:start + m].double()
            err = ((got - ref).norm() / ref.norm().clamp_min(1e-30)).item()
            assert err <= tolerance, f"group {g} ({m} rows): relative error {err:.2e}"
            assert torch.isfinite(got).all()
        start += m


RAGGED = [
    [0, 1, 63, 64, 65, 127, 128, 129, 0],
    [129, 0, 0, 1],
    [1],
    [0, 0, 300, 0],
    [1000, 64, 0, 7, 128],
]


def _random_sizes(groups, total, seed):
    rng = random.Random(seed)
    cuts = sorted(rng.randint(0, total) for _ in range(groups - 1))
    return [e - s for s, e in zip([0] + cuts, cuts + [total])]


@pytest.mark.gpu
@pytest.mark.torch
@pytest.mark.parametrize("sizes", RAGGED + [_random_sizes(16, 3000, 1), _random_sizes(64, 5000, 2)],
                         ids=lambda s: f"G{len(s)}_rows{sum(s)}")
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
@pytest.mark.parametrize("b_major", ["k", "n"])
def test_grouped_matmul_matches_torch(sizes, dtype, b_major):
    a, b, offs = _problem(sizes, 264, 136, dtype)
    if b_major == "n":
        # The same B stored [G, K, N]: its transposed view is N-major.
        b = b.transpose(1, 2).contiguous().transpose(1, 2)
    c = gemm.grouped_matmul(a, b, offs)
    assert c.shape == (sum(sizes), 264) and c.dtype == a.dtype
    _assert_matches(c, a, b, sizes, TOLERANCE[dtype])


@pytest.mark.gpu
@pytest.mark.torch
@pytest.mark.compiler   # f32-output grouped kernels are compiled on first use
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_f32_output(dtype):
    sizes = [65, 0, 129, 1]
    a, b, offs = _problem(sizes, 256, 512, dtype, seed=3)
    c = gemm.grouped_matmul(a, b, offs, out_dtype="f32")
    assert c.dtype == _torch().float32
    _assert_matches(c, a, b, sizes, TOLERANCE["f32"] * 10)
    out = _torch().full_like(c, 7.0)
    assert gemm.grouped_matmul(a, b, offs, out=out) is out
    _assert_matches(out, a, b, sizes, TOLERANCE["f32"] * 10)


@pytest.mark.gpu
@pytest.mark.torch
@pytest.mark.parametrize("b_major", ["k", "n"])
def test_grouped_mm_matches_torch_grouped_mm(b_major):
    torch = _torch()
    sizes = _random_sizes(8, 4096, 5)
    a, b, offs = _problem(sizes, 1024, 512, "bf16", seed=4)
    w = b.transpose(1, 2)                      # [G, K, N], K-major storage
    if b_major == "n":
        w = w.contiguous()                     # [G, K, N] row-major: N-major B
    c = gemm.grouped_mm(a, w, offs)
    _assert_matches(c, a, b, sizes, TOLERANCE["bf16"])
    try:
        ref = torch._grouped_mm(a, w, offs=offs)
    except (AttributeError, RuntimeError):   # torch's own limits (e.g. its B layouts)
        return
    err = ((c.double() - ref.double()).norm() / ref.double().norm()).item()
    assert err <= 1e-2


@pytest.mark.gpu
@pytest.mark.torch
def test_explicit_config_and_moe_shape():
    sizes = _random_sizes(8, 4096, 7)
    a, b, offs = _problem(sizes, 2048, 1024, "bf16", seed=6)
    for config in (gemm.Config(tile=(128, 256, 64)), gemm.Config(tile=(64, 256, 64),
                                                                  schedule="pingpong")):
        c = gemm.grouped_matmul(a, b, offs, config=config)
        _assert_matches(c, a, b, sizes, TOLERANCE["bf16"])


@pytest.mark.gpu
@pytest.mark.torch
def test_warm_calls_repeat_the_launch_with_the_offsets_they_are_given(monkeypatch):
    # A call with the tensors' shapes, strides, types and alignment of an
    # earlier one repeats its launch (gemm._grouped._launches) without the
    # checks; the prep kernel reads each call's offsets, so other group sizes
    # of the same total are computed as they are.
    torch = _torch()
    gemm._grouped._launches.clear()
    whole = []
    check = gemm._grouped._check_tensors
    monkeypatch.setattr(gemm._grouped, "_check_tensors",
                        lambda *args: whole.append(args) or check(*args))
    a, b, _ = _problem([600, 0, 0, 0], 256, 128, "bf16")
    out = torch.empty(600, 256, device="cuda", dtype=torch.bfloat16)
    for seed, sizes in enumerate(([150, 150, 150, 150], [0, 599, 1, 0], [600, 0, 0, 0])):
        offs = torch.tensor(np.cumsum(sizes), device="cuda", dtype=torch.int32)
        a.normal_(generator=torch.Generator(device="cuda").manual_seed(seed))
        _assert_matches(gemm.grouped_matmul(a, b, offs), a, b, sizes, TOLERANCE["bf16"])
        _assert_matches(gemm.grouped_mm(a, b.transpose(1, 2), offs), a, b, sizes,
                        TOLERANCE["bf16"])
        assert gemm.grouped_matmul(a, b, offs, out=out) is out
        _assert_matches(out, a, b, sizes, TOLERANCE["bf16"])
    assert len(whole) == 3 == len(gemm._grouped._launches)
    # check=True goes the whole way every call.
    gemm.grouped_matmul(a, b, offs, check=True)
    gemm.grouped_matmul(a, b, offs, check=True)
    assert len(whole) == 5


@pytest.mark.gpu
@pytest.mark.torch
def test_bad_offsets_are_caught_on_the_device():
    torch = _torch()
    a, b, _ = _problem([64, 64, 64], 128, 128, "bf16")
    out = torch.full((192, 128), 3.0, device="cuda", dtype=torch.bfloat16)
    decreasing = torch.tensor([64, 32, 192], device="cuda", dtype=torch.int32)
    # Default: no synchronisation, and the kernel writes nothing.
    gemm.grouped_matmul(a, b, decreasing, out=out)
    torch.cuda.synchronize()
    assert (out == 3.0).all()
    with pytest.raises(gemm.UsageError, match="decrease at group 1.*the kernel wrote nothing"):
        gemm.grouped_matmul(a, b, decreasing, out=out, check=True)
    past = torch.tensor([64, 128, 193], device="cuda", dtype=torch.int32)
    with pytest.raises(gemm.UsageError, match="group 2 ends at row 193, past the end of A"):
        gemm.grouped_matmul(a, b, past, out=out, check=True)
    good = torch.tensor([64, 128, 192], device="cuda", dtype=torch.int64)
    gemm.grouped_matmul(a, b, good, out=out, check=True)
    _assert_matches(out, a, b, [64, 64, 64], TOLERANCE["bf16"])


@pytest.mark.gpu
@pytest.mark.torch
def test_no_host_synchronisation_and_empty_inputs():
    torch = _torch()
    sizes = [100, 0, 200]
    a, b, offs = _problem(sizes, 256, 256, "bf16")
    gemm.grouped_matmul(a, b, offs)      # warm: kernel loaded
    torch.cuda.synchronize()
    # A captured CUDA graph fails on any synchronisation inside it.
    graph = torch.cuda.CUDAGraph()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        out = torch.empty(300, 256, device="cuda", dtype=torch.bfloat16)
        gemm.grouped_matmul(a, b, offs, out=out)
        torch.cuda.synchronize()
        with torch.cuda.graph(graph, stream=stream):
            gemm.grouped_matmul(a, b, offs, out=out)
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    _assert_matches(out, a, b, sizes, TOLERANCE["bf16"])
    empty = gemm.grouped_matmul(a[:0], b, torch.zeros(3, device="cuda", dtype=torch.int32))
    assert empty.shape == (0, 256)
    zero_k = gemm.grouped_matmul(a[:, :0], b[:, :, :0], offs)
    assert zero_k.shape == (300, 256) and (zero_k == 0).all()
