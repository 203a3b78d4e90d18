"""Prints the f32 bits (0x%08x) of the first "amax" in a gemm-runner --json
file (check.amax: the amax an fp8-output kernel wrote), or "none".

    python3 bench/lib/json-amax-bits.py runner.json
"""
import json
import struct
import sys


def find(node):
    if isinstance(node, dict):
        if "amax" in node:
            return node["amax"]
        node = list(node.values())
    if isinstance(node, list):
        for item in node:
            found = find(item)
            if found is not None:
                return found
    return None


value = find(json.load(open(sys.argv[1])))
print("none" if value is None else
      "0x%08x" % struct.unpack("<I", struct.pack("<f", value))[0])
