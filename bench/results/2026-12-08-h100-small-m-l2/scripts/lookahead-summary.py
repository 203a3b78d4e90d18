"""Summary of lookahead.sh: per kernel and shape, the median over the three
rounds of our time with L = 1, 2, 3 and of the ratio to cuBLASLt; then per
kernel the geomean of time(L) / time(1)."""
import json, math, statistics, sys

results, kernels = sys.argv[1], sys.argv[2:]
print("| kernel | shape | us L1 / L2 / L3 | ratio to cuBLASLt L1 / L2 / L3 |")
print("|---|---|---|---|")
summary = []
for kernel in sorted(kernels):
    times, ratios = {}, {}
    for L in (1, 2, 3):
        for r in (1, 2, 3):
            try:
                rows = json.load(open(f"{results}/L{L}-{kernel}-r{r}.json"))["results"]
            except (OSError, ValueError):
                continue
            for x in rows:
                shape = (x["m"], x["n"], x["k"])
                times.setdefault(shape, {}).setdefault(L, []).append(x["bench"]["ours"]["median_ms"] * 1e3)
                ratios.setdefault(shape, {}).setdefault(L, []).append(x["bench"]["speedup_vs_cublas"])
    logs = {2: [], 3: []}
    for shape in times:
        t = {L: statistics.median(v) for L, v in times[shape].items()}
        q = {L: statistics.median(v) for L, v in ratios[shape].items()}
        for L in (2, 3):
            if L in t and 1 in t:
                logs[L].append(math.log(t[L] / t[1]))
        print(f"| {kernel.replace('sm90_bf16_', '')} | {'x'.join(map(str, shape))} | "
              + " / ".join(f"{t.get(L, float('nan')):.1f}" for L in (1, 2, 3)) + " | "
              + " / ".join(f"{q.get(L, float('nan')):.3f}" for L in (1, 2, 3)) + " |")
    summary.append((kernel, {L: math.exp(sum(v) / len(v)) if v else float("nan") for L, v in logs.items()}))
print("\ngeomean of time(L) / time(L = 1) per kernel:")
for kernel, g in summary:
    print(f"- {kernel.replace('sm90_bf16_', '')}: L2 {g[2]:.3f}, L3 {g[3]:.3f}")
