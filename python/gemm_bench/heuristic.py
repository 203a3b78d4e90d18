"""Picks an SM90 configuration for any (M, N, K) without measuring, and says
how close those picks come to the searched best of a tuning cache.

    python -m gemm_bench.heuristic MxNxK [...]            # the picks, with the model's figures
    python -m gemm_bench.heuristic --evaluate CACHE.json [--within 5]

The model estimates the time of each tile (c1x1, along_m, swizzle 8,
derived ring depth) on an H200 and picks the fastest:
- compute: the persistent grid runs min(tiles, SMs) CTAs; the busiest CTA
  works ceil(tiles / CTAs) tiles (wave quantization over 132 SMs), each of
  ceil(K / BK) k-blocks at the tile's MMA efficiency. Padding rows and
  columns of edge tiles cost like real ones.
- memory: the unique bytes (A + B + C) at the HBM bandwidth that the active
  CTAs can sustain: a CTA keeps at most its ring (stages x bytes actually
  fetched per stage) in flight, so by Little's law a few CTAs cannot reach
  HBM bandwidth -- which is why small M wants narrow tiles (more CTAs).
- the estimate is the larger of the two plus the launch cost.
Among tiles within 2% of the fastest estimate, the one with the least MMA
work (padding included) wins, then the one first in PREFERENCE.
"""
import argparse
import math
import statistics
import sys

from gemm_bench.configs import Config, DEFAULT_RASTER, DEFAULT_SWIZZLE

SM_COUNT = 132
# Dense bf16/f16 tensor-core peak of one SM of an H200 at 1980 MHz
# (989 TFLOP/s over 132 SMs).
SM_PEAK_FLOPS = 989e12 / SM_COUNT
HBM_BYTES_PER_S = 4.3e12        # measured device-to-device copy on the H200
LOADED_LATENCY_S = 2.0e-6       # HBM round trip under load, for Little's law
LAUNCH_S = 4e-6
NEAR_TIE = 0.02

# Fraction of the SM's MMA peak a tile sustains in a long k-loop. Measured on
# the H200 at 8192 cubed (bench/results/2026-11-21-h200-sm90, TFLOP/s over
# peak after wave quantization) where marked; the others are scaled by the
# tile's arithmetic intensity (2 * BM * BN / ((BM + BN) * 2 bytes)).
EFFICIENCY = {
    (128, 256, "cooperative"): 0.81,   # measured
    (256, 128, "cooperative"): 0.81,   # measured
    (128, 192, "cooperative"): 0.79,
    (128, 128, "cooperative"): 0.76,   # measured
    (128, 64, "cooperative"): 0.62,
    (256, 64, "cooperative"): 0.66,
    (128, 128, "pingpong"): 0.79,      # measured
    (128, 64, "pingpong"): 0.64,
    (64, 256, "pingpong"): 0.75,       # measured
    (64, 192, "pingpong"): 0.72,
    (64, 128, "pingpong"): 0.66,
    (64, 64, "pingpong"): 0.55,
}
PREFERENCE = list(EFFICIENCY)


def _candidates(dtype):
    return [Config(bm, bn, schedule, raster=DEFAULT_RASTER, swizzle=DEFAULT_SWIZZLE,
                   dtype=dtype) for bm, bn, schedule in PREFERENCE]


def estimate(config, m, n, k, element_bytes=2):
    """Model time in seconds and its parts, for `config` on (m, n, k)."""
    bm, bn, bk = config.tile_m, config.tile_n, config.tile_k
    tiles_m, tiles_n = math.ceil(m / bm), math.ceil(n / bn)
    tiles = tiles_m * tiles_n
    ctas = min(tiles, SM_COUNT)
    k_blocks = math.ceil(k / bk)
    efficiency = EFFICIENCY[(bm, bn, config.schedule)]
    tile_s = 2 * bm * bn * bk * k_blocks / (SM_PEAK_FLOPS * efficiency)
    compute_s = math.ceil(tiles / ctas) * tile_s
    # Rows of A beyond M are zero-filled by TMA, not fetched.
    fetched_per_stage = (min(m, bm) + bn) * bk * element_bytes
    per_cta_bytes_per_s = config.ring_stages() * fetched_per_stage / LOADED_LATENCY_S
    bandwidth = min(HBM_BYTES_PER_S, ctas * per_cta_bytes_per_s)
    unique_bytes = (m * k + n * k + m * n) * element_bytes
    memory_s = unique_bytes / bandwidth
    return {"seconds": max(compute_s, memory_s) + LAUNCH_S, "compute_s": compute_s,
            "memory_s": memory_s, "tiles": tiles, "waves": tiles / SM_COUNT,
            "bandwidth": bandwidth}


def pick(m, n, k, dtype="bf16"):
    """The configuration the model expects to be fastest on (m, n, k)."""
    estimates = [(config, estimate(config, m, n, k)) for config in _candidates(dtype)]
    fastest = min(e["seconds"] for _, e in estimates)
    # Among the tiles within NEAR_TIE of the fastest (memory-bound shapes make
    # many tie), the one that wastes the least MMA work on padding; min()
    # keeps the first of equals, so PREFERENCE breaks exact ties.
    near = [(config, e) for config, e in estimates if e["seconds"] <= fastest * (1 + NEAR_TIE)]
    return min(near, key=lambda item: item[1]["compute_s"])[0]


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
              f"{'memory' if e['memory_s'] > e['compute_s'] else 'compute'}-bound)")


if __name__ == "__main__":
    main()
