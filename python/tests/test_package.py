"""The package without a GPU: import, configurations, the dispatcher (the
same choice as gemm-runner), compiling and the on-disk cache, bundles, and
the errors that bad input gets before anything reaches a GPU."""
import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gemm
from gemm import _api, _jit


def test_import_needs_no_gpu():
    # The module imported (this file ran); the GPU-only calls say why they fail.
    try:
        info = gemm.device_info(0)
    except gemm.NoDeviceError as e:
        assert "no NVIDIA driver" in str(e) or "no CUDA GPU" in str(e) or "stub" in str(e)
    else:
        assert info["sm_count"] > 0
    assert issubclass(gemm.UsageError, ValueError)
    assert issubclass(gemm.NoDeviceError, gemm.GemmError)


def test_config_names_and_mlir():
    config = gemm.Config(tile=(128, 256, 64), cluster=(2, 1))
    kc = config.kernel_config("bf16")
    assert kc.name == "sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0"
    assert "cluster = [2, 1]" in kc.mlir and "c(bf16, row)" in kc.mlir
    assert config.kernel_config("f16", "f32").name == \
        "sm90_f16_cf32_128x256x64_coop_c2x1_rm_s8_st0"
    assert gemm.Config.from_kernel_config(kc) == config
    assert gemm.KernelConfig("64x64x64_pingpong_c1x1_rm_s8_st0_k2").splits == 2
    with pytest.raises(gemm.UsageError, match="schedule 'fast': expected cooperative"):
        gemm.Config(schedule="fast").kernel_config()
    with pytest.raises(gemm.UsageError, match="not a kernel configuration name"):
        gemm.KernelConfig("128x256")
    with pytest.raises(gemm.UsageError, match="arch sm_100a: the package compiles sm_90a"):
        gemm.Config(arch="sm_100a").kernel_config()


def test_buildable_follows_the_compiler():
    # 192-row tiles have three consumers of at most 96 accumulator registers.
    assert gemm.Config(tile=(192, 192, 64)).kernel_config("bf16").buildable() == (True, "")
    ok, why = gemm.Config(tile=(192, 208, 64)).kernel_config("bf16").buildable()
    assert not ok and "more than 96 (three consumers)" in why
    # Tile K spans one 128-byte swizzle row.
    ok, why = gemm.Config(tile=(128, 128, 32)).kernel_config("bf16").buildable()
    assert not ok and "use BK = 64" in why


def test_select_explains_its_choice():
    big = gemm.select(4096, 4096, 4096)
    assert big.source == "model" and "candidates that apply, by the fitted model" in big.reason
    # The shipped model's GPU (its split direct candidates' runs are an
    # H100's: "NVIDIA H200 + NVIDIA H100 80GB HBM3").
    assert "training shapes on an NVIDIA H200" in big.reason and "132 SMs" in big.reason
    assert big.estimate["seconds"] > 0 and big.estimate["tiles"] > 0
    small = gemm.select(100, 100, 100, "f16")
    assert small.source == "model" and small.config.name.startswith("sm90_f16_")
    assert gemm.select(100, 100, 100, sm_count=66).reason.count("66 SMs") == 1
    # The choice is the model's fastest estimate among the candidates.
    model = gemm.dispatch_model()
    estimates = [model.estimate(c, 4096, 4096, 4096)["seconds"] for c in model.candidates
                 if gemm._core.is_applicable(c, 4096, 4096, 4096)]
    assert big.estimate["seconds"] == pytest.approx(min(estimates))
    with pytest.raises(gemm.DispatchError, match="e4m3 x bf16 -> bf16: sm_90a kernels take A "
                       "and B of bf16, f16 or f32"):
        gemm.select(64, 64, 64, "e4m3", b_dtype="bf16")
    with pytest.raises(gemm.UsageError, match="at least 1"):
        gemm.select(0, 64, 64)


