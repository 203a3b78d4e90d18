"""Low-precision GEMMs in the package without a GPU (docs/LowPrecision.md):
configuration names, the dispatcher's choice and the kernel library's share
of it, compiling fp8/int8/tf32 configurations, and the errors that bad
types and scales get before anything reaches a GPU."""
import re
import subprocess

import pytest

import gemm

from test_package import FakeCuda


def test_low_precision_config_names():
    config = gemm.Config(tile=(128, 128, 128))
    kc = config.kernel_config("e4m3", "bf16", b_dtype="e5m2", quant="bb")
    assert kc.name == "sm90_e4m3xe5m2_cbf16_qbb_128x128x128_coop_c1x1_rm_s8_st0"
    assert kc.b_dtype == "e5m2" and kc.quant == "qbb" and kc.out_dtype == "bf16"
    assert "a(f8E4M3FN, row) b(f8E5M2, col) c(bf16, row) acc(f32)" in kc.mlir
    assert "quant(#gemm.quant<a = block, b = block>)" in kc.mlir
    s8 = gemm.Config(tile=(128, 256, 128)).kernel_config("s8")
    assert s8.name == "sm90_s8_cs32_128x256x128_coop_c1x1_rm_s8_st0"
    assert "acc(i32)" in s8.mlir
    assert gemm.KernelConfig(kc.name) == kc
    too_wide = gemm.Config(tile=(128, 256, 128)).kernel_config("e4m3", quant="tt")
    ok, why = too_wide.buildable()
    assert not ok and "more than 192 (promoted fp8: the partial sums beside" in why
    # Three consumers compute a 192x128 tile's partial sums in 64-column
    # slices, which fit their 96 registers beside the f32 accumulator.
    tall = gemm.Config(tile=(192, 128, 128)).kernel_config("e4m3", quant="tt")
    assert tall.buildable() == (True, "")


@pytest.mark.parametrize("dtype,b_dtype,out_dtype,quant", [
    ("e4m3", None, "bf16", "tt"), ("e4m3", None, "bf16", "rc"), ("e4m3", None, "bf16", "bb"),
    ("s8", None, "s32", ""), ("s8", None, "bf16", "rc"), ("f32", None, "f32", "")])
def test_library_holds_the_low_precision_picks(runner, dtype, b_dtype, out_dtype, quant):
    library = gemm.kernel_library()
    assert library is not None
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 28672, 8192)]:
        pick = gemm.select(m, n, k, dtype, out_dtype, b_dtype=b_dtype, quant=quant)
        assert pick.source == "model" and pick.config.buildable()[0]
        assert pick.config in library.configs, pick.config.name
        # gemm-runner --library picks the same.
        command = [runner, "--library", library.dir, "--dtype", dtype, "--out-dtype",
                   out_dtype, "--m", str(m), "--n", str(n), "--k", str(k), "--dry-run"]
        if quant:
            command += ["--quant", quant]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        assert re.search(r"^library: (\S+) for", out, re.M).group(1) == pick.config.name


@pytest.mark.parametrize("dtype,out_dtype,quant", [
    ("e4m3", "bf16", "tt"), ("e4m3", "bf16", "bb"), ("s8", "s32", ""), ("s8", "bf16", "rc"),
    ("f32", "f32", "")])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (8, 16, 32), (3, 5, 200)])
def test_tiny_low_precision_problems_use_the_library(runner, dtype, out_dtype, quant, m, n, k):
    # Smaller than half of every low-precision tile of the library (no direct
    # kernel takes these types): the dispatcher runs them on a whole library
    # tile (TMA zero-fills past the problem, staging realigns the rows)
    # instead of compiling a kernel on first use, and gemm-runner --library
    # picks the same.
    library = gemm.kernel_library()
    assert library is not None
    pick = gemm.select(m, n, k, dtype, out_dtype, quant=quant)
    assert pick.config in library.configs, pick.config.name
    assert pick.config.in_dtype == dtype and pick.config.out_dtype == out_dtype
    command = [runner, "--library", library.dir, "--dtype", dtype, "--out-dtype", out_dtype,
               "--m", str(m), "--n", str(n), "--k", str(k), "--dry-run"]
    if quant:
        command += ["--quant", quant]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert re.search(r"^library: (\S+) for", out, re.M).group(1) == pick.config.name


