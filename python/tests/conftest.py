"""Markers: `gpu` tests need an NVIDIA GPU that runs sm_90a kernels, `torch`
tests need PyTorch, `compiler` tests need gemm-opt (they run kernels the
kernel library does not hold, compiled on first use); each is skipped with
the reason where that is missing (pytest -rs prints them), never silently."""
import importlib.util
import os
import shutil

import pytest

import gemm


def _gpu_reason():
    try:
        info = gemm.device_info(0)
    except gemm.GemmError as e:
        return f"no usable GPU: {e}"
    if info["arch"] != "sm_90a":
        return f"GPU 0 is {info['name']}, not an sm_90a (Hopper) GPU"
    return None


def _compiler_reason():
    try:
        gemm.compiler_path()
    except gemm.CompilerNotFoundError as e:
        return str(e)
    return None


def pytest_collection_modifyitems(config, items):
    reasons = {
        "gpu": _gpu_reason(),
        "torch": None if importlib.util.find_spec("torch") else "PyTorch is not installed",
        "compiler": _compiler_reason(),
    }
    for item in items:
        for mark, reason in reasons.items():
            if reason and mark in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private, empty kernel cache for the test."""
    monkeypatch.setenv("GEMM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def runner():
    """gemm-runner of the build ($GEMM_RUNNER, or build/bin/gemm-runner)."""
    path = os.environ.get("GEMM_RUNNER") or os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "bin", "gemm-runner")
    if not os.access(path, os.X_OK):
        path = shutil.which("gemm-runner")
    if not path:
        pytest.skip("gemm-runner is not built (set GEMM_RUNNER)")
    return path