def test_realigning_follows_the_runtime():
    # Rows that are 16-byte but not 32-byte (L2 sector) multiples are copied
    # into 128-byte rows where reused at least 1024 times in problems of 2^32
    # multiply-adds (gemm::runtime::realignPays); rows on whole sectors and C
    # never are.
    assert gemm._core.STAGING_ROW_ALIGNMENT == 128
    assert gemm._core.realign_pays("a", 7784, 7784, 7784, 15568)
    assert not gemm._core.realign_pays("a", 6000, 6000, 6000, 12000)
    assert gemm._core.realign_pays("a", 6000, 6000, 6008, 12016)
    assert not gemm._core.realign_pays("a", 7784, 7784, 7808, 15616)
    assert not gemm._core.realign_pays("b", 1000, 7784, 7784, 15568)
    assert not gemm._core.realign_pays("c", 7784, 7784, 7784, 15568)
    with pytest.raises(gemm.UsageError, match="expected a, b or c"):
        gemm._core.realign_pays("d", 1, 1, 1, 16)


def test_layouts_name_the_kernel_and_keep_the_configuration():
    config = gemm.Config(tile=(128, 256, 64), cluster=(2, 1))
    kc = config.kernel_config("bf16", None, "col,row,col")
    assert kc.name == "sm90_bf16_ambncc_128x256x64_coop_c2x1_rm_s8_st0"
    assert kc.layouts == "col,row,col" and kc.key == config.kernel_config().key
    assert "a(bf16, col) b(bf16, row) c(bf16, col)" in kc.mlir
    assert gemm.KernelConfig(kc.name).layouts == "col,row,col"
    assert gemm.Config.from_kernel_config(kc) == config
    with pytest.raises(gemm.UsageError, match="is not three layouts of A, B and C"):
        config.kernel_config("bf16", None, "col,row")
    plain = gemm.select(4096, 4096, 4096)
    x_w = gemm.select(4096, 4096, 4096, layouts="row,row,row")
    assert x_w.config.key == plain.config.key and x_w.config.layouts == "row,row,row"
    assert not x_w.transposed and x_w.config in gemm.kernel_library().configs


def test_column_major_c_runs_as_the_transposed_problem():
    # The library holds the four input layouts with a row-major C; a
    # column-major C is the row-major C^T = B A^T of N x M x K, A and B
    # exchanged (an M-major A is the transposed problem's N-major B).
    s = gemm.select(256, 8192, 4096, layouts="col,col,col")
    assert s.transposed and s.config.layouts == "row,row,row"
    assert s.config in gemm.kernel_library().configs
    assert "the transposed problem C^T = B A^T (m=8192 n=256 k=4096" in s.reason
    assert s.config.key == gemm.select(8192, 256, 4096).config.key


def test_batches_select_batched_kernels_of_whole_tiles():
    s = gemm.select(1024, 1024, 1024, batch=32)
    assert s.config.batched and s.config.splits == 1 and not s.config.stream_k
    assert "batched_" in s.config.name and s.config in gemm.kernel_library().configs
    assert not gemm.select(1024, 1024, 1024).config.batched
    t = gemm.select(512, 512, 128, batch=128, layouts="col,row,col")
    assert t.transposed and t.config.batched and t.config.layouts == "col,row,row"
    with pytest.raises(gemm.UsageError, match="batch must be at least 1"):
        gemm.select(64, 64, 64, batch=0)
    kc = gemm.Config(tile=(128, 256, 64)).kernel_config("bf16", None, "row,col,row", True)
    assert kc.name == "sm90_bf16_batched_128x256x64_coop_c1x1_rm_s8_st0" and kc.batched
    assert "acc(f32) batched" in kc.mlir


