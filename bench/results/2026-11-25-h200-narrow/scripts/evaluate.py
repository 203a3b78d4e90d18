"""Picks of two models on a training set, by measured times: regret against
the best measured candidate and the new model's pick over the old one's."""
import math, sys, collections
import gemm
from gemm_bench import fit

def times(paths):
    out = {}
    for p in paths:
        for r in fit.read_measurements(p)["rows"]:
            out[(r["config"], (r["m"], r["n"], r["k"]))] = r["call_ms"]
    return out

def picks(model, shapes):
    out = {}
    for s in shapes:
        sel = gemm._core.select(*s, dtype="bf16", model=model)
        ran = (s[1], s[0], s[2]) if sel.transposed else s
        out[s] = (sel.config.name, ran)
    return out

def main():
    old_model = gemm._core.DispatchModel.load(sys.argv[1])
    new_model = gemm._core.DispatchModel.load(sys.argv[2])
    t = times(sys.argv[3:])
    best = collections.defaultdict(lambda: math.inf)
    for (name, ran), ms in t.items():
        cfg = gemm.KernelConfig(name)
        best[fit.run_shape(cfg, ran)] = min(best[fit.run_shape(cfg, ran)], ms)
    shapes = sorted(best)
    po, pn = picks(old_model, shapes), picks(new_model, shapes)
    ro, rn, sp = [], [], []
    missing = 0
    for s in shapes:
        a, b = t.get(po[s]), t.get(pn[s])
        if a is None or b is None:
            missing += 1
            continue
        ro.append(a / best[s]); rn.append(b / best[s]); sp.append(a / b)
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    q = lambda v, f: sorted(v)[int(f * (len(v) - 1))]
    print(f"{len(ro)} shapes ({missing} without a measured pick)")
    print(f"regret vs best of all candidates: old model {g(ro):.4f} (p95 {q(ro,.95):.3f}), "
          f"new {g(rn):.4f} (p95 {q(rn,.95):.3f})")
    print(f"new pick over old pick (old time / new time): geomean {g(sp):.4f}, "
          f"p5 {q(sp,.05):.3f}, min {min(sp):.3f}, max {max(sp):.3f}; "
          f"transposed picks {sum(1 for s in shapes if 'cc_' in pn[s][0])}")
    worst = sorted(zip(sp, shapes))[:8]
    for v, s in worst:
        print(f"  {v:.3f} {s} old {po[s][0]} new {pn[s][0]}")

main()
