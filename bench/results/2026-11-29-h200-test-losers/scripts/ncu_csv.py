"""Reading `ncu --csv --page raw` output (mixed with the profiled program's
own lines): one (values, units) pair of dicts per profiled kernel, and a
metric's value in the tables' units (times in us, DRAM bytes in GB, L2
sectors in GB, the rest as printed). Used by the calls' table scripts."""
import csv


def kernels(path):
    lines = [l for l in open(path, errors="replace") if l.startswith('"')]
    if len(lines) < 3:
        return []
    rows = list(csv.reader(lines))
    return [(dict(zip(rows[0], r)), dict(zip(rows[0], rows[1]))) for r in rows[2:]]


def value(kernel, metric):
    values, units = kernel
    try:
        v = float(values.get(metric, "").replace(",", ""))
    except ValueError:
        return None
    unit = units.get(metric, "")
    if metric == "gpu__time_duration.sum":
        return v * {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1,
                    "msecond": 1e3, "ms": 1e3}.get(unit, 1e-3)
    if metric.endswith("bytes_read.sum"):
        return v * {"byte": 1e-9, "Kbyte": 1e-6, "Mbyte": 1e-3, "Gbyte": 1}.get(unit, 1e-9)
    if metric.startswith("lts__t_sectors") and metric.endswith(".sum"):
        return v * 32e-9  # sectors of 32 bytes
    return v
