"""Call 7's tables: the grid sized by the tile order ("new" library) against
every slot ("old"), medians of gemm-runner's GPU-timed medians over the
rounds, per training run and per pick (with cuBLASLt's ratio).

    grid-compare.py TRAIN.txt PICKS.txt DIR > compare.md
"""
import collections, glob, json, math, os, re, statistics, sys


def medians(pattern):
    out = collections.defaultdict(list)
    for path in glob.glob(pattern):
        for r in json.load(open(path)).get("results", []):
            b = r.get("bench")
            if b:
                out[(r["m"], r["n"], r["k"])].append(
                    (b["ours"]["median_ms"] * 1e3,
                     b["cublas"]["median_ms"] * 1e3 if "cublas" in b else None))
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def main():
    train, picks, work = sys.argv[1:4]
    runs = [l.split() for l in open(train) if l.strip() and not l.startswith("#")]
    print("## Training runs whose grid changes\n")
    print("| kernel | problem | grid | new us | old us | new / old |")
    print("|---|---|---:|---:|---:|---:|")
    ratios, families = [], collections.defaultdict(list)
    for config, m, n, k, grid in runs:
        key = (int(m), int(n), int(k))
        new = medians(os.path.join(work, f"train-new-{config}-r*.json")).get(key)
        old = medians(os.path.join(work, f"train-old-{config}-r*.json")).get(key)
        if not new or not old:
            print(f"{config} {m}x{n}x{k}: not measured", file=sys.stderr)
            continue
        a, b = statistics.median(t for t, _ in new), statistics.median(t for t, _ in old)
        ratios.append(a / b)
        family = re.sub(r"^sm90_bf16_|_c1x1_rm_s8_st0", "", config)
        families[re.sub(r"x64_", " ", re.sub(r"_k\d+$", "", family))].append(a / b)
        print(f"| {family} | {m}x{n}x{k} | {grid} | {a:.1f} | {b:.1f} | {a / b:.3f} |")
    if not ratios:
        raise SystemExit("no training run measured both ways")
    print(f"\n{len(ratios)} runs: new / old geomean {geomean(ratios):.3f}, "
          f"min {min(ratios):.3f}, max {max(ratios):.3f}; "
          f"{sum(r > 1.02 for r in ratios)} above 1.02, {sum(r < 0.98 for r in ratios)} below 0.98\n")
    print("| tile | runs | new / old geomean | min | max |\n|---|---:|---:|---:|---:|")
    for family, v in sorted(families.items(), key=lambda x: geomean(x[1])):
        print(f"| {family} | {len(v)} | {geomean(v):.3f} | {min(v):.3f} | {max(v):.3f} |")
    print("\n## The picks whose grid changes (against cuBLASLt in the same process)\n")
    print("| type | problem | new / cuBLASLt | old / cuBLASLt | new / old |")
    print("|---|---|---:|---:|---:|")
    for line in open(picks):
        if line.startswith("#") or not line.strip():
            continue
        dtype, m, n, k = line.split()
        key = (int(m), int(n), int(k))
        got = {}
        for lib in ("new", "old"):
            v = medians(os.path.join(work, f"pick-{lib}-{dtype}-{m}x{n}x{k}-r*.json")).get(key)
            if v:
                got[lib] = (statistics.median(t for t, _ in v),
                            statistics.median(c / t for t, c in v))
        if len(got) < 2:
            print(f"{dtype} {m}x{n}x{k}: not measured", file=sys.stderr)
            continue
        print(f"| {dtype} | {m}x{n}x{k} | {got['new'][1]:.3f} | {got['old'][1]:.3f} | "
              f"{got['new'][0] / got['old'][0]:.3f} |")


main()
