"""Groups ncu's per-SASS warp-stall samples (ncu -i R --page source --csv
--print-source sass) of a gemm kernel by what the warps were doing.

    python3 sass-samples.py FULL_BARRIER_OFFSET file.csv...

FULL_BARRIER_OFFSET is the shared-memory offset of the first full barrier
(0x38000 in the 128x256 cooperative kernels: the mbarriers follow the
229376-byte ring and staging); a try-wait loop whose barrier address is built
from it is a consumer waiting for a stage, any other is the producer waiting
for a free slot.
"""
import csv
import sys


def category(rows, k):
    ins = rows[k][1].strip()
    if "HGMMA" in ins or "WARPGROUP" in ins:
        return "WGMMA issue and wait"
    if "BRA" in ins and "TRYWAIT" in rows[k - 1][1]:
        window = " ".join(r[1] for r in rows[max(0, k - 12):k])
        return "consumer: stage wait" if FULL in window else "producer: slot wait"
    if "B2R" in ins or "BAR.RED" in ins:
        return "fixup: barrier (first thread fences, counts in)"
    if "STG" in ins:
        return "fixup: partial store"
    if "LDG" in ins or "FADD" in ins:
        return "fixup: partial load and add"
    if k + 1 < len(rows) and rows[k + 1][1].strip() == "EXIT":
        return "exit: the last TMA stores complete"
    if any(x in ins for x in ("MEMBAR", "ERRBAR", "CCTL", "ATOMG")):
        return "fixup: fences and counter"
    if any(x in ins for x in ("STSM", "F2FP", "UTMASTG", "UTMACMDFLUSH")):
        return "epilogue: convert, stage, store"
    return "other"


FULL = sys.argv[1]
for path in sys.argv[2:]:
    rows = list(csv.reader(open(path)))[2:]
    total = sum(int(r[2]) for r in rows)
    by = {}
    for k, r in enumerate(rows):
        if int(r[2]):
            c = category(rows, k)
            by[c] = by.get(c, 0) + int(r[2])
    print(f"{path}: {total} samples")
    for c, s in sorted(by.items(), key=lambda x: -x[1]):
        print(f"  {c:50s} {s:7d} {100 * s / total:5.1f}%")
