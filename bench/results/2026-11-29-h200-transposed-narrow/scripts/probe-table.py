# Call 7's probe: per problem, the library's pick and each transposed
# narrow fp8 kernel, time in us (and the ratio to cuBLASLt where it ran),
# and per kernel the geomean of the pick's time over its own. Run:
# python3 probe-table.py DIR
import glob, json, math, os, re, sys

R = sys.argv[1]
for s in ("train", "sweep"):
    times = {}
    for f in glob.glob(f"{R}/{s}-*.json"):
        who = os.path.basename(f)[len(s) + 1:-5]
        pick = who.startswith("pick-")
        who = "pick" if pick else re.sub(r"^sm90_e4m3_cbf16_qtt_akbkcc_|x128|_c1x1_rm_s8_st0", "", who)
        for x in json.load(open(f)).get("results", []):
            b = x.get("bench")
            if not b:
                continue
            shape = (x["m"], x["n"], x["k"]) if pick else (x["n"], x["m"], x["k"])
            ours = b["ours"]["median_ms"] * 1000
            cublas = b.get("cublas", {}).get("median_ms") if isinstance(b.get("cublas"), dict) else None
            times.setdefault(shape, {})[who] = (ours, cublas * 1000 / ours if cublas else None)
    kinds = sorted({k for v in times.values() for k in v}, key=lambda k: (k != "pick", k))
    print(f"## {s}: us (ratio to cuBLASLt)\n")
    print("| M | N | K | " + " | ".join(kinds) + " |")
    print("|---|---|---|" + "---:|" * len(kinds))
    for shape in sorted(times):
        v = times[shape]
        cell = lambda k: "-" if k not in v else (f"{v[k][0]:.1f}" + (f" ({v[k][1]:.3f})" if v[k][1] else ""))
        print(f"| {shape[0]} | {shape[1]} | {shape[2]} | " + " | ".join(cell(k) for k in kinds) + " |")
    both = [v for v in times.values() if "pick" in v]
    if not both:
        continue
    g = lambda l: math.exp(sum(l) / len(l)) if l else float("nan")
    print("\npick's time over the kernel's (geomean, > 1: the kernel is faster): " +
          ", ".join(f"{k} {g([math.log(v['pick'][0] / v[k][0]) for v in both if k in v]):.3f}"
                    for k in kinds if k != "pick") +
          f"; over the best of all {g([math.log(v['pick'][0] / min(x[0] for x in v.values())) for v in both]):.3f}\n")
