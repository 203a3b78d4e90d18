#!/usr/bin/env python3
"""Print the PTX of the first gpu.binary object in MLIR text.

`gpu-module-to-binary="format=isa"` leaves the PTX in the gpu.binary's object
attribute as an MLIR string literal, with non-printable bytes, `\\` and `"`
written as two-digit hex escapes (`\\0A`, `\\09`, `\\22`, `\\5C`). This reads
the gemm-opt output (a file argument or stdin), decodes the first such string
that holds a PTX module and prints it, so ptxas can assemble it.

Usage: gemm-opt ... --gpu-module-to-binary="format=isa" | extract-ptx.py > k.ptx
"""

import re
import sys

# An MLIR string literal: no raw quote inside, escapes are a backslash and
# two hex digits (or, defensively, an escaped character).
STRING = re.compile(r'"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\.)*)"')
ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)")
SIMPLE = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def decode(literal: str) -> str:
    def replace(match: re.Match) -> str:
        code = match.group(1)
        if len(code) == 2:
            return chr(int(code, 16))
        return SIMPLE.get(code, code)

    return ESCAPE.sub(replace, literal)


def main() -> int:
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    for match in STRING.finditer(text):
        ptx = decode(match.group(1))
        if ".version" in ptx and ".target" in ptx:
            sys.stdout.write(ptx)
            return 0
    sys.stderr.write("extract-ptx.py: no PTX module found in the input\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
