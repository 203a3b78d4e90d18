"""Call 3's table: per kernel and problem, one launch under Nsight Compute:
time, SM and L2 throughput, and the L2's sectors per source and lookup
result, in GB, beside the operand bytes the tiles feed the SMs (tiles x
k-blocks x (tile M + tile N) x 64 x 2 bytes).

    l2-table.py RUNS.txt NCU_DIR > l2.md
"""
import math, os, re, sys

from ncu_csv import kernels, value


def main():
    runs = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    cols = [("us", "gpu__time_duration.sum"), ("SM %", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
            ("L2 %", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
            ("DRAM rd GB", "dram__bytes_read.sum"), ("L2 GB", "lts__t_sectors.sum"),
            ("from SMs GB", "lts__t_sectors_srcunit_tex.sum"),
            ("SM misses GB", "lts__t_sectors_srcunit_tex_lookup_miss.sum"),
            ("fabric GB", "lts__t_sectors_srcunit_ltcfabric.sum"),
            ("fabric %", "lts__ltcfabric2lts_cycles_active.avg.pct_of_peak_sustained_elapsed")]
    print("| kernel | problem | fed GB | " + " | ".join(c[0] for c in cols) + " | fed TB/s |")
    print("|---|---|---:|" + "---:|" * len(cols) + "---:|")
    for config, m, n, k in runs:
        m, n, k = int(m), int(n), int(k)
        path = os.path.join(sys.argv[2], f"{config}-{m}x{n}x{k}.csv")
        got = kernels(path) if os.path.exists(path) else []
        if not got:
            print(f"{path}: no data", file=sys.stderr)
            continue
        kernel = got[0]
        bm, bn = map(int, re.search(r"_(\d+)x(\d+)x64_", config).groups())
        fed = math.ceil(m / bm) * math.ceil(n / bn) * math.ceil(k / 64) * (bm + bn) * 64 * 2 / 1e9
        cells = []
        for _, key in cols:
            v = value(kernel, key)
            cells.append("-" if v is None else (f"{v:.2f}" if "GB" in _ else f"{v:.1f}"))
        us = value(kernel, "gpu__time_duration.sum")
        short = config.replace("sm90_bf16_", "").replace("_c1x1_rm_s8_st0", "")
        rate = f"{fed / us * 1e3:.1f}" if us else "-"  # GB per us is 1000 TB/s
        print(f"| {short} | {m}x{n}x{k} | {fed:.2f} | " + " | ".join(cells) + f" | {rate} |")


main()
