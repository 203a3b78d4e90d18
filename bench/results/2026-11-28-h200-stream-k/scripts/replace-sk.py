"""A measurements file of `gemm_bench.fit collect` whose stream-K rows
(configs ending in _sk) are replaced by the median of other measurements
of the same candidates and shapes (the rounds of a later call).

    replace-sk.py BASE.json OUT.json NEW.json [NEW.json...]
"""
import os, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../python"))
from gemm_bench import fit  # noqa: E402

base, out, news = sys.argv[1], sys.argv[2], sys.argv[3:]
data = fit.read_measurements(base)
timed = {}
for path in news:
    new = fit.read_measurements(path)
    if new["timing"] != data["timing"]:
        raise SystemExit(f"{path}: timed {new['timing']}, {base} {data['timing']}")
    for r in new["rows"]:
        timed.setdefault((r["config"], r["m"], r["n"], r["k"]), []).append(r)
rows, replaced = [], 0
for r in data["rows"]:
    if not r["config"].endswith("_sk"):
        rows.append(r)
        continue
    runs = timed.get((r["config"], r["m"], r["n"], r["k"]))
    if not runs:
        raise SystemExit(f"{r['config']} {r['m']}x{r['n']}x{r['k']}: not measured again")
    row = dict(runs[0])
    for field in ("kernel_ms", "call_ms"):
        row[field] = statistics.median(x[field] for x in runs)
    rows.append(row)
    replaced += 1
data["rows"] = rows
fit.write_measurements(data, out)
print(f"{out}: {replaced} of {len(rows)} rows replaced")
