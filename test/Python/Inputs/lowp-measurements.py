"""Writes a gemm_bench.fit measurements file of low-precision kernels whose
times are a model's physics times a fixed factor per kernel, for the tests
of `fit lowp`:

    lowp-measurements.py MODEL.json OUT.json NAME=LOG_RATIO... --shapes MxNxK...
"""
import argparse
import json
import math

from gemm import _core

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("out")
parser.add_argument("ratios", nargs="+", help="KERNEL=LOG_RATIO")
parser.add_argument("--shapes", nargs="+", required=True)
args = parser.parse_args()
model = _core.DispatchModel.load(args.model)
rows = []
for spec in args.ratios:
    name, ratio = spec.split("=")
    for shape in args.shapes:
        m, n, k = (int(x) for x in shape.split("x"))
        ms = model.estimate(_core.KernelConfig(name), m, n, k)["physics_s"] * 1e3
        ms *= math.exp(float(ratio))
        rows.append({"config": name, "m": m, "n": n, "k": k, "kernel_ms": ms,
                     "call_ms": ms, "staged": []})
with open(args.out, "w") as f:
    json.dump({"format": "gemm-fit-measurements", "version": 1, "timing": "gpu",
               "rows": rows}, f)
