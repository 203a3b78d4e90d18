# Call 3's A/B (call3/ab.md) per list: the squares and LLM sweep's changed
# low-precision picks (lowp-changed-sweep.txt) and the test set's
# (lowp-changed-test.txt), new / shipped geomean per class. Run from this
# directory.
import collections, math

rows = {}
for line in open("call3/ab.md"):
    if line.startswith("| ") and not line.startswith("| problem"):
        cells = [x.strip() for x in line.strip("|\n").split("|")]
        rows[cells[0]] = (float(cells[2]), float(cells[4]))
for name in ("sweep", "test"):
    per = collections.defaultdict(list)
    for line in open(f"scripts/lowp-changed-{name}.txt"):
        dtype, out, quant, m, n, k = line.split()
        tag = f"{dtype}-{out}-{quant}-{m}x{n}x{k}"
        if tag in rows:
            per[f"{dtype}-{out}-{quant}"].append(rows[tag][1] / rows[tag][0])
    print(name)
    for key, values in sorted(per.items()):
        g = math.exp(sum(map(math.log, values)) / len(values))
        print(f"  {key}: {len(values)} problems, new / shipped {g:.3f} "
              f"(min {min(values):.3f}, max {max(values):.3f})")
