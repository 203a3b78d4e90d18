"""The shipped physics' log residuals (measured / physics, call 1's
measurements of both training sets, unstaged runs) of four wide tiles, by
kind of problem: whether the physics is biased where 64-row tiles re-read B
(P = row tiles of a column >= 3, >= 3 waves, K >= 8192). Run from the
repository root with the package installed:

    PYTHONPATH=python python3 bench/results/2026-11-29-h200-remeasure/scripts/residuals.py
"""
import collections, lzma, json, math

import gemm

D = "bench/results/2026-11-29-h200-remeasure/call1"
model = gemm._core.DispatchModel.load("bench/tuning/sm90-h200-model.json")
rows = [r for t in ("train", "train2")
        for r in json.load(lzma.open(f"{D}/measurements-{t}.json.xz"))["rows"]]
tiles = ["sm90_bf16_64x192x64_pingpong_c1x1_rm_s8_st0",
         "sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0",
         "sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0",
         "sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0"]
runs = collections.defaultdict(list)
for r in rows:
    if r["config"] not in tiles or r["staged"]:
        continue
    config = gemm.KernelConfig(r["config"])
    e = model.estimate(config, r["m"], r["n"], r["k"])
    runs[r["config"]].append((r["m"], r["k"], math.ceil(r["m"] / config.tile[0]), e["waves"],
                              math.log(r["call_ms"] * 1e-3 / e["physics_s"])))
kinds = {
    "P >= 3, >= 3 waves, K >= 8192": lambda m, k, p, w: p >= 3 and w >= 3 and k >= 8192,
    "P >= 3, >= 3 waves, K < 4096": lambda m, k, p, w: p >= 3 and w >= 3 and k < 4096,
    "P <= 2": lambda m, k, p, w: p <= 2,
    "M 200-700, K >= 8192": lambda m, k, p, w: 200 <= m <= 700 and k >= 8192,
    "M >= 2048": lambda m, k, p, w: m >= 2048,
}
print("| kernel | " + " | ".join(kinds) + " |")
print("|---|" + "---:|" * len(kinds))
for name in tiles:
    cells = []
    for test in kinds.values():
        values = [x[4] for x in runs[name] if test(*x[:4])]
        cells.append(f"{sum(values) / len(values):+.3f} ({len(values)})" if values else "-")
    print(f"| {name[10:-15]} | " + " | ".join(cells) + " |")
