"""Test helper: a copy of a model file that mistakes the fastest measured
candidate at 4096 cubed, for `fit regret`'s tests.

    edit-fastest.py MEASUREMENTS MODEL OUT penalize|drop

penalize: that candidate gets a residual point of +5 (e^5 times slower) at
4096 cubed; drop: it is no candidate of the copy at all."""
import json
import sys

import gemm
from gemm_bench import fit

measurements, model_path, out, how = sys.argv[1:]
rows = [r for r in json.load(open(measurements))["rows"]
        if (r["m"], r["n"], r["k"]) == (4096, 4096, 4096)]
key = fit.model_key(gemm.KernelConfig(min(rows, key=lambda r: r["call_ms"])["config"]))
model = json.load(open(model_path))
if how == "penalize":
    model["candidates"][key].append([4096, 4096, 4096, 5.0])
elif how == "drop":
    model["candidates"].pop(key)
else:
    sys.exit(f"edit-fastest.py: {how!r}: expected penalize or drop")
json.dump(model, open(out, "w"))
