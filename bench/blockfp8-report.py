#!/usr/bin/env python3
"""The report of bench/blockfp8-h200.sh: markdown tables from its gemm-runner
--json files (checks/, library/, bench/ under RESULTS), written to stdout.

    python3 bench/blockfp8-report.py RESULTS > RESULTS/README.md

The checks' tables are bench/lowp-report.py's. Speed: the median over the
rounds of each kernel's median TFLOP/s (and of cuBLASLt's, timed beside it
in the same process), then block-wise against our per-tensor kernels of the
same shape: the best promoted one (the same accumulation as block-wise) and
the best of all (fast accumulation included). Standard library only."""

import glob
import importlib.util
import math
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("lowp_report", os.path.join(here, "lowp-report.py"))
lowp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lowp)


def speeds(results):
    """{set: {shape: {kernel: (ours, cublas, ratio, baseline, mhz)}}}, medians
    over the rounds."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(results, "bench", "*.json"))):
        tag = lowp.name_of(path)  # SET-KERNEL-rROUND
        which, rest = tag.split("-", 1)
        kernel = rest.rsplit("-r", 1)[0]
        report = lowp.load(path)
        for r in (report or {}).get("results", []):
            b = r.get("bench")
            if not b or "cublas" not in b:
                continue
            runs.setdefault(which, {}).setdefault(lowp.shape(r), {}).setdefault(kernel, []).append(
                (b["ours"]["tflops"], b["cublas"]["tflops"], b["speedup_vs_cublas"],
                 b.get("cublas_baseline", ""), b.get("clocks", {}).get("sm_clock_mhz")))
    out = {}
    for which, shapes in runs.items():
        for where, kernels in shapes.items():
            for kernel, rows in kernels.items():
                med = [statistics.median(row[i] for row in rows) for i in range(3)]
                out.setdefault(which, {}).setdefault(where, {})[kernel] = (
                    *med, rows[0][3], "/".join(str(row[4]) for row in rows), len(rows))
    return out


def kind(kernel):
    if "_block_" in kernel:
        return "block"
    return "fast" if "_tfast_" in kernel else "promoted"


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def bench(results):
    data = speeds(results)
    print("## Speed beside cuBLASLt (H200)\n")
    print("TFLOP/s: the median over the rounds of each kernel's median of the "
          "timed runs, cuBLASLt timed beside it in the same process (fp8 "
          "e4m3 per-tensor, the baseline named under the table); ratio = "
          "cuBLASLt time / ours.\n")
    baselines = set()
    for which in ["main", "llm"]:
        for where, kernels in data.get(which, {}).items():
            print(f"### {which}: {where}\n")
            print("| kernel | accumulation | ours | cuBLASLt | ratio | rounds | SM MHz |")
            print("|---|---|---|---|---|---|---|")
            for kernel, (ours, cublas, ratio, baseline, mhz, n) in sorted(
                    kernels.items(), key=lambda item: -item[1][0]):
                baselines.add(baseline)
                print(f"| {kernel} | {kind(kernel)} | {ours:.1f} | {cublas:.1f} | "
                      f"{ratio:.3f} | {n} | {mhz} |")
            print()
    print(f"Baselines: {'; '.join(sorted(b for b in baselines if b))}.\n")

    print("## Block-wise against our per-tensor kernels (issue 18: >= 0.9)\n")
    print("Per shape, the best block-wise kernel against the best per-tensor "
          "one promoted every k-block (the same accumulation) and against the "
          "best per-tensor one of all (fast accumulation included: the "
          "issue's figure).\n")
    print("| set | shape | block-wise (kernel) | per-tensor promoted | ratio | "
          "per-tensor best (kernel) | ratio | cuBLASLt per-tensor |")
    print("|---|---|---|---|---|---|---|---|")
    to_promoted, to_best = [], []
    for which in ["main", "llm"]:
        for where, kernels in data.get(which, {}).items():
            def best(pred):
                rows = [(k, v) for k, v in kernels.items() if pred(kind(k))]
                return max(rows, key=lambda kv: kv[1][0]) if rows else None
            blk = best(lambda c: c == "block")
            prom = best(lambda c: c == "promoted")
            top = best(lambda c: c != "block")
            if not blk or not top:
                continue
            r_top = blk[1][0] / top[1][0]
            to_best.append(r_top)
            r_prom = blk[1][0] / prom[1][0] if prom else float("nan")
            if prom:
                to_promoted.append(r_prom)
            print(f"| {which} | {where} | {blk[1][0]:.1f} ({blk[0]}) | "
                  f"{prom[1][0] if prom else float('nan'):.1f} | {r_prom:.3f} | "
                  f"{top[1][0]:.1f} ({top[0]}) | {r_top:.3f} | {blk[1][1]:.1f} |")
    print(f"\nGeometric mean: {geomean(to_promoted):.3f} against the promoted "
          f"per-tensor kernels, {geomean(to_best):.3f} against the best "
          f"per-tensor ones; worst {min(to_best) if to_best else float('nan'):.3f}.\n")
    print("Before this change (bench/results/2026-11-24-h200-lowp/): block-wise "
          "999.9 / 954.8 / 935.7 / 387.4 TFLOP/s at 4096^3 / 8192^3 / "
          "2048x28672x8192 / 128x8192x8192, 0.63-0.73x of the best per-tensor "
          "kernel.\n")


def library_picks(results):
    paths = sorted(glob.glob(os.path.join(results, "libbench", "*.json")))
    if not paths:
        return
    print("## The dispatcher's picks from the kernel library (--library), timed\n")
    print("One run each (median of the timed runs), beside cuBLASLt.\n")
    print("| quant | shape | kernel | ours | cuBLASLt | ratio |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        report = lowp.load(path) or {}
        picked = report.get("dispatch", {}).get("config", "?")
        for r in report.get("results", []):
            b = r.get("bench")
            if b and "cublas" in b:
                print(f"| {lowp.name_of(path).split('-')[0]} | {lowp.shape(r)} | {picked} | "
                      f"{b['ours']['tflops']:.1f} | {b['cublas']['tflops']:.1f} | "
                      f"{b['speedup_vs_cublas']:.3f} |")
    print()


def sass(results):
    paths = sorted(glob.glob(os.path.join(results, "sass", "*.sass")))
    if not paths:
        return
    print("## SASS (cuobjdump -sass)\n")
    print("| kernel | QGMMA | WARPGROUP.DEPBAR | WARPGROUP.ARRIVE |")
    print("|---|---|---|---|")
    for path in paths:
        text = open(path).read()
        print(f"| {lowp.name_of(path)} | {text.count('QGMMA')} | "
              f"{text.count('WARPGROUP.DEPBAR')} | {text.count('WARPGROUP.ARRIVE')} |")
    print()


def main():
    results = sys.argv[1]
    print("# Block-wise fp8 beside per-tensor fp8 on the H200 (bench/blockfp8-h200.sh)\n")
    gpu = os.path.join(results, "gpu.txt")
    if os.path.exists(gpu):
        print("```\n" + open(gpu).read().strip() + "\n```\n")
    lowp.checks(results)
    lowp.library_checks(results)
    sass(results)
    bench(results)
    library_picks(results)


if __name__ == "__main__":
    main()
