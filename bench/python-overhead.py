"""What calling a kernel through the Python package costs, beside PyTorch's
own GEMM (cuBLASLt through torch.matmul(a, b.T), which computes the
same C = A @ B^T): per-call host time on back-to-back tiny calls, and GPU
time per call (CUDA events, the two interleaved in one process, medians of
rounds) on a few shapes. A benchmark, not a test: it prints a table and
writes JSON.

    python3 bench/python-overhead.py [--json OUT]
"""
import argparse
import json
import os
import sys

import torch

import gemm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from cuda_timing import host_us, interleaved_ms  # noqa: E402

SHAPES = [(1, 1, 1), (64, 64, 64), (16, 4096, 4096), (128, 8192, 8192), (4096, 4096, 4096),
          (8192, 8192, 8192)]


def gpu_ms(fns, rounds=7, iters=20):
    """Median ms per call of each fn, interleaved (order alternating)."""
    return interleaved_ms(fns, rounds, iters)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    print(f"{'shape':>18} {'kernel':<46} {'host us/call':>20} {'gpu ms':>17} {'torch/ours':>10}")
    for m, n, k in SHAPES:
        g = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16, generator=g)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        c_ref = torch.empty_like(c)

        def ours():
            gemm.matmul(a, b, out=c)

        def theirs():
            torch.matmul(a, b.T, out=c_ref)

        ours()
        theirs()
        torch.cuda.synchronize()
        err = ((c.double() - c_ref.double()).norm() / c_ref.double().norm().clamp_min(1e-30)).item()
        host = (host_us(ours, 2000), host_us(theirs, 2000)) if m * n * k <= 1 << 24 \
            else (None, None)
        warm = gpu_ms([ours, theirs])
        flops = 2.0 * m * n * k
        row = {"shape": [m, n, k], "kernel": gemm.select(m, n, k, device=0).config.name,
               "host_us_ours": host[0], "host_us_torch": host[1],
               "gpu_ms_ours": warm[0], "gpu_ms_torch": warm[1],
               "tflops_ours": flops / warm[0] / 1e9, "tflops_torch": flops / warm[1] / 1e9,
               "ratio": warm[1] / warm[0], "rel_diff_vs_torch": err}
        rows.append(row)
        hosttext = f"{host[0]:7.1f} vs {host[1]:7.1f}" if host[0] else "-"
        print(f"{m:>5}x{n:>5}x{k:>5} {row['kernel']:<46} {hosttext:>20} "
              f"{warm[0]:7.4f} vs {warm[1]:7.4f} {row['ratio']:9.3f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(0), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
