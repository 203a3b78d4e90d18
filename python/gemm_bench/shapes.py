"""Problem shapes of the benchmark sweep and the shape classes of tuning.

This module is the one place that says which (M, N, K) belong together:
the tuning cache stores one configuration per shape class, the suite looks
shapes up by class, and the heuristic is judged class by class.

A shape class is a bucket of M, a bucket of N and a bucket of K. The M
buckets follow what changes the kernel choice: M <= 64 fits one 64-row
tile (only pingpong 64-row tiles avoid wasted rows), M <= 128 and M <= 256
are one or two rows of 128-row tiles and are bandwidth-bound for large N
and K, and above that the problem becomes compute-bound. M <= 2048 and
M <= 4096 are apart because their best tiles differ: 2048 cubed is under
one wave of 128x256 tiles, 4096 cubed almost four, and one configuration
for both (128x128 pingpong, carried by 2048 cubed) lost 2-4% at 4096 cubed
(bench/results/2026-11-22-h200-uniform/). The N and K buckets separate the
LLM projections (N or K = 28672) from the square-ish shapes.
"""
import os

# Inclusive upper bounds of each bucket; the last bucket of each list is open.
M_BUCKETS = (64, 128, 256, 1024, 2048, 4096, None)
N_BUCKETS = (4096, 16384, None)
K_BUCKETS = (4096, 16384, None)

# The sweep: shape files under bench/shapes/, one per group, each run with
# the input types listed here (fp16 only for the squares, as asked).
SHAPE_GROUPS = ("squares", "llm", "odd")
# The seeded sets of gemm_bench.generate (issue 16): "train" is what the
# dispatcher's model is fitted and kernels searched on, "test" is only ever
# measured. Not part of the default sweep; the suite takes them by --groups.
GENERATED_GROUPS = ("train", "test")
SWEEP_DTYPES = {"squares": ("bf16", "f16"), "llm": ("bf16",), "odd": ("bf16",),
                "train": ("bf16",), "test": ("bf16", "f16")}

# Shapes not tuned because one run costs more than they teach: 16384 cubed
# takes ~8x the GPU time of 8192 cubed and falls in 8192 cubed's class.
UNTUNED_SHAPES = {(16384, 16384, 16384)}


def _bucket(value, bounds):
    """Index of the bucket of `value` and its (low, high) range."""
    low = 1
    for index, high in enumerate(bounds):
        if high is None or value <= high:
            return index, (low, high)
        low = high + 1
    raise AssertionError("the last bucket is open")


def _bucket_name(letter, low, high):
    return f"{letter}{low}+" if high is None else f"{letter}{low}-{high}"


def shape_class(m, n, k):
    """The class key of a problem, e.g. 'm1-64.n4097-16384.k4097-16384'."""
    parts = []
    for letter, value, bounds in (("m", m, M_BUCKETS), ("n", n, N_BUCKETS),
                                  ("k", k, K_BUCKETS)):
        if value < 1:
            raise ValueError(f"{letter.upper()} must be at least 1, got {value}")
        _, (low, high) = _bucket(value, bounds)
        parts.append(_bucket_name(letter, low, high))
    return ".".join(parts)


def class_bounds(key):
    """{'m': (low, high), 'n': ..., 'k': ...} of a class key; high None = open."""
    bounds = {}
    for part in key.split("."):
        letter, span = part[0], part[1:]
        if span.endswith("+"):
            bounds[letter] = (int(span[:-1]), None)
        else:
            low, high = span.split("-")
            bounds[letter] = (int(low), int(high))
    return bounds


def all_classes():
    """Every class key, in bucket order."""
    def names(letter, bounds):
        low, out = 1, []
        for high in bounds:
            out.append(_bucket_name(letter, low, high))
            low = (high or 0) + 1
        return out
    return [f"{m}.{n}.{k}" for m in names("m", M_BUCKETS)
            for n in names("n", N_BUCKETS) for k in names("k", K_BUCKETS)]


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


def read_shapes(path):
    """(M, N, K) per line of a gemm-runner --shapes file; '#' starts a comment."""
    shapes = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) not in (3, 4) or (len(fields) == 4 and fields[3] != "1"):
                raise ValueError(f"{path}:{number}: expected 'M N K', got {line.strip()!r}")
            shapes.append(tuple(int(v) for v in fields[:3]))
    return shapes


def group_path(group, shapes_dir=None):
    return os.path.join(shapes_dir or os.path.join(repo_root(), "bench", "shapes"),
                        group + ".txt")


def sweep(shapes_dir=None, groups=SHAPE_GROUPS):
    """[(group, dtype, (M, N, K))] of the benchmark sweep's `groups`."""
    out = []
    for group in groups:
        shapes = read_shapes(group_path(group, shapes_dir))
        for dtype in SWEEP_DTYPES[group]:
            out.extend((group, dtype, shape) for shape in shapes)
    return out


def needs_padding(shape, element_bytes=2):
    """True when a packed row of A, B or C is not a multiple of 16 bytes
    (TMA's stride rule), so gemm-runner needs its odd-shape flag."""
    m, n, k = shape
    return (k * element_bytes) % 16 != 0 or (n * element_bytes) % 16 != 0


def tuning_shapes(shapes_dir=None):
    """{class key: [shapes]}: the representative shapes the search runs.

    They are the sweep's squares and LLM shapes (the odd sizes need padded
    rows and test edge handling, not configurations), less UNTUNED_SHAPES,
    each once, grouped by class.
    """
    classes = {}
    for group in ("squares", "llm"):
        for shape in read_shapes(group_path(group, shapes_dir)):
            if shape in UNTUNED_SHAPES:
                continue
            members = classes.setdefault(shape_class(*shape), [])
            if shape not in members:
                members.append(shape)
    order = {key: i for i, key in enumerate(all_classes())}
    return {key: sorted(classes[key]) for key in sorted(classes, key=order.get)}


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description="Print the shape class of each "
                                     "problem, or the classes of the tuning search.")
    parser.add_argument("shape", nargs="*", help="MxNxK")
    parser.add_argument("--shapes-dir", help="default: bench/shapes")
    args = parser.parse_args(argv)
    if args.shape:
        for text in args.shape:
            m, n, k = (int(v) for v in text.lower().split("x"))
            print(f"{m}x{n}x{k}: {shape_class(m, n, k)}")
        return
    for key, shapes in tuning_shapes(args.shapes_dir).items():
        print(f"{key}: " + ", ".join("x".join(map(str, s)) for s in shapes))


if __name__ == "__main__":
    main()
