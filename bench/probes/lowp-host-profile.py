"""The host's work of one gemm.matmul call (int8 and bf16, 2048 cubed):
wall time over back-to-back calls, then cProfile of the int8 call. A probe.

    python3 bench/probes/lowp-host-profile.py
"""
import cProfile, os, pstats, sys, torch, gemm
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cuda_timing import host_us  # noqa: E402
a = torch.randint(-64, 64, (2048, 2048), device="cuda", dtype=torch.int8)
b = torch.randint(-64, 64, (2048, 2048), device="cuda", dtype=torch.int8)
x = torch.randn(2048, 2048, device="cuda", dtype=torch.bfloat16)
for name, call in (("int8", lambda: gemm.matmul(a, b)), ("bf16", lambda: gemm.matmul(x, x))):
    print(f"{name}: {host_us(call, 200):.1f} us host per call")
p = cProfile.Profile(); p.enable()
for _ in range(200): gemm.matmul(a, b)
p.disable(); torch.cuda.synchronize()
pstats.Stats(p).sort_stats("cumtime").print_stats(30)
