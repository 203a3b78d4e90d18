"""Call 2's table: per profiled problem, our kernels (the GEMM and the
runtime's staging copies) and cuBLASLt's, one launch each under Nsight
Compute (--csv --page raw), with the SMs' and memories' throughput.

    profile-table.py PROFILE_SHAPES.txt NCU_DIR > profile.md
"""
import csv, os, sys

COLUMNS = [("us", "gpu__time_duration.sum", 1e-3),  # ncu reports ns in raw mode
           ("SM %", "sm__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("tensor %", "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
           ("L2 %", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("DRAM %", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("DRAM rd MB", "dram__bytes_read.sum", 1e-6),
           ("L2 hit %", "lts__t_sector_hit_rate.pct", 1),
           ("SM busy avg/max", None, None)]
TENSOR_FALLBACKS = ["sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"]


def kernels(path):
    lines = [l for l in open(path, errors="replace") if l.startswith('"')]
    if not lines:
        return []
    rows = list(csv.reader(lines))
    header, units, body = rows[0], rows[1], rows[2:]
    out = []
    for r in body:
        d = dict(zip(header, r))
        d["_units"] = dict(zip(header, units))
        out.append(d)
    return out


def value(d, metric, scale):
    raw = d.get(metric, "").replace(",", "")
    try:
        v = float(raw)
    except ValueError:
        return None
    unit = d["_units"].get(metric, "")
    if metric == "gpu__time_duration.sum":  # to microseconds whatever the unit
        return v * {"ns": 1e-3, "usecond": 1, "us": 1, "msecond": 1e3, "ms": 1e3,
                    "nsecond": 1e-3}.get(unit, 1e-3)
    if metric.endswith("bytes_read.sum"):
        return v * {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1, "Gbyte": 1e3}.get(unit, 1e-6)
    return v * scale


def main():
    shapes = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    print("| problem | who | kernel | grid x block | " + " | ".join(c[0] for c in COLUMNS) + " |")
    print("|---|---|---|---|" + "---:|" * len(COLUMNS))
    for dtype, m, n, k in shapes:
        path = os.path.join(sys.argv[2], f"{dtype}-{m}x{n}x{k}.csv")
        if not os.path.exists(path):
            print(f"{path}: missing", file=sys.stderr)
            continue
        for d in kernels(path):
            name = d.get("Kernel Name", "?")
            if "fillNormalKernel" in name:
                continue
            ours = name.startswith("sm90_") or "copyRowsKernel" in name
            who = "ours" if ours else "cuBLASLt"
            if "copyRowsKernel" in name:
                name = "staging copy (copyRowsKernel)"
            cells = []
            for label, metric, scale in COLUMNS:
                if metric is None:
                    a = value(d, "sm__cycles_active.avg", 1)
                    b = value(d, "sm__cycles_active.max", 1)
                    cells.append(f"{a / b:.2f}" if a and b else "-")
                    continue
                v = value(d, metric, scale)
                if v is None and label == "tensor %":
                    v = next((value(d, alt, 1) for alt in TENSOR_FALLBACKS if value(d, alt, 1) is not None), None)
                cells.append("-" if v is None else f"{v:.1f}")
            short = name if len(name) < 60 else name[:57] + "..."
            print(f"| {dtype} {m}x{n}x{k} | {who} | `{short}` | {d.get('Grid Size', '?')} x "
                  f"{d.get('Block Size', '?')} | " + " | ".join(cells) + " |")


main()
