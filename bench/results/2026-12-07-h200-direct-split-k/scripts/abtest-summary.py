"""ab-test.sh's runs as a table: per changed test problem and type, the
shipped pick's and the new pick's ratios to cuBLASLt (cuBLASLt's median
over ours, interleaved in each process), the median over the rounds and
the directories given, and the geomean of new over shipped. Usage:
  python abtest-summary.py ABTEST_DIR..."""
import glob
import json
import math
import os
import re
import statistics
import sys


def main(dirs):
    ratios = {}
    for d in dirs:
        for path in glob.glob(os.path.join(d, "*-r*.json")):
            who, shape, dtype = re.match(r"(library|new)-(\d+x\d+x\d+)-(\w+)-r\d+\.json",
                                         os.path.basename(path)).groups()
            data = json.load(open(path))
            for r in data.get("results", []):
                if "bench" in r:
                    assert r.get("check", {"passed": True})["passed"] is not False, path
                    ratios.setdefault((shape, dtype), {}).setdefault(who, []).append(
                        r["bench"]["speedup_vs_cublas"])
    print("| problem | type | shipped pick | new pick | new over shipped |")
    print("|---|---|---:|---:|---:|")
    logs = []
    for (shape, dtype), by in sorted(ratios.items(),
                                     key=lambda kv: [int(x) for x in kv[0][0].split("x")]):
        old, new = statistics.median(by["library"]), statistics.median(by["new"])
        logs.append(math.log(new / old))
        print(f"| {shape} | {dtype} | {old:.3f} | {new:.3f} | {new / old:.3f} |")
    print(f"\n{len(logs)} problems: new over shipped geomean "
          f"{math.exp(sum(logs) / len(logs)):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
