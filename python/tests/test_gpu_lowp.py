"""Low-precision GEMMs through the package on an sm_90a GPU with PyTorch:
torch float8 / int8 / uint8 / float32 tensors with their scales, against
references on the dequantised inputs in float64 (docs/LowPrecision.md), for
every type pair and scaling mode, fp8 outputs with their amax, and the
errors only real tensors raise."""
import math

import pytest

import gemm

pytestmark = [pytest.mark.gpu, pytest.mark.torch]

torch = pytest.importorskip("torch")

FP8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
OUT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}


ROUNDING = {torch.bfloat16: 1e-2, torch.float16: 5e-3, torch.float32: 1e-4,
            torch.float8_e4m3fn: 2.0 ** -4, torch.float8_e5m2: 2.0 ** -3}


def tolerance(out_dtype, k, fast=False, promote_k=128):
    """docs/LowPrecision.md: output rounding plus the fp8 accumulation bound
    over the elements of K accumulated in the WGMMA."""
    return ROUNDING[out_dtype] + max(k if fast else promote_k, 32) * 2.0 ** -14 / 6


def relative_error(c, ref):
    return ((c.double() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def fp8_inputs(m, n, k, a_type="e4m3", b_type="e4m3", seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, device="cuda", generator=g).to(FP8[a_type])
    b = torch.randn(n, k, device="cuda", generator=g).to(FP8[b_type])
    return a, b


def log_uniform(*shape, seed=1):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.exp2(torch.rand(*shape, device="cuda", generator=g) * 4 - 2)


def dequantised(x, scale, kind, which):
    """x (M x K or N x K) times its scales, in float64."""
    x = x.double()
    if scale is None:
        return x
    s = scale.double()
    if kind == "tensor":
        return x * s.reshape(())
    if kind == "row":
        return x * s.reshape(-1, 1)
    rows, k = x.shape
    if which == "a":  # [M, KB]: one per row and 128-deep k-block
        return x * s.reshape(rows, -1).repeat_interleave(128, dim=1)[:, :k]
    blocks = s.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
    return x * blocks[:rows, :k]


def scales_for(mode, m, n, k):
    kb, nb = math.ceil(k / 128), math.ceil(n / 128)
    if mode == "none":
        return None, None, None, None
    if mode == "tensor":
        return log_uniform(1), log_uniform(1, seed=2), "tensor", "tensor"
    if mode == "row":
        return log_uniform(m, 1), log_uniform(1, n, seed=2), "row", "row"
    # Block-wise: A [M, KB] outer-dim-major (as torch._scaled_mm takes it).
    a = log_uniform(kb, m).t()
    return a, log_uniform(nb, kb, seed=2), "block", "block"


SHAPES = [(256, 256, 256), (777, 333, 1100), (128, 4096, 4096), (1024, 1024, 2048)]


@pytest.mark.compiler
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("mode", ["none", "tensor", "row", "block"])
@pytest.mark.parametrize("pair", [("e4m3", "e4m3"), ("e4m3", "e5m2"), ("e5m2", "e4m3")])
def test_fp8_matches_dequantised_reference(m, n, k, mode, pair):
    a, b = fp8_inputs(m, n, k, *pair)
    sa, sb, ka, kb = scales_for(mode, m, n, k)
    c = gemm.matmul(a, b, scale_a=sa, scale_b=sb)
    assert c.dtype == torch.bfloat16 and c.shape == (m, n)
    ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
    err = relative_error(c, ref)
    assert err <= tolerance(torch.bfloat16, k), f"relative error {err:.2e}"


@pytest.mark.compiler
@pytest.mark.parametrize("out", ["f16", "f32"])
def test_fp8_outputs_and_fast_accumulation(out):
    m, n, k = 512, 768, 4096
    a, b = fp8_inputs(m, n, k)
    sa, sb = log_uniform(1), log_uniform(1, seed=2)
    ref = (a.double() * sa.double()) @ (b.double() * sb.double()).T
    for accumulate in ("promoted", "fast"):
        c = gemm.matmul(a, b, scale_a=sa, scale_b=sb, out_dtype=out, accumulate=accumulate)
        assert c.dtype == OUT[out]
        err = relative_error(c, ref)
        assert err <= tolerance(OUT[out], k, fast=accumulate == "fast"), \
            f"{accumulate}: relative error {err:.2e}"


@pytest.mark.compiler
@pytest.mark.parametrize("out", ["e4m3", "e5m2"])
def test_fp8_output_scale_and_amax(out):
    m, n, k = 300, 512, 1024
    a, b = fp8_inputs(m, n, k)
    sa, sb = log_uniform(m, 1), log_uniform(1, n, seed=2)
    x = dequantised(a, sa, "row", "a") @ dequantised(b, sb, "row", "b").T
    scale_out = torch.tensor([8.0 / x.std().item()], device="cuda")
    expected = x.abs().max().item()
    # The second call repeats the first's launch (gemm._api._launches): it
    # zeroes amax too, and reads the scales where they are now.
    for _ in range(2):
        amax = torch.full((1,), 123.0, device="cuda")  # set, not raised from 123
        c = gemm.matmul(a, b, scale_a=sa.clone(), scale_b=sb.clone(), out_dtype=out,
                        scale_out=scale_out.clone(), amax=amax)
        assert c.dtype == FP8[out]
        err = relative_error(c, x * scale_out.double())
        assert err <= tolerance(FP8[out], k), f"relative error {err:.2e}"
        assert abs(amax.item() - expected) <= 1e-2 * expected
    with pytest.raises(gemm.UsageError, match="needs scale_out"):
        gemm.matmul(a, b, out_dtype=out)


@pytest.mark.compiler
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("pair", [("s8", "s8"), ("u8", "s8"), ("s8", "u8"), ("u8", "u8")])
def test_int8_is_exact(m, n, k, pair):
    g = torch.Generator(device="cuda").manual_seed(3)
    types = {"s8": (torch.int8, -64, 64), "u8": (torch.uint8, 0, 128)}
    ta, lo_a, hi_a = types[pair[0]]
    tb, lo_b, hi_b = types[pair[1]]
    a = torch.randint(lo_a, hi_a, (m, k), device="cuda", generator=g).to(ta)
    b = torch.randint(lo_b, hi_b, (n, k), device="cuda", generator=g).to(tb)
    c = gemm.matmul(a, b)
    assert c.dtype == torch.int32
    # CUDA has no int64 matmul; f64 holds these sums (below 2^31) exactly.
    ref = a.double() @ b.double().T
    assert torch.equal(c.double(), ref)


@pytest.mark.compiler
@pytest.mark.parametrize("out", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("mode", ["tensor", "row"])
def test_int8_dequantised(out, mode):
    m, n, k = 512, 1024, 2048
    g = torch.Generator(device="cuda").manual_seed(4)
    # Sums of 2048 products of +-64 reach 10^5 with scales up to 16: past
    # f16's 65504 (inf, as a cast of them would give); +-4 stay far inside.
    limit = 4 if out == "f16" else 64
    a = torch.randint(-limit, limit, (m, k), device="cuda", generator=g).to(torch.int8)
    b = torch.randint(-limit, limit, (n, k), device="cuda", generator=g).to(torch.int8)
    sa, sb, ka, kb = scales_for(mode, m, n, k)
    c = gemm.matmul(a, b, scale_a=sa, scale_b=sb, out_dtype=out)
    ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
    err = relative_error(c, ref)
    assert err <= ROUNDING[OUT[out]], f"relative error {err:.2e}"  # s32 is exact
    # With scales, int8 defaults to a bf16 output.
    assert gemm.matmul(a, b, scale_a=sa, scale_b=sb).dtype == torch.bfloat16


# Decode-sized problems (M <= 64) of the kernel library's low-precision
# classes, through the library alone: where the model's lowp section
# measured the transposed problem's narrow tiles, they run C^T = B A^T, and
# A's row scales are the column scales of the transposed problem's B
# (docs/LowPrecision.md).
DECODE = [(16, 8192, 8192), (5, 4096, 14336), (33, 2048, 7168)]


@pytest.mark.parametrize("m,n,k", DECODE)
@pytest.mark.parametrize("kind", ["e4m3-tensor", "e4m3-row", "s8", "s8-row", "tf32"])
def test_decode_sized_problems(kind, m, n, k):
    dtype, _, mode = kind.partition("-")
    out = {"e4m3": "bf16", "s8": "bf16" if mode else "s32", "tf32": "f32"}[dtype]
    quant = {"tensor": "tt", "row": "rc", "": ""}[mode]
    pick = gemm.select(m, n, k, "f32" if dtype == "tf32" else dtype, out, device=0, quant=quant)
    g = torch.Generator(device="cuda").manual_seed(6)
    if dtype == "e4m3":
        a, b = fp8_inputs(m, n, k)
    elif dtype == "s8":
        a = torch.randint(-64, 64, (m, k), device="cuda", generator=g).to(torch.int8)
        b = torch.randint(-64, 64, (n, k), device="cuda", generator=g).to(torch.int8)
    else:
        a = torch.randn(m, k, device="cuda", generator=g)
        b = torch.randn(n, k, device="cuda", generator=g)
    sa, sb, ka, kb = scales_for(mode or "none", m, n, k)
    c = gemm.matmul(a, b, scale_a=sa, scale_b=sb, out_dtype=out)
    ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
    where = f"{pick.config.name}{' (transposed)' if pick.transposed else ''}"
    if out == "s32":
        # Sums of at most 14336 products of +-64 stay below 2^31.
        assert torch.equal(c.double(), ref), where
        return
    bound = {"e4m3": tolerance(OUT[out], k), "s8": ROUNDING[OUT[out]], "tf32": 5e-3}[dtype]
    err = relative_error(c, ref)
    assert err <= bound, f"{where}: relative error {err:.2e}"


@pytest.mark.parametrize("m,n,k", SHAPES + [(1, 1, 1)])
def test_tf32(m, n, k):
    g = torch.Generator(device="cuda").manual_seed(5)
    a = torch.randn(m, k, device="cuda", generator=g)
    b = torch.randn(n, k, device="cuda", generator=g)
    c = gemm.matmul(a, b)
    assert c.dtype == torch.float32
    # tf32 inputs (10 mantissa bits): about 2^-10 of bias.
    assert relative_error(c, a.double() @ b.double().T) <= 5e-3


@pytest.mark.compiler
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (8, 16, 32), (3, 5, 200)])
@pytest.mark.parametrize("kind", ["e4m3-tensor", "e4m3-block", "s8", "s8-row", "tf32"])
def test_tiny_problems(kind, m, n, k):
    # Smaller than half of every low-precision tile: the dispatcher runs
    # them on a whole tile of the kernel library (TMA zero-fills past the
    # problem, staging realigns the rows).
    g = torch.Generator(device="cuda").manual_seed(7)
    if kind.startswith("e4m3"):
        a, b = fp8_inputs(m, n, k, seed=7)
        sa, sb, ka, kb = scales_for(kind.split("-")[1], m, n, k)
        c = gemm.matmul(a, b, scale_a=sa, scale_b=sb)
        ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
        bound = tolerance(torch.bfloat16, k)
    elif kind.startswith("s8"):
        a = torch.randint(-64, 64, (m, k), device="cuda", generator=g).to(torch.int8)
        b = torch.randint(-64, 64, (n, k), device="cuda", generator=g).to(torch.int8)
        if kind == "s8":
            c = gemm.matmul(a, b)
            assert c.dtype == torch.int32
            assert torch.equal(c.double(), a.double() @ b.double().T)
            return
        sa, sb, ka, kb = scales_for("row", m, n, k)
        c = gemm.matmul(a, b, scale_a=sa, scale_b=sb, out_dtype="bf16")
        ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
        bound = ROUNDING[torch.bfloat16]
    else:
        a = torch.randn(m, k, device="cuda", generator=g)
        b = torch.randn(n, k, device="cuda", generator=g)
        c = gemm.matmul(a, b)
        ref = a.double() @ b.double().T
        bound = 5e-3
    assert c.shape == (m, n)
    err = relative_error(c, ref)
    assert err <= bound, f"{kind} {m}x{n}x{k}: relative error {err:.2e} > {bound:.2e}"


@pytest.mark.compiler
def test_long_k_promotion_beats_fast_accumulation():
    m, n, k = 256, 256, 65536
    a, b = fp8_inputs(m, n, k, seed=6)
    ref = a.double() @ b.double().T
    promoted = relative_error(gemm.matmul(a, b, out_dtype="f32"), ref)
    fast = relative_error(gemm.matmul(a, b, out_dtype="f32", accumulate="fast"), ref)
    assert promoted <= tolerance(torch.float32, k)
    assert fast <= tolerance(torch.float32, k, fast=True)
    print(f"K = {k}: promoted {promoted:.2e}, fast {fast:.2e}")
    assert promoted < fast


def test_bad_scale_tensors():
    m, n, k = 64, 128, 256
    a, b = fp8_inputs(m, n, k)
    with pytest.raises(gemm.UsageError, match="scales are f32 tensors"):
        gemm.matmul(a, b, scale_a=torch.ones(1, device="cuda", dtype=torch.float16))
    with pytest.raises(gemm.UsageError, match=r"scale_a has shape \[63, 1\]"):
        gemm.matmul(a, b, scale_a=torch.ones(63, 1, device="cuda"))
    # A's block scales [M, KB] row-major (not outer-dim-major): refused.
    with pytest.raises(gemm.UsageError, match=r"scale_a has shape \[64, 2\] and strides \[2, 1\]"):
        gemm.matmul(a, b, scale_a=torch.ones(64, 2, device="cuda"),
                    scale_b=torch.ones(1, 2, device="cuda"))
    with pytest.raises(gemm.UsageError, match="scales are f32 tensors on the GPU"):
        gemm.matmul(a, b, scale_a=torch.ones(1))
    with pytest.raises(gemm.UsageError, match="a is e4m3 and b is bf16"):
        gemm.matmul(a, b.to(torch.bfloat16))


def test_explicit_kernel_with_scales():
    m, n, k = 512, 512, 1024
    a, b = fp8_inputs(m, n, k)
    sa, sb, ka, kb = scales_for("block", m, n, k)
    kernel = gemm.compile(gemm.Config(tile=(128, 128, 128)), a_dtype="e4m3", quant="bb")
    c = kernel(a, b, scale_a=sa, scale_b=sb)
    ref = dequantised(a, sa, ka, "a") @ dequantised(b, sb, kb, "b").T
    assert relative_error(c, ref) <= tolerance(torch.bfloat16, k)
    with pytest.raises(gemm.UsageError, match="takes scale_a"):
        kernel(a, b)
