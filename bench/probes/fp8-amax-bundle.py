"""fp8-output bundles through gemm.load: the amax of M = 300 and 256 rows
against an f64 reference, with the allocator pool filled with NaN first and
with every workspace zeroed. bench/results/2026-11-24-h200-python-full/
amax-fixed.txt is its output for the bundles of
test/Simulator/fp8-amax-edge-rows.mlir and the split-K pick of fp8out.txt.

  python3 bench/probes/fp8-amax-bundle.py BUNDLE.json
"""
import sys

import gemm
import torch

kernel = gemm.load(sys.argv[1])


def run(m):
    """C = A B^T of m x 512 x 1024 e4m3 with an output scale and an amax
    set to 123 before the call: (amax, reference amax, NaNs in C)."""
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(m, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    b = torch.randn(512, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    ref = a.double() @ b.double().T
    scale_out = torch.tensor([8.0 / ref.std().item()], device="cuda")
    amax = torch.full((1,), 123.0, device="cuda")
    c = kernel(a, b, scale_out=scale_out, amax=amax)
    torch.cuda.synchronize()
    return amax.item(), ref.abs().max().item(), int(torch.isnan(c.float()).sum())


for m in (300, 256, 300):
    amax, ref, nans = run(m)
    print(m, "loaded bundle: amax", amax, "ref", ref, "nan in C", nans, flush=True)
    # The caching allocator's pool full of NaN first.
    junk = torch.full((64 << 20,), float("nan"), device="cuda")
    del junk
    print(m, "after NaN junk: amax", run(m)[0], flush=True)
# Every workspace zeroed per call.
gemm._api._workspace = lambda kernel, mem, device, stream, size, zeroed: mem.bytes(size, True)
for m in (300, 256):
    amax, ref, _ = run(m)
    print(m, "zeroed workspaces: amax", amax, "ref", ref, flush=True)