def test_select_low_precision():
    # Fast accumulation takes the 256-row or 256-column tiles that promoted
    # sums have no registers for.
    fast = gemm.select(4096, 4096, 4096, "e4m3", quant="ttf")
    assert fast.config.quant == "qttf" and max(fast.config.tile[:2]) == 256
    assert gemm.select(4096, 4096, 4096, "e4m3", quant="tt").config.tile[1] <= 192
    mixed = gemm.select(4096, 4096, 4096, "u8", "bf16", b_dtype="s8", quant="rc")
    assert mixed.config.name.startswith("sm90_u8xs8_cbf16_qrc_")
    with pytest.raises(gemm.DispatchError, match="an s32 output has no scales"):
        gemm.select(64, 64, 64, "s8", "s32", quant="rc")
    with pytest.raises(gemm.DispatchError, match="block-wise scales go together"):
        gemm.select(64, 64, 64, "e4m3", quant="bt")
    with pytest.raises(gemm.UsageError, match="not a quant spelling"):
        gemm.select(64, 64, 64, "e4m3", quant="zz")


def test_low_precision_layouts_and_batches():
    # WGMMA reads 8-bit and tf32 operands K-major only.
    with pytest.raises(gemm.DispatchError, match="A and B must be K-major"):
        gemm.select(4096, 4096, 4096, "e4m3", quant="tt", layouts="col,col,row")
    with pytest.raises(gemm.DispatchError, match="A and B must be K-major"):
        gemm.select(4096, 4096, 4096, "f32", layouts="row,row,row")
    # A column-major C: the transposed problem on a measured kernel (the
    # model's lowp section) where the model estimates it faster than a
    # kernel of its own (compiled: the library holds row-major C kernels)...
    def ccol(quant):
        return gemm._core.select(4096, 4096, 4096, "e4m3", None, gemm.dispatch_model(),
                                 "sm_90a", 132, None, "row,col,col", 1, None, quant)
    measured = ccol("rc")
    assert measured.transposed and measured.config.layouts == "row,col,row"
    # ...and a kernel of its own where no kernel of the transposed problem
    # was measured (fast accumulation)...
    own = ccol("ttf")
    assert not own.transposed and own.config.layouts == "row,col,col"
    assert own.config.name.startswith("sm90_e4m3_cbf16_qttf_akbkcc_")
    assert gemm.select(4096, 4096, 4096, "e4m3", quant="rc", layouts="row,col,col").transposed
    # ...the transposed problem for an fp8 C (written row-major only), with
    # A's row scales as the column scales of its B.
    fp8 = gemm.select(1024, 4096, 4096, "e4m3", "e4m3", quant="rc", layouts="row,col,col")
    assert fp8.transposed and fp8.config.layouts == "row,col,row"
    assert fp8.config.quant == "qrc"
    mixed = gemm.select(1024, 4096, 4096, "e4m3", "e4m3", b_dtype="e5m2", quant="tt",
                        layouts="row,col,col")
    assert mixed.transposed and mixed.config.name.startswith("sm90_e5m2xe4m3_ce4m3_qtt_")
    with pytest.raises(gemm.DispatchError, match="block-wise scales do not have"):
        gemm.select(1024, 4096, 4096, "e4m3", "e4m3", quant="bb", layouts="row,col,col")
    # Batches take per-tensor scales (one for every entry), whole tiles.
    batched = gemm.select(1024, 1024, 1024, "e4m3", quant="tt", batch=8)
    assert batched.config.batched and batched.config.splits == 1
    assert "_qtt_batched_" in batched.config.name
    with pytest.raises(gemm.DispatchError, match="a batch takes per-tensor scales"):
        gemm.select(1024, 1024, 1024, "e4m3", quant="rc", batch=8)


