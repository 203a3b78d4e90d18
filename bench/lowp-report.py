#!/usr/bin/env python3
"""The report of bench/lowp-h200.sh: markdown tables from its gemm-runner
--json files (checks/, longk/, bench/ under RESULTS), written to stdout.

    python3 bench/lowp-report.py RESULTS > RESULTS/README.md

Standard library only (the GPU machine's python3)."""

import glob
import json
import math
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        print(f"<!-- {path}: {error} -->")
        return None


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


def shape(result):
    return f"{result['m']}x{result['n']}x{result['k']}"


def name_of(path):
    return os.path.splitext(os.path.basename(path))[0]


def checks(results):
    print("## Correctness\n")
    print("gemm-runner --check against references on the dequantised inputs "
          "(cuBLASLt exact f32, the f64 naive kernel up to 2^30 multiply-adds);"
          " tolerances from docs/LowPrecision.md. worst = the largest "
          "rel_err / tolerance over the kernel's shapes.\n")
    print("| kernel | shapes | pass | fail | worst rel_err / tolerance | at |")
    print("|---|---|---|---|---|---|")
    failures = []
    total = passed = 0
    for path in sorted(glob.glob(os.path.join(results, "checks", "*.json"))):
        report = load(path)
        if not report:
            continue
        rows = [r for r in report.get("results", []) if "check" in r]
        ok = sum(1 for r in rows if r["check"]["passed"])
        worst, at = 0.0, "-"
        for r in rows:
            c = r["check"]
            refs = c.get("references") or [{}]
            ratio = refs[0].get("rel_error", math.inf) / c["tolerance"]
            if ratio > worst:
                worst, at = ratio, shape(r)
            if not c["passed"]:
                failures.append((name_of(path), shape(r), c))
        error = report.get("error", {}).get("message", "")
        total += len(rows)
        passed += ok
        print(f"| {name_of(path)} | {len(rows)} | {ok} | {len(rows) - ok} | "
              f"{worst:.3f} | {at} |" + (f" error: {error} |" if error else ""))
    print(f"\n{passed} of {total} checks passed.\n")
    for name, where, c in failures:
        print(f"- FAIL {name} {where}: {json.dumps(c)[:400]}")
    if failures:
        print()


def library_checks(results):
    paths = sorted(glob.glob(os.path.join(results, "library", "*.json")))
    if not paths:
        return
    print("## The kernel library through the dispatcher\n")
    print("gemm-runner --library --check: the bundle the dispatcher picks for "
          "each of the library's low-precision problems and shapes.\n")
    print("| problem | shape | kernel | check | rel_err / tolerance |")
    print("|---|---|---|---|---|")
    for path in paths:
        report = load(path)
        if not report:
            continue
        problem = name_of(path).rsplit("-", 1)[0]
        picked = report.get("dispatch", {}).get("config", "?")
        error = report.get("error", {}).get("message", "")
        rows = [r for r in report.get("results", []) if "check" in r]
        if not rows:
            print(f"| {problem} | - | {picked} | error: {error} | - |")
        for r in rows:
            c = r["check"]
            refs = c.get("references") or [{}]
            ratio = refs[0].get("rel_error", math.inf) / c["tolerance"]
            print(f"| {problem} | {shape(r)} | {picked} | "
                  f"{'PASS' if c['passed'] else 'FAIL'} | {ratio:.3f} |")
    print()