def test_batched_bundle_plans_strides_without_gpu():
    library = gemm.kernel_library()
    config = gemm.select(1024, 1024, 1024, batch=8).config
    kernel = gemm.load(library.manifest_path(config))
    assert kernel.batched
    plan = kernel.plan(1024, 1024, 1024, batch=8)
    assert "batch stride 1048576" in plan.describe()
    broadcast = kernel.bundle.plan(1024, 1024, 1024, batch=8, batch_strides=(0, None, None))
    assert "batch stride 0 (broadcast" in broadcast.describe()
    with pytest.raises(gemm.UsageError, match="entries of C overlap"):
        kernel.bundle.plan(1024, 1024, 1024, batch=8, batch_strides=(None, None, 1024))
    with pytest.raises(gemm.UsageError, match="is not a multiple of 16 bytes"):
        kernel.bundle.plan(1024, 1024, 1024, batch=8, batch_strides=(1028, None, None))


def _view(shape, strides, ptr=0x10000, dtype="bf16"):
    from gemm._tensors import TensorView
    return TensorView(None, "torch", ptr, shape, strides, dtype, True, 0, "cuda:0")


def test_storage_orders_tma_can_read():
    storage = _api._storage
    assert storage(_view((64, 128), (128, 1))) == ("row", 128)         # row-major
    assert storage(_view((64, 128), (1, 64))) == ("col", 64)           # a.t() of [128, 64]
    assert storage(_view((64, 100), (1, 72))) == ("col", 72)           # padded columns
    assert storage(_view((64, 128), (256, 1))) == ("row", 256)         # a view of wider rows
    assert storage(_view((64, 100), (100, 1))) is None                 # 200-byte rows
    assert storage(_view((64, 128), (1, 100))) is None                 # 200-byte columns
    assert storage(_view((64, 128), (128, 1), ptr=0x10002)) is None    # misaligned base
    assert storage(_view((64, 128), (256, 2))) is None                 # strided columns
    assert storage(_view((1, 100), (100, 1))) == ("row", 104)          # one row: any aligned ld
    assert storage(_view((100, 1), (1, 100))) == ("col", 104)          # one column: along it
    assert storage(_view((64, 8), (1, 64), dtype="f32")) == ("col", 64)


SHAPES = [(4096, 4096, 4096, "bf16"), (1, 8192, 8192, "f16"), (3000, 5000, 7000, "bf16"),
          (777, 4096, 14336, "bf16"), (100, 100, 100, "f16"), (8192, 28672, 8192, "bf16")]


@pytest.mark.parametrize("m,n,k,dtype", SHAPES)
def test_runner_and_package_pick_the_same_kernel(runner, m, n, k, dtype):
    library = gemm.kernel_library()
    assert library is not None, "the package ships a kernel library"
    out = subprocess.run([runner, "--library", library.dir, "--dtype", dtype, "--m", str(m),
                          "--n", str(n), "--k", str(k), "--dry-run"],
                         capture_output=True, text=True, check=True).stdout
    picked = re.search(r"^library: (\S+) for", out, re.M).group(1)
    assert picked == gemm.select(m, n, k, dtype).config.name
    # The package's dispatch picks a kernel of its library: no compiling.
    assert gemm.select(m, n, k, dtype).config in library.configs
    # And in other layouts.
    for layouts in ("col,row,row", "row,row,col"):
        out = subprocess.run([runner, "--library", library.dir, "--dtype", dtype, "--m", str(m),
                              "--n", str(n), "--k", str(k), "--layout", layouts, "--dry-run"],
                             capture_output=True, text=True, check=True).stdout
        picked = re.search(r"^library: (\S+) for", out, re.M).group(1)
        selection = gemm.select(m, n, k, dtype, layouts=layouts)
        assert picked == selection.config.name
        assert ("running the transposed problem" in out) == selection.transposed


def test_stream_k_plan_is_the_kernels():
    # (dp_units, workers, workers_per_unit) of gemm::bundle::streamKPlan: the
    # last partial wave split in aligned k-ranges when each unit can go to
    # two workers or more; else nothing shared.
    assert gemm._core.stream_k_plan(448, 132, 128) == (396, 104, 2)
    assert gemm._core.stream_k_plan(426, 132, 66) == (396, 120, 4)
    assert gemm._core.stream_k_plan(512, 132, 64) == (512, 0, 0)
    assert gemm._core.stream_k_plan(64, 132, 1) == (64, 0, 0)
    with pytest.raises(ValueError, match="ctas must be at least 1"):
        gemm._core.stream_k_plan(4, 0, 8)