@pytest.mark.compiler
def test_compile_low_precision(cache):
    kernel = gemm.compile(gemm.Config(tile=(128, 64, 128)), a_dtype="e5m2", b_dtype="e4m3",
                          c_dtype="f32", quant="rc")
    assert kernel.name == "sm90_e5m2xe4m3_cf32_qrc_128x64x128_coop_c1x1_rm_s8_st0"
    assert kernel.dtypes == ("e5m2", "e4m3", "f32")
    plan = kernel.plan(300, 520, 1024)
    assert plan.scales == [("a", "row", 300, 1), ("b", "col", 1, 520)]
    out = gemm.compile(gemm.Config(tile=(128, 128, 128)), a_dtype="e4m3", c_dtype="e4m3",
                       quant="tt")
    assert out.plan(256, 256, 256).scales == [("a", "tensor", 1, 1), ("b", "tensor", 1, 1),
                                              ("c", "tensor", 1, 1), ("amax", "", 1, 1)]
    tf32 = gemm.compile(gemm.Config(tile=(128, 256, 32)), a_dtype="f32")
    assert tf32.dtypes == ("f32", "f32", "f32")
    with pytest.raises(gemm.CompileError, match="use BK = 128"):
        gemm.compile(gemm.Config(tile=(128, 128, 64)), a_dtype="e4m3")
    with pytest.raises(gemm.CompileError, match="256 accumulator registers"):
        gemm.compile(gemm.Config(tile=(128, 256, 128)), a_dtype="e4m3")


# ---------------------------------------------------------------------------
# Bad types and scales, refused before any GPU is touched (CUDA array
# interface stand-ins: s8 "|i1", f32 "<f4", f16 "<f2")
# ---------------------------------------------------------------------------

def i8(shape, **kwargs):
    return FakeCuda(shape, "|i1", **kwargs)


def f32(shape, **kwargs):
    return FakeCuda(shape, "<f4", **kwargs)


@pytest.mark.parametrize("kwargs,message", [
    (dict(scale_a=FakeCuda((4, 1))), r"scale_a is f16 on cuda:0: scales are f32 tensors"),
    (dict(scale_a=f32((5, 1))), r"scale_a has shape \[5, 1\] .* for M=4, N=6, K=8: expected "
                                r"one element, \[M, 1\] per row"),
    (dict(scale_b=f32((4,))), r"scale_b has shape \[4\] .* expected one element, \[1, N\]"),
    (dict(scale_a=f32((1,)), scale_b=f32((1,)), out_dtype="s32"),
     "an s32 output has no scales"),
    (dict(accumulate="fast"), "8-bit integers accumulate exactly"),
    (dict(accumulate="slow"), "accumulate='slow': expected 'promoted' or 'fast'"),
    (dict(out_dtype="e4m3"), r"the output of s8 inputs is bf16, f16 or f32, or s32"),
    (dict(scale_a=f32((1,)), device_b=1), "put both on the same GPU"),
])
def test_bad_scales_are_named(kwargs, message):
    b_device = kwargs.pop("device_b", 0)
    a, b = i8((4, 8)), i8((6, 8), device=b_device)
    with pytest.raises(gemm.UsageError, match=message):
        gemm.matmul(a, b, **kwargs)


def test_block_scales_go_together_and_need_their_layout():
    # M = 4, N = 6, K = 300: 3 k-blocks, 1 block column.
    a, b = FakeCuda((4, 304), "|i1"), FakeCuda((6, 304), "|i1")
    with pytest.raises(gemm.UsageError, match="block-wise scales go together"):
        gemm.matmul(a, b, scale_a=f32((3, 4)), scale_b=f32((1, 6)))
    # A's 1 x 128 blocks are k-block-major: [M, KB] row-major is not.
    with pytest.raises(gemm.UsageError, match=r"scale_a has shape \[4, 3\] and strides \[3, 1\]"):
        gemm.matmul(a, b, scale_a=f32((4, 3), strides=(12, 4)), scale_b=f32((1, 3)))


def test_scales_need_low_precision_inputs():
    a, b = FakeCuda((4, 8)), FakeCuda((6, 8))
    with pytest.raises(gemm.UsageError, match="a and b are f16: scales and accumulate apply to "
                                              "fp8"):
        gemm.matmul(a, b, scale_a=f32((1,)))
