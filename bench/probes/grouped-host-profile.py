"""Where the host time of a gemm.grouped_mm call goes: cProfile over
back-to-back calls on a small MoE problem (the GPU work is a few
microseconds, so the host's share shows). A probe, not a test.

    python3 bench/probes/grouped-host-profile.py [--calls 2000]
"""
import argparse
import cProfile
import os
import pstats
import sys

import torch

import gemm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cuda_timing import host_us  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    groups, n, k = 8, 256, 256
    a = torch.randn(groups * 64, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(groups, n, k, device="cuda", dtype=torch.bfloat16).transpose(1, 2)
    offs = torch.arange(64, groups * 64 + 1, 64, device="cuda", dtype=torch.int32)
    calls = {"gemm.grouped_mm": lambda: gemm.grouped_mm(a, b, offs),
             "torch._grouped_mm": lambda: torch._grouped_mm(a, b, offs=offs)}
    for name, call in calls.items():
        print(f"{name}: {host_us(call, args.calls):.1f} us of host time per call")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.calls):
        calls["gemm.grouped_mm"]()
    profile.disable()
    torch.cuda.synchronize()
    pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
