"""The arrival trial's table: per kernel and problem, the median over rounds
of each variant's median time, its ratio to cuBLASLt's in the same process,
and new's time over old's (the median of the rounds' ratios).

    python3 summary.py RESULTS_DIR
"""
import glob
import json
import math
import os
import re
import statistics
import sys

results = sys.argv[1]
runs = {}   # (kernel, shape) -> variant -> [(ours_ms, cublas_ms) per round]
for path in sorted(glob.glob(os.path.join(results, "*-r*.json"))):
    kernel, variant, _ = re.match(r"(.*)-(old|new)-r(\d+)\.json$",
                                  os.path.basename(path)).groups()
    for x in json.load(open(path))["results"]:
        b = x["bench"]
        shape = f'{x["m"]}x{x["n"]}x{x["k"]}'
        runs.setdefault((kernel, shape), {}).setdefault(variant, []).append(
            (b["ours"]["median_ms"], b["cublas"]["median_ms"]))

print("| kernel | problem | old us | new us | old, speed over cuBLASLt | new, speed over cuBLASLt | new time over old |")
print("|---|---|---:|---:|---:|---:|---:|")
logs = []
for (kernel, shape), v in runs.items():
    if "old" not in v or "new" not in v:
        continue
    us = {k: statistics.median(t for t, _ in v[k]) * 1e3 for k in v}
    speed = {k: statistics.median(c / t for t, c in v[k]) for k in v}
    rounds = min(len(v["old"]), len(v["new"]))
    over = statistics.median(v["new"][i][0] / v["old"][i][0] for i in range(rounds))
    logs.append(math.log(over))
    print(f"| {kernel} | {shape} | {us['old']:.2f} | {us['new']:.2f} | "
          f"{speed['old']:.3f} | {speed['new']:.3f} | {over:.4f} |")
if logs:
    print(f"\nnew over old, geomean of {len(logs)} problems: "
          f"{math.exp(sum(logs) / len(logs)):.4f} (below 1: new is faster)")
