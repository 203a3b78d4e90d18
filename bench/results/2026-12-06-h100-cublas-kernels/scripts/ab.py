"""Call 2's table: per problem, each variant's ratio to cuBLASLt (median
of the rounds) and the pick's kernel; the geomean per variant.

    ab.py DIR > ab.md   (DIR: gemm-runner --json files VARIANT-rR-MxNxK.json)
Standard library only."""
import glob, json, math, os, re, statistics, sys

runs = {}
picks = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    variant, _, shape = os.path.basename(path)[:-5].split("-")
    try:
        d = json.load(open(path))
        ratio = d["results"][0]["bench"]["speedup_vs_cublas"]
    except (ValueError, KeyError, IndexError, TypeError):
        continue
    runs.setdefault(shape, {}).setdefault(variant, []).append(ratio)
    if variant == "pick":
        picks[shape] = d["dispatch"]["config"]
variants = sorted({v for r in runs.values() for v in r}, key=lambda v: (v != "pick", v))
short = [re.sub(r"^sm90_[a-z0-9]+_(cbf16_qtt_)?|_rm_s8_st0", "", v) for v in variants]
print("| problem | pick | " + " | ".join(short) + " |")
print("|---|---|" + "---:|" * len(variants))
logs = {v: [] for v in variants}
key = lambda s: tuple(int(x) for x in s.split("x"))  # noqa: E731
for shape in sorted(runs, key=key):
    cells = []
    for v in variants:
        values = runs[shape].get(v)
        if values:
            median = statistics.median(values)
            logs[v].append(math.log(median))
            cells.append(f"{median:.3f}")
        else:
            cells.append("-")
    pick = re.sub(r"^sm90_[a-z0-9]+_(cbf16_qtt_)?|_rm_s8_st0", "", picks.get(shape, "?"))
    print(f"| {shape} | {pick} | " + " | ".join(cells) + " |")
print("| geomean | | " + " | ".join(
    f"{math.exp(sum(l) / len(l)):.3f}" if l else "-" for l in logs.values()) + " |")
