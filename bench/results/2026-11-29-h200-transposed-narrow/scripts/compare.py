# Calls 3 and 4: the test set's four runs (shipped, new, new, shipped), per
# type the geomean, 5th percentile and problems below 0.90x of cuBLASLt,
# and the picks the new model changes, both rounds. Run from the
# repository root (the selections are in the runs' directories):
#   python3 bench/results/2026-11-29-h200-transposed-narrow/scripts/compare.py
import json, lzma, math, os

D = "bench/results/2026-11-29-h200-transposed-narrow"
RUNS = {"1 shipped": "call3/test-1-shipped", "2 new": "call3/test-2-new",
        "3 new": "call4/test-3-new", "4 shipped": "call4/test-4-shipped"}


def load(run, name):
    return json.load(lzma.open(os.path.join(D, RUNS[run], name)))


R = {run: {(r["dtype"], tuple(r["shape"])): r["ratio"] for r in load(run, "results.json.xz")["rows"]}
     for run in RUNS}
picks = {run: {(r["dtype"], tuple(r["shape"])): r["config"] for r in load(run, "selection.json.xz")}
         for run in ("1 shipped", "2 new")}
old, new = picks["1 shipped"], picks["2 new"]
changed = sorted((k for k in old if old[k] != new[k]), key=lambda k: (k[1], k[0]))
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
both = lambda k, a, b: math.sqrt(R[a][k] * R[b][k])

print("| run | bf16 geomean | 5th pct | below 0.90x | f16 geomean | 5th pct | below 0.90x |")
print("|---|---:|---:|---:|---:|---:|---:|")
for run, rows in R.items():
    cells = []
    for dtype in ("bf16", "f16"):
        r = sorted(v for k, v in rows.items() if k[0] == dtype)
        cells += [f"{g(r):.3f}x", f"{r[int(0.05 * len(r))]:.3f}x", str(sum(v < 0.9 for v in r))]
    print(f"| {run} | " + " | ".join(cells) + " |")
ratio = lambda keys, a, b: g([R[a][k] / R[b][k] for k in keys])
print(f"\n{len(changed)} changed picks, new over shipped: {ratio(changed, '2 new', '1 shipped'):.4f} "
      f"(round 1), {ratio(changed, '3 new', '4 shipped'):.4f} (round 2); the other "
      f"{len(old) - len(changed)}: {ratio([k for k in old if k not in changed], '2 new', '1 shipped'):.4f}, "
      f"{ratio([k for k in old if k not in changed], '3 new', '4 shipped'):.4f}\n")
print("| problem | type | shipped pick | new pick | shipped (runs 1, 4) | new (runs 2, 3) |")
print("|---|---|---|---|---:|---:|")
short = lambda name: name.split("_", 2)[2].replace("_c1x1_rm_s8_st0", "")
for k in changed:
    print(f"| {'x'.join(map(str, k[1]))} | {k[0]} | {short(old[k])} | {short(new[k])} | "
          f"{R['1 shipped'][k]:.3f}, {R['4 shipped'][k]:.3f} | {R['2 new'][k]:.3f}, {R['3 new'][k]:.3f} |")
