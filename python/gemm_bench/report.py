"""Turns gemm-runner --json result files into a markdown table and PNG plots.

    python -m gemm_bench.report RESULTS.json [...] --markdown OUT.md [--plot OUT.png]

Each benchmarked problem becomes one row: our median time and TFLOP/s,
cuBLAS's (measured interleaved in the same process), and the ratio of
medians. The GPU, clocks and power limit recorded by gemm-runner head the
table.
"""
import argparse
import json
import math
import sys


def load_rows(paths):
    rows, device = [], None
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if data.get("format") != "gemm-runner-results":
            raise SystemExit(f"{path}: not a gemm-runner --json results file")
        device = device or data.get("device")
        for result in data.get("results", []):
            bench = result.get("bench")
            if not bench or "cublas" not in bench:
                continue
            ours, theirs = bench["ours"], bench["cublas"]
            rows.append({
                "bundle": data.get("bundle", {}).get("name", path),
                "shape": (result["m"], result["n"], result["k"]),
                "ours_ms": ours["median_ms"], "ours_tflops": ours["tflops"],
                "cublas_ms": theirs["median_ms"],
                "cublas_tflops": theirs["tflops"],
                "ratio": theirs["median_ms"] / ours["median_ms"],
            })
    return rows, device


def markdown(rows, device):
    lines = []
    if device:
        lines.append("GPU: " + ", ".join(f"{k} {v}" for k, v in device.items()))
        lines.append("")
    lines.append("| kernel | M | N | K | ours ms | ours TFLOP/s | cuBLAS ms "
                 "| cuBLAS TFLOP/s | ratio |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        m, n, k = r["shape"]
        lines.append(f"| {r['bundle']} | {m} | {n} | {k} | {r['ours_ms']:.4f} "
                     f"| {r['ours_tflops']:.1f} | {r['cublas_ms']:.4f} "
                     f"| {r['cublas_tflops']:.1f} | {r['ratio']:.3f}x |")
    if rows:
        geomean = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
        lines.append("")
        lines.append(f"Geometric mean ratio (cuBLAS time / ours): {geomean:.3f}x "
                     f"over {len(rows)} problems")
    return "\n".join(lines) + "\n"


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['bundle']}\n{'x'.join(map(str, r['shape']))}" for r in rows]
    x = range(len(rows))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(6, len(rows) * 1.2), 7),
                                      sharex=True)
    width = 0.4
    top.bar([i - width / 2 for i in x], [r["ours_tflops"] for r in rows], width,
            label="ours")
    top.bar([i + width / 2 for i in x], [r["cublas_tflops"] for r in rows], width,
            label="cuBLAS")
    top.set_ylabel("TFLOP/s (median)")
    top.legend()
    bottom.bar(list(x), [r["ratio"] for r in rows])
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.set_ylabel("speed-up over cuBLAS")
    bottom.set_xticks(list(x))
    bottom.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="gemm-runner --json files")
    parser.add_argument("--markdown", help="write the table here (default: stdout)")
    parser.add_argument("--plot", help="write a PNG plot here")
    args = parser.parse_args(argv)
    rows, device = load_rows(args.results)
    if not rows:
        raise SystemExit("no benchmark results (run gemm-runner with --bench --vs cublas)")
    text = markdown(rows, device)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
