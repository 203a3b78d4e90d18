"""Prints how many shapes of the first shapes file are in the others."""
import sys

from gemm_bench.shapes import read_shapes

others = {shape for path in sys.argv[2:] for shape in read_shapes(path)}
print(f"{sum(shape in others for shape in read_shapes(sys.argv[1]))} shared")
