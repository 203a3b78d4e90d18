"""The kernels bench/layouts-h200.sh times, compiled on a machine with the
compiler: for each speed shape the configuration the dispatcher picks
(the tuning file's searched best, else its model; no availability filter,
so a column-major C gets its own kernel), in each of the eight layouts; and
for each batched shape its batched pick, with a K-major and an N-major B
(gemm.bmm's). Writes OUT/kernels.mlir, OUT/plan.txt (one line per run:
"group shape layout bundle") and compiles the bundles into OUT.

    build-venv/bin/python bench/layouts-bundles.py .bundles/speed [--gemm-opt build/bin/gemm-opt]
"""
import argparse
import os
import subprocess
import sys

import gemm
from gemm import _core

# Squares and LLM projections (token counts x (N, K)); batched: the three
# torch.bmm figures of issue 17 (batch, M, N, K).
SPEED = [(4096, 4096, 4096), (8192, 8192, 8192), (128, 8192, 8192), (4096, 28672, 8192),
         (8192, 8192, 28672)]
BATCHED = [(32, 1024, 1024, 1024), (8, 4096, 4096, 4096), (128, 512, 512, 128)]
# Other whole-tile configurations of the batched shapes, beside the pick.
BATCHED_ALTERNATIVES = ["128x256x64_coop_c2x1_rm_s8_st0", "256x128x64_coop_c1x1_rm_s8_st0",
                        "128x128x64_pingpong_c1x1_rm_s8_st0"]
LAYOUTS = [f"{a},{b},{c}" for c in ("row", "col") for a in ("row", "col") for b in ("col", "row")]


def pick(m, n, k, layouts, batch=1):
    return _core.select(m, n, k, "bf16", None, gemm.dispatch_model(), "sm_90a", 132, None,
                        layouts, batch).config


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--gemm-opt", default=os.path.join(os.path.dirname(__file__), "..",
                                                           "build", "bin", "gemm-opt"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    configs, plan = {}, []
    for m, n, k in SPEED:
        for layouts in LAYOUTS:
            config = pick(m, n, k, layouts)
            configs[config.name] = config
            plan.append(f"layouts {m}x{n}x{k} {layouts} {config.name}")
    for batch, m, n, k in BATCHED:
        for layouts in ("row,col,row", "row,row,row"):
            config = pick(m, n, k, layouts, batch)
            configs[config.name] = config
            plan.append(f"batched {batch}x{m}x{n}x{k} {layouts} {config.name}")
        for key in BATCHED_ALTERNATIVES:
            base = _core.KernelConfig(key, "bf16")
            config = gemm.Config.from_kernel_config(base).kernel_config(
                "bf16", None, "row,col,row", True)
            configs[config.name] = config
            plan.append(f"batched-alternatives {batch}x{m}x{n}x{k} row,col,row {config.name}")
    mlir = os.path.join(args.out, "kernels.mlir")
    with open(mlir, "w") as f:
        f.write("// bench/layouts-bundles.py: the dispatcher's picks of the speed shapes\n")
        for config in configs.values():
            f.write(config.mlir)
    with open(os.path.join(args.out, "plan.txt"), "w") as f:
        f.write("\n".join(plan) + "\n")
    subprocess.run([args.gemm_opt, mlir, f"--gemm-to-ptx=output-dir={args.out}", "-o",
                    os.devnull], check=True)
    print(f"{args.out}: {len(configs)} kernels, {len(plan)} runs")


if __name__ == "__main__":
    sys.exit(main())