def test_tma_staging_is_the_runtimes_rule():
    # (a, b, c): what the runtime copies around a TMA kernel
    # (gemm::dispatch::stagedForTma): rows or addresses that are not 16-byte
    # multiples, and rows worth realigning; packed rows by default.
    assert gemm._core.tma_staging(44, 206, 46) == (True, True, True)
    assert gemm._core.tma_staging(44, 204, 46, "bf16", "f32") == (True, True, False)
    assert gemm._core.tma_staging(4096, 4096, 4096, "f16") == (False, False, False)
    assert gemm._core.tma_staging(7784, 7784, 7784) == (True, True, False)
    # The caller's leading dimensions and addresses.
    assert gemm._core.tma_staging(100, 104, 100, "bf16", None, (104, 104, 104)) == \
        (False, False, False)
    # C's lines of N = 100 bf16 (200 bytes) end inside a 16-byte chunk, which
    # a TMA store writes whole: C is staged whatever its leading dimension;
    # a column-major C's lines are M long.
    assert gemm._core.tma_staging(100, 100, 100, "bf16", None, (104, 104, 104)) == \
        (False, False, True)
    assert gemm._core.tma_staging(104, 100, 100, "bf16", None, (104, 104, 104),
                                  layouts="row,col,col") == (False, False, False)
    assert gemm._core.tma_stores_whole_chunks("bf16", 8)
    assert not gemm._core.tma_stores_whole_chunks("bf16", 130)
    assert gemm._core.tma_stores_whole_chunks("f32", 4)
    assert gemm._core.tma_staging(100, 104, 100, "bf16", None, (104, 104, 104),
                                  (0x1002, 0, 0)) == (True, False, False)
    # The dispatcher is told, or assumes packed rows as gemm-runner does.
    assert gemm.select(44, 206, 46).config == \
        gemm.select(44, 206, 46, staged=(True, True, True)).config
    # A version 2 model (the tooling tests' one) charges TMA kernels for the
    # copies and direct kernels nothing, and picks a direct kernel there.
    model = gemm._core.DispatchModel.load(os.path.join(
        os.path.dirname(__file__), "..", "..", "test", "Python", "Inputs", "model.json"))
    tma = gemm.KernelConfig("64x64x64_pingpong_c1x1_rm_s8_st0")
    direct = gemm.KernelConfig("64x64x64_direct_c1x1_rm_s8_st0")
    copied = model.estimate(tma, 44, 206, 46)
    assert copied["staging_s"] > 0
    assert copied["seconds"] > model.estimate(tma, 44, 206, 46, staged=(False,) * 3)["seconds"]
    assert model.estimate(direct, 44, 206, 46)["staging_s"] == 0
    assert gemm._core.select(44, 206, 46, model=model).config.schedule == "direct"
    # The direct kernel multiplies bf16 and f16 only: low-precision problems
    # get TMA kernels there, every matrix staged or not.
    for dtype, out, quant in (("e4m3", "bf16", "tt"), ("s8", None, ""), ("f32", None, "")):
        pick = gemm._core.select(44, 206, 46, dtype, out, model=model, quant=quant,
                                 staged=(True, True, True)).config
        assert pick.schedule != "direct" and pick.in_dtype == dtype


def test_load_bundle_and_plan_without_gpu():
    library = gemm.kernel_library()
    name = gemm.select(4096, 4096, 4096).config
    kernel = gemm.load(library.manifest_path(name))
    assert kernel.name == name.name and kernel.dtypes == ("bf16", "bf16", "bf16")
    assert kernel.layouts == "row,col,row"
    plan = kernel.plan(4096, 4096, 4096)
    assert plan.lds == (4096, 4096, 4096) and plan.grid[0] <= 132
    assert gemm.load(library.manifest_path(name)) is kernel
    with pytest.raises(gemm.BundleError, match="nothing.json"):
        gemm.load("/nonexistent/nothing.json")
    with pytest.raises(gemm.UsageError, match="leading dimension 4095"):
        kernel.bundle.plan(8, 8, 4095)  # the packed bf16 rows are not 16-byte multiples


