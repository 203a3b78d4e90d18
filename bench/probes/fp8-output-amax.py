"""fp8 outputs through the Python package: which kernel the dispatcher runs
for e4m3/e5m2 outputs (with no, per-tensor and row/column input scales), the
NaNs in C and the amax against an f64 reference, for M a multiple of the
tile and not. bench/results/2026-11-24-h200-python-full/fp8out.txt is its
output on the H200.

  python3 bench/probes/fp8-output-amax.py
"""
import torch, gemm
def lu(*shape, seed=1):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.exp2(torch.rand(*shape, device="cuda", generator=g) * 4 - 2)
torch.manual_seed(0)
picked = []
orig = gemm._api._dispatch
def spy(*args, **kw):
    r = orig(*args, **kw)
    picked.append((r[0].name, r[1]))
    return r
gemm._api._dispatch = spy
for (m, n, k) in [(300, 512, 1024), (256, 512, 1024), (384, 512, 1024)]:
  for out in ["e4m3", "e5m2"]:
    for mode in ["none", "tensor", "row"]:
        g = torch.Generator(device="cuda").manual_seed(0)
        a = torch.randn(m, k, device="cuda", generator=g).to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda", generator=g).to(torch.float8_e4m3fn)
        if mode == "none": sa = sb = None
        elif mode == "tensor": sa, sb = lu(1), lu(1, seed=2)
        else: sa, sb = lu(m, 1), lu(1, n, seed=2)
        x = a.double() * (sa.double() if sa is not None else 1)
        y = b.double() * (sb.double().reshape(-1, 1) if sb is not None else 1)
        ref = x @ y.T
        so = torch.tensor([8.0 / ref.std().item()], device="cuda")
        amax = torch.full((1,), 123.0, device="cuda")
        kw = dict(scale_a=sa, scale_b=sb) if sa is not None else {}
        picked.clear()
        c = gemm.matmul(a, b, out_dtype=out, scale_out=so, amax=amax, **kw)
        torch.cuda.synchronize()
        cf = c.float()
        nan = torch.isnan(cf)
        rows = nan.any(1).nonzero().flatten().tolist()[:5]
        cols = nan.any(0).nonzero().flatten().tolist()[:5]
        print(f"{m}x{n}x{k} {out} {mode}: nan {int(nan.sum())} rows {rows} cols {cols}; amax {amax.item():.3f} ref {ref.abs().max().item():.3f}; max|c| {cf[~nan].abs().max().item():.1f} {picked}", flush=True)
