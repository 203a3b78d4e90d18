# The test-set reports of call 2 (DIR/test-I-NAME/results.json.xz, from its
# tarballs): per type, each run's geomean, 5th percentile, minimum and
# problems below 0.90x of cuBLASLt, and each refit's changed picks against
# the shipped model's run(s). Run from anywhere:
#   python3 compare.py DIR
import glob, json, lzma, math, os, sys
from collections import defaultdict

root = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(root, "test-*", "results.json.xz"))):
    label = os.path.basename(os.path.dirname(path))[len("test-"):]
    runs[label] = {(r["dtype"], tuple(r["shape"])): r for r in json.load(lzma.open(path))["rows"]}

def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))

def p5(values):
    return sorted(values)[int(0.05 * len(values))]

print("| run | type | geomean | 5th pct | min | below 0.90x |")
print("|---|---|---:|---:|---:|---:|")
for label, rows in runs.items():
    for dtype in ("bf16", "f16"):
        ratios = [r["ratio"] for key, r in rows.items() if key[0] == dtype]
        print(f"| {label} | {dtype} | {geomean(ratios):.3f}x | {p5(ratios):.3f}x | "
              f"{min(ratios):.3f}x | {sum(v < 0.90 for v in ratios)} |")

shipped = [label for label in runs if label.endswith("shipped")]
for label, rows in runs.items():
    if label in shipped:
        continue
    base = runs[shipped[0]]
    changed = [key for key in rows if rows[key]["bundle"] != base[key]["bundle"]]
    same = [key for key in rows if rows[key]["bundle"] == base[key]["bundle"]]
    def moved(keys):
        per = defaultdict(list)
        for key in keys:
            per[key].extend(rows[key]["ratio"] / runs[s][key]["ratio"] for s in shipped)
        return geomean([geomean(v) for v in per.values()]) if per else float("nan")
    print(f"\n{label}: {len(changed)} changed picks moved {moved(changed):.3f}x against "
          f"{', '.join(shipped)}; the {len(same)} others {moved(same):.3f}x")
    for key in sorted(changed, key=lambda k: rows[k]["ratio"] / base[k]["ratio"]):
        print(f"  {key[0]} {'x'.join(map(str, key[1]))}: "
              f"{base[key]['bundle'].split('_', 2)[2]} {base[key]['ratio']:.3f} -> "
              f"{rows[key]['bundle'].split('_', 2)[2]} {rows[key]['ratio']:.3f}")
