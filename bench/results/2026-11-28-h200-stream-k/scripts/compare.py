"""Stream-K against the whole-tile twins of the same tiles: geomean of the
twin's time over the stream-K kernel's (median of the rounds in a call's
measurements-{dp,VARIANT}-{train,train2}-{1,2}.json), split by how the
shipped plan (gemm._core.stream_k_plan) shares the last partial wave, for
each call directory given as VARIANT=DIR. Needs the gemm package.

    compare.py new=call2 old=call1
"""
import json, math, statistics, sys
import gemm


def medians(directory, variant):
    runs = {}
    for t in ("train", "train2"):
        for r in (1, 2):
            for x in json.load(open(f"{directory}/measurements-{variant}-{t}-{r}.json"))["rows"]:
                key = (x["config"].removesuffix("_sk"), x["m"], x["n"], x["k"])
                runs.setdefault(key, []).append(x["kernel_ms"])
    return {k: statistics.median(v) for k, v in runs.items()}


def case(key):
    name, m, n, k = key
    config = gemm.KernelConfig(name)
    (bm, bn, bk), (cm, cn) = config.tile, config.cluster
    units = math.ceil(math.ceil(m / bm) / cm) * math.ceil(math.ceil(n / bn) / cn)
    _, _, per_unit = gemm._core.stream_k_plan(units, 132 // (cm * cn), math.ceil(k / bk))
    return f"{per_unit} workers a unit" if per_unit else "partial wave not shared"


g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("| variant | case | runs | twin time / stream-K time (geomean) | 5th pct | min | max |")
print("|---|---|---:|---:|---:|---:|---:|")
for arg in sys.argv[1:]:
    variant, directory = arg.split("=")
    dp, sk = medians(directory, "dp"), medians(directory, variant)
    cases = {"all": [dp[k] / sk[k] for k in sk]}
    for key in sk:
        cases.setdefault(case(key), []).append(dp[key] / sk[key])
    for name, v in sorted(cases.items()):
        v.sort()
        print(f"| {variant} ({directory}) | {name} | {len(v)} | {g(v):.3f} | "
              f"{v[len(v) // 20]:.3f} | {v[0]:.3f} | {v[-1]:.3f} |")