# ---------------------------------------------------------------------------
# Compiling on first use, and the cache
# ---------------------------------------------------------------------------

DIRECT = gemm.Config(tile=(64, 64, 64), schedule="direct")


@pytest.mark.compiler
def test_direct_kernels_take_pointers_at_any_alignment(cache):
    kernel = gemm.compile(DIRECT, a_dtype="bf16")
    assert kernel.name == "sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0"
    assert gemm.Config.from_kernel_config(gemm.KernelConfig(kernel.name)) == DIRECT
    # No TMA, element-size alignment: nothing is ever staged for it.
    assert kernel.tma == (False, False, False)
    assert kernel.bundle.alignment_bytes == 2
    plan = kernel.plan(8688, 23, 28)
    assert plan.lds == (28, 28, 23) and plan.grid[0] == 136 and plan.block[0] == 128
    assert "staging" not in plan.describe()
    # The caller's leading dimensions, whatever they are.
    plan = kernel.bundle.plan(100, 23, 28, 132, 31, 29, 25)
    assert plan.lds == (31, 29, 25)
    assert "leading_dim a = 31 (u64)" in plan.describe()
    # TMA kernels take none of that.
    assert gemm.compile(UNUSUAL, a_dtype="bf16").tma == (True, True, True)


@pytest.mark.compiler
def test_direct_kernels_take_layouts_as_strides_but_no_batch(cache):
    kernel = gemm.compile(DIRECT, a_dtype="bf16", layouts="col,row,col")
    assert kernel.name == "sm90_bf16_ambncc_64x64x64_direct_c1x1_rm_s8_st0"
    assert kernel.layouts == "col,row,col" and kernel.tma == (False, False, False)
    # Stored rows of M (A), N (B) and M (C), any length.
    plan = kernel.plan(100, 23, 28)
    assert plan.lds == (100, 23, 100)
    with pytest.raises(gemm.CompileError, match="schedule = direct has no batched form"):
        gemm.compile(DIRECT, a_dtype="bf16", batched=True)


def test_dispatcher_takes_direct_kernels_for_k_major_single_problems_only():
    # The tooling tests' version 2 model picks a direct kernel for these odd
    # rows; with an M- or N-major operand (its loads would not coalesce) or
    # a batch it takes a TMA kernel; a column-major C is written through
    # the direct kernel's strides.
    model = gemm._core.DispatchModel.load(os.path.join(
        os.path.dirname(__file__), "..", "..", "test", "Python", "Inputs", "model.json"))
    def pick(layouts="row,col,row", batch=1):
        staged = gemm._core.tma_staging(44, 206, 46, layouts=layouts)
        return gemm._core.select(44, 206, 46, model=model, layouts=layouts, batch=batch,
                                 staged=staged).config
    assert pick().schedule == "direct"
    assert pick("row,col,col").schedule == "direct"
    assert pick("row,col,col").layouts == "row,col,col"
    for layouts in ("col,col,row", "row,row,row", "col,row,col"):
        assert pick(layouts).schedule != "direct", layouts
    assert pick(batch=4).schedule != "direct"
    # Packed rows in each layout: A col stores rows of M = 64 (128 bytes).
    assert gemm._core.tma_staging(64, 206, 46, layouts="col,col,row") == (False, True, True)

# Not in the kernel library: always compiled.
UNUSUAL = gemm.Config(tile=(128, 128, 64), cluster=(1, 2), raster="along_n", swizzle=4)


