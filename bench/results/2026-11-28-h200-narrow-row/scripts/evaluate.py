"""Picks of several models on a measured training set: per model, the
regret against the best measured candidate (geomean, p95, max) and the
shapes it loses most on.

    evaluate.py MEASUREMENTS[,MORE...] MODEL [MODEL...]
"""
import collections, math, sys
import gemm
from gemm_bench import fit


def times(paths):
    out = {}
    for p in paths:
        for r in fit.read_measurements(p)["rows"]:
            out[(r["config"], (r["m"], r["n"], r["k"]))] = r["call_ms"]
    return out


def main():
    t = times(sys.argv[1].split(","))
    best = collections.defaultdict(lambda: math.inf)
    for (name, ran), ms in t.items():
        shape = fit.run_shape(gemm.KernelConfig(name), ran)
        best[shape] = min(best[shape], ms)
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    q = lambda v, f: sorted(v)[int(f * (len(v) - 1))]
    for path in sys.argv[2:]:
        model = gemm._core.DispatchModel.load(path)
        regrets, missing = [], 0
        for s in sorted(best):
            sel = gemm._core.select(*s, dtype="bf16", model=model)
            ran = (s[1], s[0], s[2]) if sel.transposed else s
            ms = t.get((sel.config.name, ran))
            if ms is None:
                missing += 1
                continue
            regrets.append((ms / best[s], s, sel.config.name))
        r = [x[0] for x in regrets]
        print(f"{path}: {len(r)} shapes ({missing} picks not measured): regret "
              f"{g(r):.4f}, p95 {q(r, .95):.3f}, max {max(r):.3f}")
        for v, s, name in sorted(regrets)[-5:]:
            print(f"  {v:.3f} {s} {name}")


main()
