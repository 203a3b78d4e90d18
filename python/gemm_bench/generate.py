"""Seeded problem shapes for judging the dispatcher on shapes it was not
tuned on (issue 16): a training set (fitting the dispatcher's model,
searching kernels) and a test set drawn with another seed (measured only).

    python -m gemm_bench.generate --seed 1 --count 160 --out bench/shapes/train.txt
    python -m gemm_bench.generate --seed 2 --count 220 --out bench/shapes/test.txt
    python -m gemm_bench.generate --seed 3 --count 240 --out bench/shapes/train2.txt \
        --exclude bench/shapes/test.txt --exclude bench/shapes/train.txt

Each shape is one of three kinds:
  - llm: (N, K) of a projection of a public LLM architecture (LLM_PROJECTIONS)
    with M (tokens) log-uniform in [1, 16384], a quarter of them rounded to a
    multiple of 64 or a power of two, as batch sizes often are;
  - square: M = N = K, log-uniform in [256, 12288], half of them multiples of
    128;
  - random: M, N, K each log-uniform in [16, 12288] and not rounded; a third
    of them keep every row a multiple of 16 bytes (TMA's stride rule for
    16-bit elements: N and K multiples of 8), the others need staging.
A shape whose work exceeds MAX_FLOPS (about 3 ms of a bf16 GEMM on an H200)
is drawn again, so that one set can be measured within a GPU session; the
README of each results directory says so. So is a shape of an --exclude
set: a second training set must not hold a test shape (train and test,
drawn before this rule, share three).
"""
import argparse
import math
import random

from gemm_bench import shapes as shapes_mod

# (model, projection, N, K): C[M, N] = X[M, K] W[N, K]^T of the published
# configurations (hidden size, intermediate size, attention heads x head
# size, vocabulary; fused q/k/v where the model fuses them).
LLM_PROJECTIONS = (
    ("llama2-7b", "qkv", 12288, 4096), ("llama2-7b", "o", 4096, 4096),
    ("llama2-7b", "gate_up", 22016, 4096), ("llama2-7b", "down", 4096, 11008),
    ("llama2-13b", "qkv", 15360, 5120), ("llama2-13b", "o", 5120, 5120),
    ("llama2-13b", "up", 13824, 5120), ("llama2-13b", "down", 5120, 13824),
    ("llama2-70b", "qkv", 10240, 8192), ("llama2-70b", "o", 8192, 8192),
    ("llama2-70b", "up", 28672, 8192), ("llama2-70b", "down", 8192, 28672),
    ("llama3-8b", "qkv", 6144, 4096), ("llama3-8b", "o", 4096, 4096),
    ("llama3-8b", "up", 14336, 4096), ("llama3-8b", "down", 4096, 14336),
    ("llama3-8b", "lm_head", 128256, 4096),
    ("llama3-70b", "kv", 1024, 8192), ("llama3-70b", "gate_up", 57344, 8192),
    ("llama3-405b", "qkv", 18432, 16384), ("llama3-405b", "o", 16384, 16384),
    ("llama3-405b", "up", 53248, 16384), ("llama3-405b", "down", 16384, 53248),
    ("mistral-7b", "kv", 1024, 4096), ("mistral-7b", "up", 14336, 4096),
    ("mixtral-8x7b", "expert_up", 14336, 4096), ("mixtral-8x7b", "expert_down", 4096, 14336),
    ("mixtral-8x7b", "router", 8, 4096),
    ("qwen2.5-7b", "qkv", 4608, 3584), ("qwen2.5-7b", "o", 3584, 3584),
    ("qwen2.5-7b", "up", 18944, 3584), ("qwen2.5-7b", "down", 3584, 18944),
    ("qwen2.5-14b", "qkv", 7168, 5120), ("qwen2.5-14b", "up", 13824, 5120),
    ("qwen2.5-32b", "up", 27648, 5120), ("qwen2.5-32b", "down", 5120, 27648),
    ("qwen2.5-72b", "up", 29568, 8192), ("qwen2.5-72b", "down", 8192, 29568),
    ("deepseek-v3", "q_a", 1536, 7168), ("deepseek-v3", "q_b", 24576, 1536),
    ("deepseek-v3", "kv_a", 576, 7168), ("deepseek-v3", "kv_b", 32768, 512),
    ("deepseek-v3", "o", 7168, 16384), ("deepseek-v3", "expert_up", 2048, 7168),
    ("deepseek-v3", "expert_down", 7168, 2048), ("deepseek-v3", "dense_up", 18432, 7168),
    ("deepseek-v3", "dense_down", 7168, 18432),
    ("gemma-7b", "qkv", 12288, 3072), ("gemma-7b", "o", 3072, 4096),
    ("gemma-7b", "up", 24576, 3072), ("gemma-7b", "down", 3072, 24576),
    ("gemma2-9b", "qkv", 8192, 3584), ("gemma2-9b", "up", 14336, 3584),
    ("gemma2-9b", "down", 3584, 14336),
)

