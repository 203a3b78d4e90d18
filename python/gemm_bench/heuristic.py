"""The dispatcher's hardware model, seen from the tuning tooling: its picks
for any (M, N, K) without measuring, and how close those come to the
searched best of a tuning cache.

    python -m gemm_bench.heuristic MxNxK [...]            # the picks, with the model's figures
    python -m gemm_bench.heuristic --evaluate CACHE.json [--within 5]

The model is the product's, in lib/Dispatch/Dispatcher.cpp (estimate,
modelPick), reached through the gemm package: per tile (cluster 1x1,
along_m, swizzle 8, derived ring depth) the larger of the compute time
(waves of tiles over the SMs at the tile's MMA efficiency) and the memory
time (the unique bytes at the HBM bandwidth the active CTAs' rings can
sustain), plus the launch cost; among tiles within 2% of the fastest, the
least MMA work wins. gemm.matmul uses it for shapes no tuned class holds.
"""
import argparse
import statistics
import sys

import gemm

from gemm_bench.configs import parse_name

SM_COUNT = 132


def pick(m, n, k, dtype="bf16"):
    """The configuration the model expects to be fastest on (m, n, k)."""
    return parse_name(gemm._core.model_pick(m, n, k, dtype, SM_COUNT).name)


def estimate(config, m, n, k):
    """The model's figures (seconds, compute_s, memory_s, tiles, waves,
    memory_bound) for `config` on (m, n, k)."""
    return gemm._core.estimate(gemm.KernelConfig(config.name), m, n, k, SM_COUNT)


def evaluate(cache, within_percent=5.0):
    """Per class of `cache`: the heuristic's picks on the class's shapes, their
    measured median ratio to cuBLAS, and the gap to the searched best.

    Returns (rows, summary); a row's gap is None when a pick was not measured
    on every shape of the class (the search runs the picks, so this only
    happens with a cache from an older heuristic).
    """
    rows = []
    for key, entry in cache["classes"].items():
        best = entry.get("best")
        if not best:
            continue
        measured = {c["config"]: c for c in entry["candidates"]}
        ratios, picks = [], []
        for shape in entry["shapes"]:
            config = pick(*shape)
            picks.append(config.key)
            result = measured.get(config.key, {}).get("results", {}).get(
                "x".join(map(str, shape)))
            ratios.append(result["ratio"] if result and result.get("ok") else None)
        row = {"class": key, "best": best["config"], "best_ratio": best["median_ratio"],
               "picks": sorted(set(picks)), "pick_ratio": None, "gap_percent": None}
        if all(r is not None for r in ratios):
            row["pick_ratio"] = statistics.median(ratios)
            # + 0.0 turns the -0.0 of a pick that is the best into 0.0.
            row["gap_percent"] = 100.0 * (1.0 - row["pick_ratio"] / best["median_ratio"]) + 0.0
        rows.append(row)
    judged = [r for r in rows if r["gap_percent"] is not None]
    close = [r for r in judged if r["gap_percent"] <= within_percent]
    summary = (f"heuristic within {within_percent:g}% of searched best on "
               f"{len(close)} of {len(rows)} classes")
    if len(judged) < len(rows):
        summary += f" ({len(rows) - len(judged)} not measured)"
    if judged:
        summary += (f"; median gap {statistics.median(r['gap_percent'] for r in judged):.1f}%, "
                    f"worst {max(r['gap_percent'] for r in judged):.1f}%")
    return rows, summary


def evaluation_markdown(rows, summary):
    lines = ["| class | searched best | ratio | heuristic pick | ratio | gap |",
             "|---|---|---:|---|---:|---:|"]
    for r in rows:
        pick_ratio = f"{r['pick_ratio']:.3f}x" if r["pick_ratio"] is not None else "not measured"
        gap = f"{r['gap_percent']:.1f}%" if r["gap_percent"] is not None else "-"
        lines.append(f"| {r['class']} | {r['best']} | {r['best_ratio']:.3f}x "
                     f"| {', '.join(r['picks'])} | {pick_ratio} | {gap} |")
    return "\n".join(lines) + "\n\n" + summary + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", nargs="*", help="MxNxK")
    parser.add_argument("--dtype", default="bf16", choices=("bf16", "f16"))
    parser.add_argument("--evaluate", metavar="CACHE", help="compare with a tuning cache")
    parser.add_argument("--within", type=float, default=5.0,
                        help="gap in %% that counts as close (default 5)")
    args = parser.parse_args(argv)
    if args.evaluate:
        import json
        with open(args.evaluate) as f:
            cache = json.load(f)
        if cache.get("format") != "gemm-tuning-cache":
            raise SystemExit(f"{args.evaluate}: not a gemm-tuning-cache file")
        rows, summary = evaluate(cache, args.within)
        sys.stdout.write(evaluation_markdown(rows, summary))
        return
    if not args.shape:
        parser.error("give shapes MxNxK or --evaluate CACHE")
    for text in args.shape:
        m, n, k = (int(v) for v in text.lower().split("x"))
        config = pick(m, n, k, args.dtype)
        e = estimate(config, m, n, k)
        print(f"{m}x{n}x{k}: {config.name} (model {e['seconds'] * 1e3:.3f} ms, "
              f"{e['tiles']} tiles, {e['waves']:.2f} waves, "
              f"{'memory' if e['memory_bound'] else 'compute'}-bound)")


if __name__ == "__main__":
    main()
