# Per M bucket, the regret (measured time of the pick over the best measured
# candidate, geomean) of two models on a training set measured for every
# candidate (the remeasure study's call 1 and call 2 here), and the picks
# that differ. Needs the gemm package; from python/:
#   git show d7746a4:bench/tuning/sm90-h200-model.json > /tmp/shipped.json
#   PYTHONPATH=. python ../bench/results/2026-11-29-h200-transposed-narrow/scripts/heldout.py \
#     train2 /tmp/shipped.json ../bench/tuning/sm90-h200-model.json [MEASUREMENTS...]
# (later studies name their own measurements of more candidates after the
# two models).
import collections, math, sys
import gemm
from gemm_bench import fit

R = "../bench/results"
name, first, second, *more = sys.argv[1:]
paths = [first, second]
times = {}
for path in (f"{R}/2026-11-29-h200-remeasure/call1/measurements-{name}.json.xz",
             f"{R}/2026-11-29-h200-transposed-narrow/call2/measurements-{name}.json.xz",
             *more):
    for r in fit.read_measurements(path)["rows"]:
        times[(r["config"], (r["m"], r["n"], r["k"]))] = r["call_ms"]
best = collections.defaultdict(lambda: math.inf)
for (config, ran), ms in times.items():
    shape = fit.run_shape(gemm.KernelConfig(config), ran)
    best[shape] = min(best[shape], ms)
models = [gemm._core.DispatchModel.load(p) for p in paths]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
rows = []
for shape in sorted(best):
    out = []
    for model in models:
        pick = gemm._core.select(*shape, dtype="bf16", model=model)
        ran = (shape[1], shape[0], shape[2]) if pick.transposed else shape
        out.append((times[(pick.config.name, ran)], pick.config.name))
    rows.append((shape, out))
print(f"{name}: {paths[0]} against {paths[1]}\n")
print("| M | shapes | regret, first | regret, second | second's time over first's |")
print("|---|---:|---:|---:|---:|")
for low, high in ((1, 64), (65, 128), (129, None), (1, None)):
    part = [(s, o) for s, o in rows if s[0] >= low and (high is None or s[0] <= high)]
    print(f"| {low}-{high or ''} | {len(part)} | {g([o[0][0] / best[s] for s, o in part]):.4f} | "
          f"{g([o[1][0] / best[s] for s, o in part]):.4f} | {g([o[1][0] / o[0][0] for s, o in part]):.4f} |")
print("\n| shape | second over first | first's pick | second's pick |\n|---|---:|---|---|")
for shape, out in rows:
    if out[0][1] != out[1][1]:
        print(f"| {'x'.join(map(str, shape))} | {out[1][0] / out[0][0]:.3f} | "
              f"{out[0][1].split('_', 2)[2]} | {out[1][1].split('_', 2)[2]} |")
