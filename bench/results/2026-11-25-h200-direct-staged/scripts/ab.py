"""The A/B table of the direct kernels, per-element stores (old) against
staged stores (new), from the call's ab/*.json (gemm-runner --vs cublas).

    python3 ab.py C6_DIR > ab.md
"""
import json
import math
import os
import sys

TILES = ("64x32x64", "64x64x64", "128x128x64")


def main():
    base = sys.argv[1]
    res = {}
    for version in ("old", "new"):
        for tile in TILES:
            with open(os.path.join(base, "ab", f"{version}-{tile}.json")) as f:
                data = json.load(f)
            for r in data["results"]:
                b = r.get("bench") or {}
                if "ours" in b:
                    res.setdefault((r["m"], r["n"], r["k"]), {})[(version, tile)] = (
                        b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] * 1e3)
    print("| tile | shapes | old time / new time: geomean | min | max |")
    print("|---|---:|---:|---:|---:|")
    for tile in TILES:
        speedups = [v[("old", tile)][0] / v[("new", tile)][0] for v in res.values()
                    if ("old", tile) in v and ("new", tile) in v]
        geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
        print(f"| {tile} | {len(speedups)} | {geo:.3f} | {min(speedups):.3f} | {max(speedups):.3f} |")
    print()
    print("| M x N x K | " + " | ".join(f"{t} old | {t} new" for t in TILES) + " |")
    print("|---|" + "---:|" * (2 * len(TILES)))
    for shape, v in res.items():
        cells = []
        for tile in TILES:
            for version in ("old", "new"):
                ours, cublas = v.get((version, tile), (None, None))
                cells.append(f"{ours:.1f} ({cublas / ours:.2f}x)" if ours else "-")
        print(f"| {shape[0]}x{shape[1]}x{shape[2]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
