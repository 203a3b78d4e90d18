"""fp8-output bundles through gemm.load: the amax of M = 300 and 256 rows
against an f64 reference, with the allocator pool filled with NaN first and
with every workspace zeroed. bench/results/2026-11-24-h200-python-full/
amax-fixed.txt is its output for the bundles of
test/Simulator/fp8-amax-edge-rows.mlir and the split-K pick of fp8out.txt.

  python3 bench/probes/fp8-amax-bundle.py BUNDLE.json
"""
import sys, torch, gemm
path = sys.argv[1]
kernel = gemm.load(path)
for m in (300, 256, 300):
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(m, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    b = torch.randn(512, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    ref = a.double() @ b.double().T
    so = torch.tensor([8.0 / ref.std().item()], device="cuda")
    amax = torch.full((1,), 123.0, device="cuda")
    c = kernel(a, b, scale_out=so, amax=amax)
    torch.cuda.synchronize()
    print(m, "loaded bundle: amax", amax.item(), "ref", ref.abs().max().item(), "nan in C", int(torch.isnan(c.float()).sum()), flush=True)
    # The same through a zeroed caching allocator: fill the pool with NaN first.
    junk = torch.full((64 << 20,), float("nan"), device="cuda"); del junk
    amax.fill_(123.0)
    c = kernel(a, b, scale_out=so, amax=amax)
    torch.cuda.synchronize()
    print(m, "after NaN junk: amax", amax.item(), flush=True)
# Every workspace zeroed per call.
real = gemm._api._workspace
gemm._api._workspace = lambda kernel, mem, device, stream, size, zeroed: mem.bytes(size, True)
for m in (300, 256):
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(m, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    b = torch.randn(512, 1024, device="cuda", generator=g).to(torch.float8_e4m3fn)
    ref = a.double() @ b.double().T
    so = torch.tensor([8.0 / ref.std().item()], device="cuda")
    amax = torch.full((1,), 123.0, device="cuda")
    c = kernel(a, b, scale_out=so, amax=amax)
    torch.cuda.synchronize()
    print(m, "zeroed workspaces: amax", amax.item(), "ref", ref.abs().max().item(), flush=True)
