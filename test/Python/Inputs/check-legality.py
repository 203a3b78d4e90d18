"""Checks that the dispatcher's legality rules (KernelConfig::buildable,
through gemm_bench.configs' Config.problems) say what the compiler says:
for a grid of configurations around the accepted space, each is compiled
alone with `gemm-opt --gemm-materialize-sm90` and the
verdicts are compared. Prints one DISAGREE line per difference, then a count.

    check-legality.py GEMM_OPT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
from gemm_bench.configs import Config  # noqa: E402


def grid():
    for bm in (64, 128, 192, 256):
        for bn in (32, 64, 96, 128, 192, 256):
            for schedule in ("cooperative", "pingpong"):
                yield Config(bm, bn, schedule)
    for cm, cn in ((2, 1), (1, 2), (2, 2), (4, 1), (1, 4), (8, 1), (4, 4)):
        yield Config(128, 256, "cooperative", cm, cn)
        yield Config(64, 64, "pingpong", cm, cn)
    # Multicast slices: along K for an MN-major operand, along M or N for
    # a K-major one, and a narrow tile N.
    yield Config(128, 128, "cooperative", 1, 8, layouts="ambkcr")
    yield Config(128, 128, "cooperative", 8, 1, layouts="akbncr")
    yield Config(128, 88, "cooperative", 2, 1)
    yield Config(128, 88, "cooperative", 1, 2)
    for tile in ((128, 256, "cooperative"), (64, 64, "pingpong")):
        derived = Config(*tile).derived_stages()
        for stages in (1, 2, derived, derived + 1):
            yield Config(*tile, stages=stages)
    yield Config(128, 256, tile_k=32)
    yield Config(128, 256, swizzle=0)
    yield Config(128, 256, swizzle=3, raster="along_n")
    # The direct kernel: BM 64 or 128, the register limit, and what it takes
    # none of (clusters, split-K, stream-K, deeper rings).
    for bm in (64, 128, 192):
        for bn in (8, 32, 64, 96, 128, 136):
            yield Config(bm, bn, "direct")
    yield Config(64, 64, "direct", 2, 1)
    yield Config(64, 64, "direct", stages=2)
    yield Config(64, 64, "direct", stages=3)
    yield Config(64, 64, "direct", splits=2)
    yield Config(64, 64, "direct", stream_k=True)


def main(gemm_opt):
    accepted = rejected = disagree = 0
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "one.mlir")
        for config in grid():
            with open(path, "w") as f:
                f.write(config.mlir())
            done = subprocess.run([gemm_opt, path, "--gemm-materialize-sm90", "-o", os.devnull],
                                  capture_output=True, text=True)
            compiler_accepts = done.returncode == 0
            python_accepts = not config.problems()
            if compiler_accepts != python_accepts:
                disagree += 1
                print(f"DISAGREE {config.name}: configs.py says "
                      f"{'accepted' if python_accepts else config.problems()}, gemm-opt says "
                      f"{'accepted' if compiler_accepts else done.stderr.strip()}")
            accepted += compiler_accepts
            rejected += not compiler_accepts
    print(f"{accepted + rejected} configurations: {accepted} accepted, {rejected} rejected, "
          f"{disagree} disagreements")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