@pytest.mark.compiler
def test_compile_once_then_from_the_cache(cache, monkeypatch):
    kernel = gemm.compile(UNUSUAL, a_dtype="f16")
    assert kernel.name == "sm90_f16_128x128x64_coop_c1x2_rn_s4_st0"
    assert kernel.manifest_path.startswith(str(cache))
    entries = os.listdir(cache / "kernels")
    assert len(entries) == 1 and entries[0].startswith(kernel.name + "-")
    assert sorted(os.listdir(cache / "kernels" / entries[0])) == sorted(
        ["digests.json", kernel.name + ".json", kernel.name + ".ptx", kernel.name + ".cubin"])

    def no_compiler(*args, **kwargs):
        raise AssertionError("compiled again")
    monkeypatch.setattr(_jit.subprocess, "run", no_compiler)
    # Warm: the same Kernel object, without file I/O.
    real_open = open
    monkeypatch.setattr("builtins.open", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("file I/O on a warm call")))
    assert gemm.compile(UNUSUAL, a_dtype="f16") is kernel
    monkeypatch.setattr("builtins.open", real_open)
    # A new process (simulated: the in-memory memo cleared) finds it on disk.
    monkeypatch.setattr(_api, "_kernels", {})
    assert gemm.compile(UNUSUAL, a_dtype="f16").manifest_path == kernel.manifest_path


@pytest.mark.compiler
def test_library_configs_are_not_compiled(cache):
    config = gemm.Config.from_kernel_config(gemm.select(4096, 4096, 4096).config)
    kernel = gemm.compile(config)
    assert kernel.manifest_path.startswith(gemm.kernel_library().dir)
    assert not os.path.exists(cache / "kernels")


@pytest.mark.compiler
@pytest.mark.parametrize("damage", ["truncate-ptx", "garbage-manifest", "delete-cubin"])
def test_a_corrupt_cache_entry_is_rebuilt(cache, monkeypatch, damage):
    first = gemm.compile(UNUSUAL)
    entry = os.path.dirname(first.manifest_path)
    ptx = first.manifest_path[:-len(".json")] + ".ptx"
    if damage == "truncate-ptx":
        with open(ptx, "r+b") as f:
            f.truncate(100)
    elif damage == "garbage-manifest":
        with open(first.manifest_path, "w") as f:
            f.write("{ not json")
    else:
        os.remove(first.manifest_path[:-len(".json")] + ".cubin")
    monkeypatch.setattr(_api, "_kernels", {})
    again = gemm.compile(UNUSUAL)
    assert again.manifest_path == first.manifest_path
    assert _jit._entry_is_intact(entry, again.manifest_path)
    assert os.path.getsize(ptx) > 1000


@pytest.mark.compiler
def test_two_processes_compiling_at_once_both_get_a_valid_bundle(cache):
    script = textwrap.dedent("""
        import gemm, sys
        k = gemm.compile(gemm.Config(tile=(128, 64, 64), schedule="pingpong", swizzle=16))
        gemm.load(k.manifest_path)
        print(k.manifest_path)
    """)
    env = dict(os.environ, GEMM_CACHE_DIR=str(cache))
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [p.communicate() + (p.returncode,) for p in procs]
    for out, err, code in results:
        assert code == 0, err
    paths = {out.strip() for out, _, _ in results}
    assert len(paths) == 1
    assert len([e for e in os.listdir(cache / "kernels") if not e.startswith(".")]) == 1
    assert not [e for e in os.listdir(cache / "kernels") if e.startswith(".")], \
        "temporary directories left behind"
    assert _jit._entry_is_intact(os.path.dirname(paths.pop()), next(iter(
        {out.strip() for out, _, _ in results})))


@pytest.mark.compiler
def test_compiler_diagnostics_reach_the_caller(cache):
    with pytest.raises(gemm.CompileError, match="accumulator registers per thread"):
        gemm.compile(gemm.Config(tile=(128, 256, 64), schedule="pingpong"))


