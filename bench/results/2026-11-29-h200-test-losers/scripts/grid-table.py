"""Call 5's table: per kernel, problem and grid, one launch under Nsight
Compute (time, SM and L2 throughput, DRAM read over the minimum) and the
median of gemm-runner's GPU-timed medians over the rounds.

    grid-table.py RUNS.txt DIR > grid.md
"""
import glob, json, os, statistics, sys

from ncu_csv import kernels, value


def ncu(path):
    got = kernels(path)
    if not got:
        return None
    return tuple(value(got[0], m) for m in (
        "gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum"))


def timed(pattern):
    medians = []
    for path in glob.glob(pattern):
        for r in json.load(open(path)).get("results", []):
            if r.get("bench"):
                medians.append(r["bench"]["ours"]["median_ms"] * 1e3)
    return statistics.median(medians) if medians else None, len(medians)


def main():
    runs = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    print("| kernel | problem | grid | ncu us | SM % | L2 % | DRAM read / minimum | GPU time us (rounds) | trial / 132 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for config, m, n, k, grid in runs:
        base = None
        for g in ("132", grid):
            stem = f"{config}-{m}x{n}x{k}-g{g}"
            got = ncu(os.path.join(sys.argv[2], f"ncu-{stem}.csv"))
            t, count = timed(os.path.join(sys.argv[2], f"time-{stem}-r*.json"))
            minimum = (int(m) + int(n)) * int(k) * 2 / 1e9
            cells = (f"{got[0]:.0f} | {got[1]:.1f} | {got[2]:.1f} | {got[3] / minimum:.2f}"
                     if got else "- | - | - | -")
            if g == "132":
                base = t
            ratio = f"{t / base:.3f}" if t and base and g != "132" else ""
            short = config.replace("sm90_bf16_", "").replace("_c1x1_rm_s8_st0", "")
            print(f"| {short} | {m}x{n}x{k} | {g} | {cells} | "
                  f"{f'{t:.1f} ({count})' if t else '-'} | {ratio} |")


main()
