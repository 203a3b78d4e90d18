"""Warp-stall samples of an Nsight Compute source page, summed per opcode.

    ncu -i K.ncu-rep --page source --csv --print-source sass > K.source.csv
    python3 stalls-by-opcode.py K.source.csv [K2.source.csv ...]
"""
import csv
import sys


def summarize(path, top=14):
    rows = list(csv.reader(open(path)))
    header, data = rows[1], rows[2:]
    idx = {h: i for i, h in enumerate(header)}
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    groups = {}
    for r in data:
        words = r[1].split()
        op = (words[1] if words[0].startswith("@") else words[0]).split(".")[0]
        g = groups.setdefault(op, {"executed": 0, "samples": 0})
        g["executed"] += int(r[idx["Instructions Executed"]] or 0)
        g["samples"] += int(r[idx["Warp Stall Sampling (All Samples)"]] or 0)
        for c in reasons:
            g[c] = g.get(c, 0) + int(r[idx[c]] or 0)
    total = sum(g["samples"] for g in groups.values())
    print(f"### {rows[0][1]}: {sum(g['executed'] for g in groups.values())} warp "
          f"instructions, {total} samples\n")
    print("| opcode | executed | samples | top stall reasons (samples) |")
    print("|---|---:|---:|---|")
    for op, g in sorted(groups.items(), key=lambda x: -x[1]["samples"])[:top]:
        tops = sorted(((v, c[6:]) for c, v in g.items() if c.startswith("stall_") and v),
                      reverse=True)[:3]
        print(f"| {op} | {g['executed']} | {g['samples']} | "
              + ", ".join(f"{c} {v}" for v, c in tops) + " |")
    print()


for p in sys.argv[1:]:
    summarize(p)
