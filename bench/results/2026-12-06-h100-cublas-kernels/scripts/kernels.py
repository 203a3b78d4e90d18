"""The CUDA kernels cuBLASLt runs (through torch) for the problems where
our picks lose, with their GPU time: the tile, cluster and split of the
library's choice are in the nvjet/sm90 kernel names. Prints a markdown
table. Needs torch with a GPU; standard library otherwise.

    python3 kernels.py > kernels.md
"""
import torch
from torch.profiler import ProfilerActivity, profile

FP8 = [(m, n, k) for m in (16, 64, 128, 256, 512, 1024)
       for n, k in ((8192, 8192), (28672, 8192), (8192, 28672))] + [(8192, 8192, 8192)]
BF16 = [(84, 5120, 5120), (45, 7168, 2048), (1010, 176, 1512), (20, 2048, 7168),
        (516, 1488, 5376), (203, 5568, 6984), (432, 10240, 8192)]


def run(kind, m, n, k):
    g = torch.Generator(device="cuda").manual_seed(1)
    if kind == "bf16":
        a = torch.randn(m, k, device="cuda", generator=g, dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", generator=g, dtype=torch.bfloat16)
        call = lambda: a @ b.T  # noqa: E731
    else:
        a = torch.randn(m, k, device="cuda", generator=g).to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda", generator=g).to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda")
        if kind == "fp8-tensor":
            sa = sb = one
        else:
            sa = torch.ones(m, 1, device="cuda")
            sb = torch.ones(1, n, device="cuda")
        call = lambda: torch._scaled_mm(a, b.T, scale_a=sa, scale_b=sb,  # noqa: E731
                                        out_dtype=torch.bfloat16)
    for _ in range(10):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(20):
            call()
        torch.cuda.synchronize()
    times = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            times.setdefault(event.name, []).append(event.device_time)
    return sorted(((sorted(t)[len(t) // 2], name, len(t)) for name, t in times.items()),
                  reverse=True)


print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}\n")
print("| problem | kernel (median us, launches of 20 calls) |")
print("|---|---|")
for kind, shapes in (("fp8-tensor", FP8), ("fp8-row", FP8), ("bf16", BF16)):
    for m, n, k in shapes:
        kernels = run(kind, m, n, k)
        text = "; ".join(f"`{name}` {us:.1f} ({count})" for us, name, count in kernels)
        print(f"| {kind} {m}x{n}x{k} | {text} |", flush=True)