def longk(results):
    print("## fp8 accumulation over long K\n")
    print("Relative Frobenius error against the exact f32 reference: partial "
          "sums promoted into f32 every 128 of K (lp_e4m3_t_128x128), every "
          "512 (lp_e4m3_t4_128x128) and never (fast, lp_e4m3_tfast_128x128), "
          "with each one's derived tolerance.\n")
    table = {}
    for path in sorted(glob.glob(os.path.join(results, "longk", "*.json"))):
        report = load(path)
        if not report:
            continue
        for r in report.get("results", []):
            c = r.get("check")
            if not c:
                continue
            refs = c.get("references") or [{}]
            table.setdefault(shape(r), {})[name_of(path)] = (
                refs[0].get("rel_error"), c["tolerance"], c["passed"])
    names = ["lp_e4m3_t_128x128", "lp_e4m3_t4_128x128", "lp_e4m3_tfast_128x128"]
    print("| shape | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for where, cells in table.items():
        row = []
        for name in names:
            if name in cells and cells[name][0] is not None:
                err, tol, ok = cells[name]
                row.append(f"{err:.2e} (tol {tol:.1e}{'' if ok else ', FAIL'})")
            else:
                row.append("-")
        print(f"| {where} | " + " | ".join(row) + " |")
    print()


def bench(results):
    print("## Speed beside cuBLASLt (H200, interleaved in one process)\n")
    print("TFLOP/s (TOPS for int8) of our kernel and of cuBLASLt's baseline "
          "(the line under each table says which), median of 30 timed runs "
          "each; ratio = cuBLAS time / ours (above 1: ours is faster).\n")
    kinds = {}
    for path in sorted(glob.glob(os.path.join(results, "bench", "*.json"))):
        kind, name = name_of(path).split("-", 1)
        report = load(path)
        if not report:
            continue
        if kind == "library":  # the dispatcher's pick: name the problem and kernel
            picked = report.get("dispatch", {}).get("config", "?")
            name = f"{name.rsplit('-', 1)[0]}: {picked}"
        for r in report.get("results", []):
            b = r.get("bench")
            if not b or "cublas" not in b:
                continue
            kinds.setdefault(kind, {}).setdefault(shape(r), []).append(
                (name, b["ours"]["tflops"], b["cublas"]["tflops"],
                 b["speedup_vs_cublas"], b.get("cublas_baseline", ""),
                 b.get("clocks", {}).get("sm_clock_mhz")))
    best_tensor = {}
    titles = {"tensor": "fp8 per-tensor", "rowwise": "fp8 row-wise",
              "block": "fp8 block-wise", "int8": "int8", "tf32": "tf32",
              "library": "the dispatcher's picks from the kernel library (--library)"}
    for kind in ["tensor", "rowwise", "block", "int8", "tf32", "library"]:
        if kind not in kinds:
            continue
        print(f"### {titles[kind]}\n")
        print("| shape | kernel | ours | cuBLASLt | ratio | SM MHz |")
        print("|---|---|---|---|---|---|")
        ratios = []
        baselines = set()
        for where, rows in kinds[kind].items():
            rows.sort(key=lambda row: -row[1])
            for i, (name, ours, cublas, ratio, baseline, mhz) in enumerate(rows):
                mark = " **best**" if i == 0 and kind != "library" else ""
                print(f"| {where} | {name}{mark} | {ours:.1f} | {cublas:.1f} | "
                      f"{ratio:.3f} | {mhz} |")
                baselines.add(baseline)
            if kind == "library":  # different problems: each row counts
                ratios.extend(row[3] for row in rows)
            else:
                ratios.append(rows[0][3])
            if kind == "tensor":
                best_tensor[where] = rows[0][1]
        geo = geomean(ratios)
        what = "every row" if kind == "library" else "the best ratio per shape"
        print(f"\nGeometric mean of {what}: {geo:.3f}. "
              f"Baseline: {'; '.join(sorted(baselines))}.\n")
        if kind == "block" and best_tensor:
            print("Block-wise against our own best per-tensor kernel of the "
                  "same shape (issue 18: at least 0.9):\n")
            print("| shape | block-wise | per-tensor | ratio |")
            print("|---|---|---|---|")
            for where, rows in kinds[kind].items():
                if where in best_tensor:
                    print(f"| {where} | {rows[0][1]:.1f} | "
                          f"{best_tensor[where]:.1f} | "
                          f"{rows[0][1] / best_tensor[where]:.3f} |")
            print()


SWEEP_TITLES = {"e4m3-bf16-tt": "fp8 per-tensor", "e4m3-bf16-rc": "fp8 row-wise",
                "e4m3-bf16-bb": "fp8 block-wise", "s8-s32--": "int8 to s32",
                "s8-bf16-rc": "int8 to bf16, row and column scales", "f32-f32--": "tf32"}


def sweep(results):
    """PART=sweep: the dispatcher's pick per problem and shape beside
    cuBLASLt; block-wise also against our per-tensor pick of the shape."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(results, "sweep", "*.json"))):
        problem = name_of(path).rsplit("-", 1)[0]
        report = load(path)
        if not report:
            continue
        picked = report.get("dispatch", {}).get("config", "?")
        for r in report.get("results", []):
            b = r.get("bench")
            if b and "cublas" in b:
                runs.setdefault(problem, {})[(r["m"], r["n"], r["k"])] = (
                    picked, b["ours"]["tflops"], b["cublas"]["tflops"],
                    b["speedup_vs_cublas"], b.get("cublas_baseline", ""),
                    b.get("clocks", {}).get("sm_clock_mhz"))
        if report.get("error"):
            print(f"- {name_of(path)}: {report['error'].get('message', '')}")
    if not runs:
        return
    squares = {(n, n, n) for n in (1024, 2048, 4096, 6144, 8192, 16384)}
    print("## The dispatcher's picks over the squares and the LLM sweep\n")
    print("gemm-runner --library for each problem and shape of bench/shapes/"
          "squares.txt and llm.txt, interleaved with cuBLASLt in one process "
          "(median of the timed runs; ratio = cuBLASLt's time over ours).\n")
    print("| problem | shapes | geomean | squares | LLM | min | below 1.0x | 8192 cubed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    order = list(SWEEP_TITLES)
    runs = dict(sorted(runs.items(), key=lambda item: order.index(item[0])
                       if item[0] in order else len(order)))
    def shown(value):
        return "-" if math.isnan(value) else f"{value:.3f}x"

    for problem, rows in runs.items():
        ratios = {s: row[3] for s, row in rows.items()}
        worst = min(ratios, key=ratios.get)
        print(f"| {SWEEP_TITLES.get(problem, problem)} | {len(ratios)} | "
              f"{shown(geomean(ratios.values()))} | "
              f"{shown(geomean(v for s, v in ratios.items() if s in squares))} | "
              f"{shown(geomean(v for s, v in ratios.items() if s not in squares))} | "
              f"{shown(ratios[worst])} ({'x'.join(map(str, worst))}) | "
              f"{sum(v < 1.0 for v in ratios.values())} | "
              f"{shown(ratios.get((8192, 8192, 8192), math.nan))} |")
    print()
    tensor = runs.get("e4m3-bf16-tt", {})
    block = runs.get("e4m3-bf16-bb", {})
    both = [s for s in block if s in tensor]
    if both:
        print("Block-wise against our per-tensor pick of the same shape "
              f"(issue 18: at least 0.9): geomean "
              f"{geomean(block[s][1] / tensor[s][1] for s in both):.3f}, min "
              f"{min(block[s][1] / tensor[s][1] for s in both):.3f}.\n")
    for problem, rows in runs.items():
        print(f"### {SWEEP_TITLES.get(problem, problem)}\n")
        print("| shape | pick | ours | cuBLASLt | ratio | SM MHz |")
        print("|---|---|---:|---:|---:|---:|")
        baselines = set()
        for s, (picked, ours, cublas, ratio, baseline, mhz) in sorted(
                rows.items(), key=lambda item: (item[0] not in squares, item[0][1:], item[0][0])):
            print(f"| {'x'.join(map(str, s))} | {picked} | {ours:.1f} | {cublas:.1f} | "
                  f"{ratio:.3f} | {mhz} |")
            baselines.add(baseline)
        print(f"\nBaseline: {'; '.join(sorted(baselines))}.\n")


def main():
    results = sys.argv[1]
    print("# Low-precision SM90 kernels on the H200 (bench/lowp-h200.sh)\n")
    gpu = os.path.join(results, "gpu.txt")
    if os.path.exists(gpu):
        print("```\n" + open(gpu).read().strip() + "\n```\n")
    checks(results)
    library_checks(results)
    longk(results)
    bench(results)
    sweep(results)
    sanitizers = sorted(glob.glob(os.path.join(results, "sanitize", "*.log")))
    if sanitizers:
        print("## compute-sanitizer\n")
        for path in sanitizers:
            lines = [l.strip() for l in open(path, errors="replace")
                     if "SUMMARY" in l]
            print(f"- {name_of(path)}: {lines[0] if lines else 'no summary'}")
        print()


if __name__ == "__main__":
    main()
