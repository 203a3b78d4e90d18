"""Call 1's table: per test-set loser, the dispatcher's pick and the best of
its next candidates, each as its median time over cuBLASLt's in the same
process (gemm-runner --bench --vs cublas, GPU timing).

    summarize.py CANDIDATES.txt LOG_DIR > summary.md
"""
import collections, glob, json, os, sys


def main():
    cands, logs = sys.argv[1], sys.argv[2]
    ratio = {}
    for path in glob.glob(os.path.join(logs, "*.json")):
        config = os.path.basename(path)[:-5]
        for r in json.load(open(path))["results"]:
            b = r["bench"]
            if "cublas" in b:
                ratio[(config, r["m"], r["n"], r["k"])] = (
                    b["cublas"]["median_ms"] / b["ours"]["median_ms"], b["ours"]["median_ms"] * 1e3)
    rows = collections.defaultdict(list)
    for line in open(cands):
        dtype, m, n, k, rank, config, t = line.split()
        m, n, k = int(m), int(n), int(k)
        ran = (n, m, k) if t == "T" else (m, n, k)
        rows[(dtype, m, n, k)].append((int(rank), config, t, ratio.get((config, *ran))))
    print("| problem | type | pick | pick / cuBLASLt | best candidate (rank) | best / cuBLASLt |")
    print("|---|---|---|---:|---|---:|")
    short = lambda c, t: c.split("_", 2)[2].replace("_c1x1_rm_s8_st0", "").replace("x64_", " ") + (" (T)" if t == "T" else "")
    for key in sorted(rows, key=lambda s: (s[1], s[2], s[3], s[0])):
        cs = sorted(rows[key])
        pick = cs[0]
        measured = [c for c in cs if c[3]]
        if not measured:
            continue
        best = max(measured, key=lambda c: c[3][0])
        p = f"{pick[3][0]:.3f} ({pick[3][1]:.1f} us)" if pick[3] else "-"
        print(f"| {key[1]}x{key[2]}x{key[3]} | {key[0]} | {short(pick[1], pick[2])} | {p} | "
              f"{short(best[1], best[2])} ({best[0]}) | {best[3][0]:.3f} ({best[3][1]:.1f} us) |")


main()
