# Summary of call 1 (DIR: its results): per problem, each kernel's ratio to
# cuBLASLt and time; transposed runs (N x M x K) are keyed by the problem
# M x N x K. Run: python3 table.py DIR
import glob, json, math, os, sys

R = sys.argv[1]
for s in ("train64", "stream"):
    ratio = {}
    for f in glob.glob(f"{R}/{s}-*.json"):
        who = os.path.basename(f)[len(s) + 1:-5]
        pick = who.startswith("pick-")
        who = "pick" if pick else who.replace("sm90_bf16_akbkcc_", "t").replace("_c1x1_rm_s8_st0", "")
        for x in json.load(open(f))["results"]:
            b = x.get("bench")
            if not b:
                continue
            shape = (x["m"], x["n"], x["k"]) if pick else (x["n"], x["m"], x["k"])
            ratio.setdefault(shape, {})[who] = (b["cublas"]["median_ms"] / b["ours"]["median_ms"],
                                                b["ours"]["median_ms"] * 1000)
    kinds = sorted({k for v in ratio.values() for k in v}, key=lambda k: (k != "pick", k))
    print(f"## {s}: ratio to cuBLASLt (us)\n")
    print("| M | N | K | " + " | ".join(kinds) + " |")
    print("|---|---|---|" + "---:|" * len(kinds))
    for shape in sorted(ratio):
        v = ratio[shape]
        print(f"| {shape[0]} | {shape[1]} | {shape[2]} | " +
              " | ".join(f"{v[k][0]:.3f} ({v[k][1]:.1f})" if k in v else "-" for k in kinds) + " |")
    both = [v for v in ratio.values() if "pick" in v]
    logs = {k: [math.log(v[k][0]) for v in both if k in v] for k in kinds}
    if not both:
        continue
    best = [math.log(max(x[0] for x in v.values())) for v in both]
    print("\ngeomean over the problems the pick ran: " +
          ", ".join(f"{k} {math.exp(sum(l) / len(l)):.3f} ({len(l)})" for k, l in logs.items() if l) +
          f"; best of all {math.exp(sum(best) / len(best)):.3f}\n")
