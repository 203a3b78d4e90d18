"""call1/probe.md from call 1's runner JSON files (probe-NAME.json, not
kept: 800 KB): cuBLASLt time / ours per shape and kernel, the same process,
and the spread of cuBLASLt's own medians over the 20 runs of each shape.

    python3 probe-table.py DIR > call1/probe.md
"""
import glob, json, statistics, sys

ratio, cublas = {}, {}
for path in sorted(glob.glob(f"{sys.argv[1]}/probe-sm90*.json")):
    name = path.split("probe-sm90_bf16_")[1][:-len("_rm_s8_st0.json")]
    for r in json.load(open(path))["results"]:
        shape, bench = (r["m"], r["n"], r["k"]), r["bench"]
        ratio.setdefault(shape, {})[name] = bench["cublas"]["median_ms"] / bench["ours"]["median_ms"]
        cublas.setdefault(shape, []).append(bench["cublas"]["median_ms"])
names = sorted({n for v in ratio.values() for n in v}, key=lambda n: (n.startswith("128"), n))
print("| M x N x K | " + " | ".join(n.replace("x64_pingpong", " pp").replace("x64_coop", " coop")
                                      for n in names) + " | cuBLASLt ms (min-max) |")
print("|---" * (len(names) + 2) + "|")
for shape, row in ratio.items():
    best = max(row.values())
    cells = [(f"**{row[n]:.2f}**" if row[n] == best else f"{row[n]:.2f}") for n in names]
    print(f"| {'x'.join(map(str, shape))} | " + " | ".join(cells) +
          f" | {min(cublas[shape]):.4f}-{max(cublas[shape]):.4f} |")
