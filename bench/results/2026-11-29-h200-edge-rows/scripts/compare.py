# The test-set report of call 4 against the realign study's (call 2), per
# type and for the picks whose last row of tiles now skips a 64-row box.
# Run from the repository root.
import json, lzma, math, re, statistics
a=json.load(open("bench/results/2026-11-29-h200-realign/call2/test-new/results.json"))
b=json.load(lzma.open("bench/results/2026-11-29-h200-edge-rows/call4/test-edge/results.json.xz"))
def key(r): return (r["dtype"], tuple(r["shape"]))
A={key(r): r for r in a["rows"]}; B={key(r): r for r in b["rows"]}
def affected(r):
    """Whether the pick's last row of tiles loads A differently: before, a
    64-row tile reaching past M took four 16-row boxes and taller tiles one
    box; now a tile takes its small boxes (16 or 64 rows) only where its
    last box lies past M."""
    m = re.search(r"_(\d+)x(\d+)x\d+_(coop|pingpong)", r["bundle"])
    if not m or re.search(r"_c\dx[2-9]|_am|ambn|ambk|_ce4m3|_ce5m2", r["bundle"]):
        return False
    tm = int(m.group(1)); M, N, K = r["shape"]
    rows = N if "akbkcc" in r["bundle"] else M
    rem = rows % tm
    if rem == 0:
        return False
    old = tm == 64
    new = rem <= tm - (16 if tm == 64 else 64)
    return old != new
for dt in ("bf16", "f16"):
    ks=[k for k in A if k[0]==dt and k in B]
    ra=[A[k]["ratio"] for k in ks]; rb=[B[k]["ratio"] for k in ks]
    g=lambda v: math.exp(sum(map(math.log, v))/len(v))
    p5=lambda v: sorted(v)[int(0.05*len(v))]
    print(dt, "all: realign %.3f new %.3f | p5 %.3f %.3f | below0.9 %d %d | min %.3f %.3f" % (g(ra), g(rb), p5(ra), p5(rb), sum(x<0.9 for x in ra), sum(x<0.9 for x in rb), min(ra), min(rb)))
    aff=[k for k in ks if affected(B[k])]
    if aff:
        print("  affected", len(aff), "geomean new/old %.3f" % g([B[k]["ratio"]/A[k]["ratio"] for k in aff]))
        for k in sorted(aff, key=lambda k: B[k]["ratio"]/A[k]["ratio"]):
            print("   ", k[1], B[k]["bundle"].split("_",2)[2], "%.3f -> %.3f" % (A[k]["ratio"], B[k]["ratio"]))
    un=[k for k in ks if not affected(B[k])]
    print("  unaffected geomean new/old %.4f" % g([B[k]["ratio"]/A[k]["ratio"] for k in un]))
