"""Call 2's table: per profiled problem, our kernels (the GEMM and the
runtime's staging copies) and cuBLASLt's, one launch each under Nsight
Compute (--csv --page raw), with the SMs' and memories' throughput.

    profile-table.py PROFILE_SHAPES.txt NCU_DIR > profile.md
"""
import os, sys

from ncu_csv import kernels, value

# (label, metric, scale of ncu_csv.value's unit)
COLUMNS = [("us", "gpu__time_duration.sum", 1),
           ("SM %", "sm__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("tensor %", "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
           ("L2 %", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("DRAM %", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("DRAM rd MB", "dram__bytes_read.sum", 1e3),
           ("L2 hit %", "lts__t_sector_hit_rate.pct", 1),
           ("SM busy avg/max", None, None)]
TENSOR_FALLBACKS = ["sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"]


def main():
    shapes = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    print("| problem | who | kernel | grid x block | " + " | ".join(c[0] for c in COLUMNS) + " |")
    print("|---|---|---|---|" + "---:|" * len(COLUMNS))
    for dtype, m, n, k in shapes:
        path = os.path.join(sys.argv[2], f"{dtype}-{m}x{n}x{k}.csv")
        if not os.path.exists(path):
            print(f"{path}: missing", file=sys.stderr)
            continue
        for kernel in kernels(path):
            name = kernel[0].get("Kernel Name", "?")
            if "fillNormalKernel" in name:
                continue
            ours = name.startswith("sm90_") or "copyRowsKernel" in name
            who = "ours" if ours else "cuBLASLt"
            if "copyRowsKernel" in name:
                name = "staging copy (copyRowsKernel)"
            cells = []
            for label, metric, scale in COLUMNS:
                if metric is None:
                    a = value(kernel, "sm__cycles_active.avg")
                    b = value(kernel, "sm__cycles_active.max")
                    cells.append(f"{a / b:.2f}" if a and b else "-")
                    continue
                v = value(kernel, metric)
                if v is None and label == "tensor %":
                    v = next((value(kernel, alt) for alt in TENSOR_FALLBACKS
                              if value(kernel, alt) is not None), None)
                if v is not None:
                    v *= scale
                cells.append("-" if v is None else f"{v:.1f}")
            short = name if len(name) < 60 else name[:57] + "..."
            print(f"| {dtype} {m}x{n}x{k} | {who} | `{short}` | {kernel[0].get('Grid Size', '?')} x "
                  f"{kernel[0].get('Block Size', '?')} | " + " | ".join(cells) + " |")


main()
