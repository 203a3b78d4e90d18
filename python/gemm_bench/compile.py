"""Compiles a .mlir file of gemm.matmul variants to kernel bundles, one kernel
per gemm-opt run, and records each kernel's compile time.

    python -m gemm_bench.compile VARIANTS.mlir --out DIR [--gemm-opt PATH]
        [--jobs N] [--ptxas PATH|none]

Writes DIR/NAME.{ptx,cubin,json} per kernel and DIR/compile-times.json:
per kernel the wall time of its gemm-opt run and, from gemm-opt's
--mlir-timing report, the part up to PTX (everything but the bundle export,
which runs ptxas) and the part in ptxas; then ptxas -v's registers, spill
bytes and WGMMA serialization notes (C75xx) of the PTX. Each kernel is
compiled on its own so its time is its own, not a share of the file's;
with --jobs > 1 kernels compile side by side, which can stretch each one's
time on a loaded machine (the host's CPU count is recorded).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

_OP_START = re.compile(r"^\s*gemm\.matmul\s+@([A-Za-z0-9_]+)")


def split_kernels(text):
    """[(name, op text)] of the gemm.matmul ops of a variants file: an op runs
    from its `gemm.matmul @NAME` line to the next one; comments are dropped."""
    kernels = []
    for line in text.splitlines():
        code = line.split("//", 1)[0].rstrip()
        match = _OP_START.match(code)
        if match:
            kernels.append([match.group(1), code + "\n"])
        elif code.strip():
            if not kernels:
                raise ValueError(f"text before the first gemm.matmul: {line.strip()!r}")
            kernels[-1][1] += code + "\n"
    names = [name for name, _ in kernels]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError("duplicate kernel names: " + ", ".join(duplicates))
    return [tuple(k) for k in kernels]


def parse_mlir_timing(report):
    """{pass name: seconds} of the top-level rows of --mlir-timing's report."""
    passes = {}
    for line in report.splitlines():
        match = re.match(r"^\s{4}(\d+\.\d+) \(\s*[\d.]+%\)\s{2}(\S.*)$", line)
        if match:
            passes[match.group(2).strip()] = float(match.group(1))
    return passes


def parse_ptxas_verbose(text):
    """Registers, spill bytes and C75xx notes from `ptxas -v`."""
    info = {"registers": None, "spill_store_bytes": None, "spill_load_bytes": None,
            "wgmma_notes": sorted(set(re.findall(r"\((C75\d\d)\)", text)))}
    match = re.search(r"Used (\d+) registers", text)
    if match:
        info["registers"] = int(match.group(1))
    match = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", text)
    if match:
        info["spill_store_bytes"], info["spill_load_bytes"] = map(int, match.groups())
    return info


def find_ptxas(option):
    if option == "none":
        return None
    if option:
        return option
    return shutil.which("ptxas") or shutil.which("ptxas", path="/usr/local/cuda/bin")


def compile_kernel(name, op_text, gemm_opt, out_dir, ptxas):
    """Compiles one kernel into out_dir; returns its compile-times entry."""
    with tempfile.TemporaryDirectory(prefix="gemm-compile-") as scratch:
        source = os.path.join(scratch, name + ".mlir")
        with open(source, "w") as f:
            f.write(op_text)
        options = f"output-dir={out_dir} ptxas={ptxas or 'none'}"
        command = [gemm_opt, source, f"--gemm-to-ptx={options}", "-o", os.devnull,
                   "--mlir-timing"]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
    entry = {"wall_ms": round(wall * 1e3, 1)}
    if done.returncode != 0:
        entry["error"] = done.stderr.strip().splitlines()[-20:]
        return entry
    passes = parse_mlir_timing(done.stderr)
    total = passes.get("Total")
    export = passes.get("GemmExportBundle", 0.0)
    if total is not None:
        # The export pass writes the files and runs ptxas; everything before
        # it (parse, materialize, lower, LLVM to PTX) is the compile to PTX.
        entry["to_ptx_ms"] = round((total - export - passes.get("Output", 0.0)) * 1e3, 1)
        entry["export_and_ptxas_ms"] = round(export * 1e3, 1)
    if ptxas:
        verbose = subprocess.run([ptxas, "-arch=sm_90a", "-v",
                                  os.path.join(out_dir, name + ".ptx"), "-o", os.devnull],
                                 capture_output=True, text=True)
        entry.update(parse_ptxas_verbose(verbose.stdout + verbose.stderr))
    return entry


def source_tree_version():
    """`git describe` of this checkout (with -dirty), which the compiler was
    most likely built from; None outside a git checkout."""
    from gemm_bench.shapes import repo_root
    try:
        done = subprocess.run(["git", "-C", repo_root(), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def compile_file(path, out_dir, gemm_opt, jobs=1, ptxas=None, log=sys.stdout):
    with open(path) as f:
        kernels = split_kernels(f.read())
    if not kernels:
        raise SystemExit(f"{path}: no gemm.matmul ops")
    os.makedirs(out_dir, exist_ok=True)
    out_dir = os.path.abspath(out_dir)
    entries = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(compile_kernel, name, text, gemm_opt, out_dir, ptxas): name
                   for name, text in kernels}
        for count, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name = futures[future]
            entries[name] = future.result()
            status = "error" if "error" in entries[name] else \
                f"{entries[name].get('to_ptx_ms', '?')} ms to PTX"
            print(f"[{count}/{len(kernels)}] {name}: {status}", file=log, flush=True)
    report = {
        "format": "gemm-compile-times", "version": 1,
        "source": os.path.abspath(path),
        "gemm_opt": os.path.abspath(gemm_opt),
        "source_tree": source_tree_version(),
        "ptxas": ptxas,
        "host": {"machine": platform.machine(), "cpus": os.cpu_count(),
                 "node": platform.node()},
        "jobs": jobs,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernels": {name: entries[name] for name, _ in kernels},
    }
    with open(os.path.join(out_dir, "compile-times.json"), "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", help=".mlir file of gemm.matmul ops")
    parser.add_argument("--out", required=True, help="bundle directory")
    parser.add_argument("--gemm-opt", default=None,
                        help="gemm-opt binary (default: PATH, then build/bin/gemm-opt)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ptxas", default=None,
                        help="ptxas for the cubin (default PATH, /usr/local/cuda/bin); "
                        "'none': PTX only")
    args = parser.parse_args(argv)
    gemm_opt = args.gemm_opt or shutil.which("gemm-opt")
    if not gemm_opt:
        from gemm_bench.shapes import repo_root
        gemm_opt = os.path.join(repo_root(), "build", "bin", "gemm-opt")
    if not gemm_opt or not os.path.exists(gemm_opt):
        raise SystemExit("gemm-opt not found: pass --gemm-opt")
    report = compile_file(args.variants, args.out, gemm_opt, args.jobs,
                          find_ptxas(args.ptxas))
    failed = [n for n, e in report["kernels"].items() if "error" in e]
    times = sorted(e["to_ptx_ms"] for e in report["kernels"].values() if "to_ptx_ms" in e)
    if times:
        print(f"{len(times)} kernels compiled to PTX in {times[0]:.0f}-{times[-1]:.0f} ms "
              f"(median {times[len(times) // 2]:.0f} ms); {args.out}/compile-times.json")
    for name in failed:
        print(f"{name}: failed:\n  " + "\n  ".join(report["kernels"][name]["error"]),
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
