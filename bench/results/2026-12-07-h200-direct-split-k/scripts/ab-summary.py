"""ab.sh's runs as a table: per shape, the shipped library's pick and its
ratio to cuBLASLt (cuBLASLt's median time over ours, interleaved in one
process), and the fastest split direct candidate's. Usage:
  python ab-summary.py AB_DIR"""
import glob
import json
import os
import sys


def runs(path):
    """(shape, result) of a gemm-runner --json file: the caller's shape,
    also where the library ran the transposed problem (N x M x K)."""
    data = json.load(open(path))
    transposed = data.get("dispatch", {}).get("transposed", False)
    for r in data.get("results", []):
        if "bench" in r:
            m, n = (r["n"], r["m"]) if transposed else (r["m"], r["n"])
            yield (m, n, r["k"]), r


def main(ab):
    library, best = {}, {}
    for path in glob.glob(os.path.join(ab, "library-*.json")):
        for shape, r in runs(path):
            library[shape] = (json.load(open(path))["dispatch"]["config"],
                              r["bench"]["speedup_vs_cublas"], r["bench"]["ours"]["median_ms"])
    for path in glob.glob(os.path.join(ab, "sm90_*.json")):
        name = os.path.basename(path)[:-5]
        for shape, r in runs(path):
            ratio = r["bench"]["speedup_vs_cublas"]
            if shape not in best or ratio > best[shape][1]:
                best[shape] = (name, ratio, r["bench"]["ours"]["median_ms"])
    print("| shape | library pick | ratio | us | best split direct | ratio | us |")
    print("|---|---|---:|---:|---|---:|---:|")
    for shape in sorted(set(library) | set(best)):
        lib = library.get(shape, ("-", float("nan"), float("nan")))
        top = best.get(shape, ("-", float("nan"), float("nan")))
        print(f"| {'x'.join(map(str, shape))} | {lib[0]} | {lib[1]:.3f} | {lib[2]*1e3:.1f} "
              f"| {top[0]} | {top[1]:.3f} | {top[2]*1e3:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
