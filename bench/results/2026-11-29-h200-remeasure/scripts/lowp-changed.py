"""The low-precision problems whose pick differs between two models: each
of the kernel library's low-precision problem classes (and fp8 to e4m3)
at each shape of the shape groups, the dispatcher choosing among
build/kernels' kernels (or LIBRARY's). Prints `TYPE OUT QUANT M N K OLD
NEW` lines (the first six are sweep-ab.sh's CHANGED format), and on stderr
how many changed, how many of them to the transposed problem. Run from the
repository root:

    PYTHONPATH=python python3 lowp-changed.py OLD.json NEW.json squares,llm [LIBRARY]
"""
import sys

import gemm
from gemm_bench import shapes

CLASSES = [("e4m3", "bf16", "tt"), ("e4m3", "bf16", "rc"), ("e4m3", "bf16", "bb"),
           ("s8", "s32", "-"), ("s8", "bf16", "rc"), ("f32", "f32", "-"),
           ("e4m3", "e4m3", "tt")]

old = gemm._core.DispatchModel.load(sys.argv[1])
new = gemm._core.DispatchModel.load(sys.argv[2])
library = sys.argv[4] if len(sys.argv) > 4 else "build/kernels"
available = list(gemm._core.KernelLibrary.load(library).configs)
problems = changed = transposed = 0
# A shape in two groups (8192 cubed is a square and an LLM shape) counts once.
unique = dict.fromkeys(tuple(shape) for group in sys.argv[3].split(",")
                       for shape in shapes.read_shapes(shapes.group_path(group)))
for shape in unique:
    for dtype, out, quant in CLASSES:
        options = dict(dtype=dtype, out_dtype=out, available=available)
        if quant != "-":
            options["quant"] = quant
        try:
            a = gemm._core.select(*shape, model=old, **options)
            b = gemm._core.select(*shape, model=new, **options)
        except gemm.DispatchError:
            continue  # no kernel of the class for this shape
        problems += 1
        if a.config.name != b.config.name:
            changed += 1
            transposed += b.transposed
            print(dtype, out, quant, *shape, a.config.name, b.config.name)
print(f"{problems} problems, {changed} changed, {transposed} of them to the transposed "
      "problem", file=sys.stderr)
