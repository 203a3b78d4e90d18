"""Call 6's table: per kernel and problem, the median over the rounds of
gemm-runner's GPU-timed medians for every grid, and its ratio to 132 CTAs.

    grid-sweep.py RUNS.txt DIR > sweep.md
"""
import glob, json, os, statistics, sys


def main():
    runs = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    for config, m, n, k, grids in runs:
        short = config.replace("sm90_bf16_", "").replace("_c1x1_rm_s8_st0", "")
        print(f"\n{short} {m}x{n}x{k}\n\n| grid | us (rounds) | / 132 CTAs |\n|---:|---:|---:|")
        base = None
        for g in grids.split(","):
            medians = []
            for path in glob.glob(os.path.join(sys.argv[2], f"time-{config}-{m}x{n}x{k}-g{g}-r*.json")):
                for r in json.load(open(path)).get("results", []):
                    if r.get("bench"):
                        medians.append(r["bench"]["ours"]["median_ms"] * 1e3)
            if not medians:
                print(f"| {g} | - | |")
                continue
            t = statistics.median(medians)
            base = base or t
            print(f"| {g} | {t:.1f} ({len(medians)}) | {t / base:.3f} |")


main()