KIND_WEIGHTS = (("llm", 0.6), ("square", 0.15), ("random", 0.25))
MAX_FLOPS = 2.2e12


def _log_uniform(rng, low, high):
    return int(round(math.exp(rng.uniform(math.log(low), math.log(high)))))


def _round_m(rng, m):
    """A batch size as people pick them: a power of two or a multiple of 64."""
    if rng.random() < 0.5:
        return 2 ** max(0, round(math.log2(m)))
    return max(64, 64 * round(m / 64))


def draw(rng):
    """(kind, (M, N, K), note) of one shape."""
    kind = rng.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
    if kind == "llm":
        model, projection, n, k = rng.choice(LLM_PROJECTIONS)
        m = _log_uniform(rng, 1, 16384)
        if rng.random() < 0.25:
            m = _round_m(rng, m)
        return kind, (m, n, k), f"{model} {projection}"
    if kind == "square":
        s = _log_uniform(rng, 256, 12288)
        if rng.random() < 0.5:
            s = max(128, 128 * round(s / 128))
        return kind, (s, s, s), "square"
    m, n, k = (_log_uniform(rng, 16, 12288) for _ in range(3))
    if rng.random() < 1 / 3:
        n, k = max(8, 8 * round(n / 8)), max(8, 8 * round(k / 8))
        return kind, (m, n, k), "random, rows 16-byte aligned"
    return kind, (m, n, k), "random"


def generate(seed, count, exclude=()):
    """`count` distinct shapes [(kind, (M, N, K), note)] from `seed`, none
    of them in `exclude`."""
    rng = random.Random(seed)
    out, seen = [], set(exclude)
    while len(out) < count:
        kind, shape, note = draw(rng)
        m, n, k = shape
        if 2.0 * m * n * k > MAX_FLOPS or shape in seen:
            continue
        seen.add(shape)
        out.append((kind, shape, note))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True, help="a gemm-runner --shapes file")
    parser.add_argument("--name", help="the set's name in the file's header")
    parser.add_argument("--exclude", action="append", default=[], metavar="FILE",
                        help="a shapes file whose shapes are not drawn (repeatable)")
    args = parser.parse_args(argv)
    excluded = {shape for path in args.exclude for shape in shapes_mod.read_shapes(path)}
    shapes = generate(args.seed, args.count, excluded)
    with open(args.out, "w") as f:
        f.write(f"# Shape set '{args.name or args.out}': python -m gemm_bench.generate "
                f"--seed {args.seed} --count {args.count}" +
                "".join(f" --exclude {path}" for path in args.exclude) + "\n"
                "# (python/gemm_bench/generate.py says how shapes are drawn). M N K # kind: note\n")
        for kind, (m, n, k), note in shapes:
            f.write(f"{m} {n} {k}  # {kind}: {note}\n")
    kinds = {}
    for kind, _, _ in shapes:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"{args.out}: {len(shapes)} shapes (" +
          ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")")


if __name__ == "__main__":
    main()
