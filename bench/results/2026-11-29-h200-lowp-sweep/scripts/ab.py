"""Call 3's A/B: per problem whose pick the new model changes, the ratio to
cuBLASLt of the shipped library's pick (full) and the new one's (any
other name), the median of the two rounds each; and the geomean of new
over old.

    ab.py DIR > ab.md   (DIR: gemm-runner --json files V-rR-TAG.json)
Standard library only."""
import glob, json, math, os, statistics, sys

runs = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    v, r, tag = os.path.basename(path)[:-5].split("-", 2)
    try:
        d = json.load(open(path))
        b = d["results"][0]["bench"]
    except (ValueError, KeyError, IndexError):
        continue
    runs.setdefault(tag, {}).setdefault(v, []).append(
        (b["speedup_vs_cublas"], d["dispatch"]["config"]))
print("| problem | shipped pick | ratio | new pick | ratio | new / shipped |")
print("|---|---|---:|---|---:|---:|")
gains = {}
for tag in sorted(runs):
    old = runs[tag].get("full")
    new = next((v for k, v in runs[tag].items() if k != "full"), None)
    if not old or not new:
        continue
    o = statistics.median(x[0] for x in old)
    n = statistics.median(x[0] for x in new)
    gains.setdefault(tag.rsplit("-", 1)[0], []).append(n / o)
    print(f"| {tag} | {old[0][1][5:]} | {o:.3f} | {new[0][1][5:]} | {n:.3f} | {n / o:.3f} |")
print()
for key, values in sorted(gains.items()):
    g = math.exp(sum(map(math.log, values)) / len(values))
    print(f"- {key}: {len(values)} problems, new / shipped geomean {g:.3f} "
          f"(min {min(values):.3f}, max {max(values):.3f})")
