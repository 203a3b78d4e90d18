"""INT8 through the package (gemm.matmul, the dispatcher's pick from the
kernel library, s8 x s8 -> s32) against torch._int_mm (PyTorch's cuBLASLt
call, whose figures issue 18 quotes), interleaved in one process on the
same tensors: bursts of 10 calls between CUDA events, medians of rounds.
A probe: it answers which cuBLASLt the issue's 1.3x target was read
against. gemm-runner's own cuBLASLt baseline picks its IMMA algorithm
itself (bench/results/2026-11-24-h200-lowp).

    python3 bench/probes/int8-vs-torch.py
"""
import os
import statistics
import sys

import torch

import gemm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cuda_timing import burst_ms  # noqa: E402

SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (2048, 28672, 8192),
          (128, 8192, 8192)]


def median_ms(call, burst=10, rounds=15):
    return statistics.median(burst_ms(call, burst) for _ in range(rounds))


def main():
    print("| M x N x K | kernel | ours TOPS | torch._int_mm TOPS | ours / torch | max |diff| |")
    print("|---|---|---|---|---|---|")
    for m, n, k in SHAPES:
        g = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = torch.randint(-64, 64, (m, k), device="cuda", generator=g, dtype=torch.int8)
        b = torch.randint(-64, 64, (n, k), device="cuda", generator=g, dtype=torch.int8)
        bt = b.t()  # torch._int_mm takes B as [K, N]
        calls = {"ours": lambda: gemm.matmul(a, b), "torch": lambda: torch._int_mm(a, bt)}
        for call in calls.values():
            call()
        torch.cuda.synchronize()
        diff = (calls["ours"]() - calls["torch"]()).abs().max().item()
        ms = {name: [] for name in calls}
        for r in range(3):
            for name in (list(calls) if r % 2 == 0 else list(reversed(list(calls)))):
                ms[name].append(median_ms(calls[name]))
        ops = 2.0 * m * n * k
        ours, theirs = statistics.median(ms["ours"]), statistics.median(ms["torch"])
        kernel = gemm.select(m, n, k, dtype="s8").config.name
        print(f"| {m}x{n}x{k} | {kernel} | {ops / ours / 1e9:.0f} | {ops / theirs / 1e9:.0f} | "
              f"{theirs / ours:.3f} | {diff} |", flush=True)


if __name__ == "__main__":
    main()