def test_a_missing_compiler_is_named(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("GEMM_OPT", str(tmp_path / "gemm-opt"))
    with pytest.raises(gemm.CompilerNotFoundError, match="GEMM_OPT=.* is not an executable"):
        gemm.compile(UNUSUAL)
    monkeypatch.delenv("GEMM_OPT")
    monkeypatch.setattr(_jit, "_PACKAGE_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(gemm.CompilerNotFoundError, match="not in the kernel library"):
        gemm.compile(UNUSUAL)


def test_compile_refuses_mixed_types():
    with pytest.raises(gemm.UsageError, match="bf16 x f16: sm_90a kernels take A and B"):
        gemm.compile(UNUSUAL, a_dtype="bf16", b_dtype="f16")
    with pytest.raises(gemm.UsageError, match="the output of bf16 inputs is bf16, f16 or f32"):
        gemm.compile(UNUSUAL, c_dtype="e4m3")
    with pytest.raises(gemm.UsageError, match="c_dtype=s8: expected one of"):
        gemm.compile(UNUSUAL, c_dtype="s8")


# ---------------------------------------------------------------------------
# Bad tensors are refused before any GPU is touched
# ---------------------------------------------------------------------------

class FakeCuda:
    """An array that claims to live on a GPU (never dereferenced: every case
    below fails its checks first)."""

    def __init__(self, shape, typestr="<f2", device=0, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (0x10000, False), "version": 3,
                                         "strides": strides}

        class Device:
            id = device
        self.device = Device()


@pytest.mark.parametrize("a,b,message", [
    (np.ones((4, 8), np.float16), np.ones((4, 8), np.float16), "a is on cpu.*move it there"),
    (FakeCuda((4, 8)), "weights", "a builtins.str is not a tensor"),
    (FakeCuda((4, 8)), FakeCuda((4, 8), "<f4"), "a is f16 and b is f32: A and B must be both"),
    (FakeCuda((4, 8), "<f8"), FakeCuda((4, 8), "<f8"), "a is f64 and b is f64"),
    (FakeCuda((4, 8), "|i1"), FakeCuda((4, 8), "<f2"), "a is s8 and b is f16"),
    (FakeCuda((4, 8)), FakeCuda((5, 9)), r"same K \(8 != 9\); for x @ W with W \[K, N\] pass W.T"),
    (FakeCuda((2, 2, 4, 8)), FakeCuda((4, 8)), r"expected a matrix \(A \[M, K\]\) or a batch "
     r"of them \(A \[batch, M, K\]\)"),
    (FakeCuda((2, 4, 8)), FakeCuda((3, 4, 8)), "their batch sizes 2 and 3 differ"),
    (FakeCuda((4, 8)), FakeCuda((4, 8), device=1), "put both on the same GPU"),
])
def test_bad_tensors_are_named(a, b, message):
    with pytest.raises(gemm.UsageError, match=message):
        gemm.matmul(a, b)


def test_matmul_without_a_gpu_says_so():
    try:
        gemm.device_info(0)
        pytest.skip("a GPU is here: tests/test_gpu.py runs matmul")
    except gemm.NoDeviceError:
        pass
    with pytest.raises(gemm.NoDeviceError, match="no NVIDIA driver|no CUDA GPU"):
        gemm.matmul(FakeCuda((4, 8)), FakeCuda((6, 8)), out=FakeCuda((4, 6)))


def test_bad_output_is_named():
    a, b = FakeCuda((4, 8)), FakeCuda((6, 8))
    with pytest.raises(gemm.UsageError, match=r"out has shape \[4, 5\]; C = A @ B\^T is \[4, 6\]"):
        gemm.matmul(a, b, out=FakeCuda((4, 5)))
    with pytest.raises(gemm.UsageError, match="the output of f16 inputs is bf16, f16 or f32"):
        gemm.matmul(a, b, out_dtype="e4m3")
    with pytest.raises(gemm.UsageError, match="out_dtype=s8: expected one of"):
        gemm.matmul(a, b, out_dtype="s8")
    with pytest.raises(gemm.UsageError, match="out is on cpu"):
        gemm.matmul(a, b, out=np.ones((4, 6), np.float16))
    with pytest.raises(gemm.UsageError, match="config must be a gemm.Config, got list"):
        gemm.matmul(a, b, config=[128, 256, 64])
