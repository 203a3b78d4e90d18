"""A stand-in for gemm-runner in the tests of bench tooling: takes the same
arguments that gemm_bench.tune and gemm_bench.suite pass, and writes a
gemm-runner --json file whose times come from a fixed rule instead of a
GPU, so the search and the suite can run end to end without one.

    fake-gemm-runner.py BUNDLE.json --shapes FILE [--check] --bench --vs cublas
        --warmup W --iters I --json OUT [--cold-l2] [--timing T] [--pad-leading-dims]
    fake-gemm-runner.py --make-bundles VARIANTS.mlir DIR   # empty NAME.json per kernel

Rules (so tests can see each path):
- our time: the physics time of the tests' dispatch model (Inputs/model.json)
  for the configuration at its derived ring depth (a narrow tile's: that of
  the tile of the next multiple of 64 columns; a 192-row tile's: that of
  the 128-row one), made 3% faster by a 2x1
  cluster and 4% faster by raster along_n with swizzle 16 when M > 256, 5%
  slower at a fixed ring depth; cuBLAS: the model time of 128x256
  cooperative;
- a 64x128 pingpong kernel with a 1x2 cluster fails its check;
- a 128x192 cooperative kernel with a 1x2 cluster hangs on its second shape
  (exit 6, JSON with the error and only the first result);
- a row that is not a 16-byte multiple: with --unaligned stage the TMA
  kernels' matrices of such rows are staged (listed in the result's
  `staged`, the copies' time, the tests' model's staging term, added to the
  call's and `kernel_only` keeping the kernel's), with --pad-leading-dims
  padded; without either it is refused (exit 2). Direct kernels (schedule
  direct) read such rows as they are, as gemm-runner runs them.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
import gemm  # noqa: E402
from gemm_bench import configs  # noqa: E402

MODEL = gemm._core.DispatchModel.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "model.json"))


def model_seconds(config, m, n, k, staged=(False, False, False)):
    # A narrow tile (N not a multiple of 64) the tests' model has no
    # efficiency for runs as the next wider tile.
    if config.tile_n % 64:
        config = config.replace(tile_n=-(-config.tile_n // 64) * 64)
    # Nor for 192-row tiles: they run as 128-row ones.
    if config.tile_m == 192:
        config = config.replace(tile_m=128)
    return MODEL.estimate(gemm.KernelConfig(config.name), m, n, k, staged=staged)["seconds"]

DEVICE = {"ordinal": 0, "name": "NVIDIA H200", "pci_bus_id": "0000:00:06.0",
          "compute_capability": "9.0", "sm_count": 132, "l2_cache_bytes": 62914560,
          "memory_bytes": 150109880320, "driver_cuda_version": "13.0",
          "sm_clock_peak_mhz": 1980, "mem_clock_peak_mhz": 3201, "sm_clock_max_mhz": 1980,
          "power_limit_watts": 700.0, "cublaslt_version": "13.1.0"}


def make_bundles(variants, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(variants) as f:
        names = re.findall(r"gemm\.matmul @(\w+)", f.read())
    for name in names:
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump({"name": name}, f)
    print(f"{len(names)} fake bundles in {out_dir}")


def ours_ms(config, m, n, k):
    seconds = model_seconds(config.replace(stages=0), m, n, k)
    if config.cluster_m == 2:
        seconds *= 0.97
    if m > 256 and config.raster == "along_n" and config.swizzle == 16:
        seconds *= 0.96
    if config.stages:
        seconds *= 1.05
    return seconds * 1e3


def timing(ms, m, n, k):
    return {"median_ms": ms, "min_ms": ms * 0.99, "max_ms": ms * 1.02,
            "tflops": 2.0 * m * n * k / (ms * 1e-3) / 1e12, "times_ms": [ms] * 3}


def main(argv):
    if argv[0] == "--make-bundles":
        return make_bundles(argv[1], argv[2])
    bundle = argv[0]
    args = argv[1:]

    def value(flag):
        return args[args.index(flag) + 1] if flag in args else None
    name = os.path.basename(bundle)[:-len(".json")]
    config = configs.parse_name(name)
    with open(value("--shapes")) as f:
        shapes = [tuple(int(v) for v in line.split()[:3]) for line in f if line.strip()]
    report = {"format": "gemm-runner-results", "version": 1, "results": [],
              "device": DEVICE, "bundle": {"manifest": bundle, "name": name, "kernel": name,
                                           "arch": "sm_90a", "source": "cubin (fake)",
                                           "registers_per_thread": 168}}
    code = 0
    pad = "--pad-leading-dims" in args
    stage = value("--unaligned") == "stage"
    direct = config.schedule == "direct"
    for index, (m, n, k) in enumerate(shapes):
        staged = []
        # Packed rows: a column-major C's lines are M long.
        ldc = m if config.c_columns else n
        if ((k * 2) % 16 or (ldc * 2) % 16) and not direct:
            if stage and not pad:
                staged = [t for t, ld in (("a", k), ("b", k), ("c", ldc)) if (ld * 2) % 16]
            elif not pad:
                report["error"] = {"kind": "error", "message": f"A: leading dimension {k} "
                                   "elements is not a multiple of 16 bytes (TMA)",
                                   "context": "", "exit_code": 2}
                code = 2
                break
        if config.key.startswith("128x192x64_coop_c1x2") and index == 1:
            report["error"] = {"kind": "hang", "message": "hang: kernel did not finish",
                               "context": name, "exit_code": 6}
            code = 6
            break
        passed = not config.key.startswith("64x128x64_pingpong_c1x2")
        cublas = model_seconds(configs.Config(128, 256), m, n, k) * 1e3
        result = {"m": m, "n": n, "k": k, "batch": 1, "staged": staged,
                  "leading_dims": {"a": k, "b": k, "c": ldc}, "padded": pad and bool((k * 2) % 16),
                  "grid": [132, 1, 1], "block": [384, 1, 1], "cluster": [1, 1, 1],
                  "dynamic_smem_bytes": 229440}
        if "--check" in args:
            result["check"] = {"passed": passed, "tolerance": 0.01, "seed": 1 + index,
                               "references": [], "reference_agreement": None, "notes": []}
            if not passed:
                code = max(code, 1)
        ours = ours_ms(config, m, n, k)
        copies = 0.0
        if staged:
            flags = tuple(t in staged for t in ("a", "b", "c"))
            copies = (model_seconds(config, m, n, k, flags) -
                      model_seconds(config, m, n, k)) * 1e3
        result["bench"] = {"warmup": int(value("--warmup") or 10),
                           "iterations": int(value("--iters") or 50),
                           "cold_l2": "--cold-l2" in args,
                           "timing": value("--timing") or "gpu",
                           "ours": timing(ours + copies, m, n, k),
                           "cublas": timing(cublas, m, n, k),
                           "speedup_vs_cublas": cublas / (ours + copies),
                           "clocks": {"sm_clock_mhz": 1980 - index % 3 * 5,
                                      "mem_clock_mhz": 3201, "power_limit_watts": 700.0,
                                      "temperature_c": 40 + index}}
        if staged:
            result["bench"]["staging"] = timing(copies, m, n, k)
            result["bench"]["kernel_only"] = timing(ours, m, n, k)
        report["results"].append(result)
        print(f"[{index + 1}/{len(shapes)}] {m}x{n}x{k}")
    with open(value("--json"), "w") as f:
        json.dump(report, f, indent=2)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
