"""Compiling kernels on first use, and the on-disk cache of compiled bundles.

A bundle is compiled by the real compiler, gemm-opt (`--gemm-to-ptx`), found
as $GEMM_OPT, else the one shipped in the package (gemm/bin/gemm-opt), else
on PATH. Compiled bundles live under the cache directory ($GEMM_CACHE_DIR,
else $XDG_CACHE_HOME/gemm, else ~/.cache/gemm), one directory per kernel
named by the kernel and a key of its MLIR, the compiler and the arch:

    kernels/NAME-KEY/NAME.json, NAME.ptx, NAME.cubin, digests.json

Writes are atomic: a compile goes into a private temporary directory that is
renamed into place, so two processes compiling the same kernel at once both
end with a complete bundle (the second rename loses and its copy is
dropped). An entry whose files do not match their digests (a crash, a full
disk, a hand edit) is moved aside and compiled again.
"""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

from gemm import _core

# The compiler shipped with the package lies beside the compiled module
# (which in an editable install is not beside these sources).
_PACKAGE_DIR = os.path.dirname(os.path.abspath(_core.__file__))
# Bumped when the layout of a cache entry changes.
_CACHE_LAYOUT = "1"


class CompilerNotFoundError(_core.GemmError):
    """gemm-opt is needed (a configuration not in the kernel library) and
    cannot be found."""


class CompileError(_core.GemmError):
    """gemm-opt refused or failed on a configuration; the message holds its
    diagnostics."""


def compiler_path():
    """The gemm-opt that compiles kernels on first use."""
    explicit = os.environ.get("GEMM_OPT")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise CompilerNotFoundError(
                f"GEMM_OPT={explicit} is not an executable file: point GEMM_OPT "
                "at a built gemm-opt (build/bin/gemm-opt)")
        return explicit
    shipped = os.path.join(_PACKAGE_DIR, "bin", "gemm-opt")
    if os.access(shipped, os.X_OK):
        return shipped
    found = shutil.which("gemm-opt")
    if found:
        return found
    raise CompilerNotFoundError(
        "gemm-opt (the compiler) is not found: this configuration is not in the "
        "kernel library, so it must be compiled. Set GEMM_OPT=/path/to/gemm-opt, "
        "put gemm-opt on PATH, or install the package from a built tree "
        "(bash scripts/setup.sh), which ships the compiler with it")


_compiler_ids = {}


def _compiler_id(path):
    """Names the compiler build: its real path, size and modification time
    (cheap: no hashing of the binary), so a rebuilt compiler gets new keys."""
    real = os.path.realpath(path)
    st = os.stat(real)
    key = (real, st.st_size, st.st_mtime_ns)
    if key not in _compiler_ids:
        _compiler_ids[key] = f"{real}:{st.st_size}:{st.st_mtime_ns}"
    return _compiler_ids[key]


def cache_dir():
    """The root of the on-disk cache."""
    explicit = os.environ.get("GEMM_CACHE_DIR")
    if explicit:
        return explicit
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "gemm")


def _digests(directory):
    out = {}
    for name in sorted(os.listdir(directory)):
        if name == "digests.json":
            continue
        with open(os.path.join(directory, name), "rb") as f:
            out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


def _entry_is_intact(entry, manifest):
    try:
        with open(os.path.join(entry, "digests.json")) as f:
            recorded = json.load(f)
        if recorded != _digests(entry) or not os.path.exists(manifest):
            return False
        _core.Bundle.load(manifest)
        return True
    except (OSError, ValueError, _core.GemmError):
        return False


def _move_aside(entry):
    """Takes a broken entry out of the way without racing a reader: rename
    first (atomic), then delete the renamed copy."""
    aside = tempfile.mkdtemp(dir=os.path.dirname(entry), prefix=".broken-")
    try:
        os.rename(entry, os.path.join(aside, "entry"))
    except OSError:
        pass  # another process moved it already
    shutil.rmtree(aside, ignore_errors=True)


def compiled_bundle(config, arch="sm_90a"):
    """The manifest path of `config` (a gemm._core.KernelConfig), compiled on
    first use and cached on disk."""
    compiler = compiler_path()
    mlir = config.mlir
    key = hashlib.sha256("\n".join(
        [_CACHE_LAYOUT, mlir, _compiler_id(compiler), arch]).encode()).hexdigest()[:20]
    root = os.path.join(cache_dir(), "kernels")
    os.makedirs(root, exist_ok=True)
    entry = os.path.join(root, f"{config.name}-{key}")
    manifest = os.path.join(entry, f"{config.name}.json")
    if os.path.isdir(entry):
        if _entry_is_intact(entry, manifest):
            return manifest
        _move_aside(entry)

    work = tempfile.mkdtemp(dir=root, prefix=f".{config.name}-")
    try:
        source = os.path.join(work, "kernel.mlir")
        bundle_dir = os.path.join(work, "bundle")
        os.mkdir(bundle_dir)
        with open(source, "w") as f:
            f.write(mlir)
        result = subprocess.run(
            [compiler, source, f"--gemm-to-ptx=output-dir={bundle_dir}", "-o", os.devnull],
            capture_output=True, text=True)
        if result.returncode != 0:
            raise CompileError(
                f"gemm-opt could not compile {config.name}:\n{result.stderr.strip()}\n"
                f"(the configuration as compiled:\n{mlir.strip()})")
        with open(os.path.join(bundle_dir, "digests.json"), "w") as f:
            json.dump(_digests(bundle_dir), f)
        try:
            os.rename(bundle_dir, entry)
        except OSError:
            # Another process put its copy in place first; use that one.
            if not _entry_is_intact(entry, manifest):
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return manifest
