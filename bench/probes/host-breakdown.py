"""Where the host time of one gemm.matmul call goes (bf16 and int8, 2048
cubed and 64 cubed): each piece of the call timed alone in a loop of
back-to-back calls (no profiler in the loop), beside torch's own calls; then
a torch.profiler trace of ten queued int8 calls, printing each kernel's
start, duration and the gap before it. A probe.

    python3 bench/probes/host-breakdown.py
"""
import os
import sys

import torch

import gemm
from gemm import _api
from gemm._tensors import memory, view

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cuda_timing import host_us  # noqa: E402


def pieces(name, a, b, c_dtype, reference):
    m, k = a.shape
    n = b.shape[0]
    dtype = view(a, "a").dtype
    kernel, transposed = _api._dispatch(m, n, k, dtype, c_dtype, "row,col,row", 0, 1, dtype,
                                        "", None)
    loaded = kernel.loaded(0)
    c = gemm.matmul(a, b)
    mem = memory("torch", 0)
    stream = mem.stream()
    none3 = (None, None, None)
    rows = {
        "gemm.matmul(a, b)": lambda: gemm.matmul(a, b),
        "gemm.matmul(a, b, out=c)": lambda: gemm.matmul(a, b, out=c),
        "reference (torch)": reference,
        "view(a)": lambda: view(a, "a"),
        "torch.empty(m, n)": lambda: torch.empty(m, n, dtype=c.dtype, device="cuda:0"),
        "mem.stream()": mem.stream,
        "loaded.plan": lambda: loaded.plan(m, n, k, k, k, n, 1, none3),
        "loaded.run": lambda: loaded.run(m, n, k, a.data_ptr(), k, b.data_ptr(), k,
                                         c.data_ptr(), n, [], stream, 1, none3, []),
        "c.zero_() (a torch launch)": c.zero_,
    }
    print(f"## {name}: {m}x{n}x{k}, {kernel.name}")
    for label, fn in rows.items():
        print(f"  {label:<30} {host_us(fn, 500):8.2f} us")


def trace_int8(a, b):
    for _ in range(3):
        gemm.matmul(a, b)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            gemm.matmul(a, b)
        torch.cuda.synchronize()
    events = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                    key=lambda e: e.time_range.start)
    print("## trace: 10 queued int8 gemm.matmul calls (GPU activity)")
    last = None
    for e in events:
        start, end = e.time_range.start, e.time_range.end
        gap = "" if last is None else f"gap {start - last:7.1f} us"
        print(f"  {e.name[:60]:<60} {end - start:7.1f} us  {gap}")
        last = end
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=25))


def main():
    print(torch.cuda.get_device_name(0), "torch", torch.__version__)
    for size in (2048, 64):
        x = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
        pieces(f"bf16 {size}", x, x, None, lambda: torch.matmul(x, x.T))
        i = torch.randint(-64, 64, (size, size), device="cuda", dtype=torch.int8)
        pieces(f"int8 {size}", i, i, "s32", lambda: torch._int_mm(i, i.t()))
    i = torch.randint(-64, 64, (2048, 2048), device="cuda", dtype=torch.int8)
    trace_int8(i, i)


if __name__ == "__main__":
    main()
