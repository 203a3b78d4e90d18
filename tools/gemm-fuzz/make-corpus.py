#!/usr/bin/env python3
"""The seed corpus of gemm-fuzz, from the lit tests.

Every test/**/*.mlir file is cut at its `// -----` separators; each piece
that holds gemm IR (a gemm.matmul or kernel IR) becomes one input, without
its comment lines (RUN, CHECK, expected-error: text the mutator would only
waste mutations on). Pipeline options of the file's RUN lines (debug-waits,
checks, wgmma-lookahead, store-slots) become the input's option
line, `// gemm-fuzz: ...`, which the harness reads (whether an input goes
on to PTX is left to the harness: a share of all inputs).

    make-corpus.py TEST_DIR OUT_DIR
"""
import hashlib
import os
import re
import sys


def run_options(text):
    """The harness options named by the file's RUN lines."""
    runs = " ".join(line for line in text.splitlines() if "RUN:" in line)
    options = []
    for key in ("debug-waits", "wgmma-lookahead", "store-slots"):
        match = re.search(key + r"=(\d+)", runs)
        if match:
            options.append("%s=%s" % (key, match.group(1)))
    if "checks=false" in runs:
        options.append("checks=0")
    return options


def pieces(text):
    """The file's `// -----` pieces; a piece of more than two top-level
    gemm.matmul ops (and nothing else) gives one piece per op and one of its
    first two instead, so that a seed compiles one or two kernels (a quick
    execution, well within the run's -timeout)."""
    for piece in re.split(r"^// -----.*$", text, flags=re.M):
        ops = [op for op in re.split(r"^(?=gemm\.matmul)", piece, flags=re.M)
               if "gemm.matmul" in op]
        rest = re.sub(r"^gemm\.matmul.*\n(?:^ .*\n|^[}^].*\n)*", "",
                      piece, flags=re.M)
        only_ops = all(line.startswith("//") or not line.strip()
                       for line in rest.splitlines())
        if len(ops) > 2 and only_ops:
            yield ops[0] + ops[1]
            yield from ops
        else:
            yield piece


def main():
    test_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    written = set()
    for folder, _, files in sorted(os.walk(test_dir)):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            path = os.path.join(folder, name)
            with open(path) as f:
                text = f.read()
            options = run_options(text)
            for index, piece in enumerate(pieces(text)):
                lines = [l for l in piece.splitlines()
                         if not l.strip().startswith("//")]
                body = "\n".join(lines).strip() + "\n"
                if "gemm." not in body:
                    continue
                if options:
                    body = "// gemm-fuzz: %s\n%s" % (" ".join(options), body)
                digest = hashlib.sha1(body.encode()).hexdigest()[:12]
                if digest in written:
                    continue
                written.add(digest)
                stem = os.path.relpath(path, test_dir).replace(os.sep, "_")
                out = os.path.join(out_dir, "%s-%03d-%s" % (
                    stem[:-len(".mlir")], index, digest))
                with open(out, "w") as f:
                    f.write(body)
    print("make-corpus: %d inputs in %s" % (len(written), out_dir))


if __name__ == "__main__":
    main()
