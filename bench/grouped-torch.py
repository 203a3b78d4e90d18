"""torch._grouped_mm on grouped (MoE) problems, alone or against ours.

Plan files have lines "NAME N K M_0,M_1,..." (the groups' rows). Problems
are A [sum M_g, K], B [G, N, K] viewed as [G, K, N] (K-major storage),
offs = the groups' end offsets (int32), bf16.

  python3 bench/grouped-torch.py PLAN [--iters 20] [--warmup 5]
      times torch._grouped_mm alone with CUDA events (bench/grouped-h200.sh
      compares it with gemm-runner's times); one JSON object per line: name,
      G, rows, median/min ms, TFLOP/s (2 x rows x N x K / median), and a
      spot check against per-group matmuls.
  python3 bench/grouped-torch.py PLAN --vs-gemm [--iters 20] [--warmup 5]
      times the gemm package's pick (gemm.grouped_mm, the dispatcher's
      grouped kernel with its prep kernel) and torch._grouped_mm in one
      process on the same tensors, alternating the two every repetition:
      GPU time per call of calls queued back to back (the speed), a call's
      latency from an idle stream (which adds the host's work of the call)
      and the host's time per call; medians, TFLOP/s, ours/torch, the
      kernel picked and the relative difference of the two results.
  python3 bench/grouped-torch.py --write-plan FILE --set issue|train|train2|test|heldout|unseen
      the problems: "issue", the issue's four MoE shapes (8 experts x 14336
      x 4096 top-2 of 8192 tokens; 64 and 256 experts x 2048 x 7168 top-8
      of 16384; 128 experts x 768 x 2048 top-8 of 16384), uniform random
      top-k routing with seeds 1-4; "train", 24 MoE problems drawn with
      seed 1125 (experts, N, K, tokens, top-k and the routing). The
      dispatcher's grouped residuals are fitted on those two sets
      (gemm_bench.fit grouped). "test", 8 problems drawn with seed 20261124,
      reported before the train set existed (so seen once); "heldout", 8
      drawn with seed 20261125, measured only after the fit; "train2", 32
      more training problems drawn with seed 1126 (the second fit trains on
      train, train2, test and heldout, all six kernels timed on each);
      "unseen", 12 problems drawn with seed 20261126, measured only after
      that fit.
"""
import argparse
import json
import os
import random
import statistics
import sys

# bench/lib/cuda_timing.py: the CUDA-event timing of the benchmark scripts.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))


def route(experts, tokens, top, seed):
    """Rows per expert of uniform random top-k routing (seeded)."""
    rng = random.Random(seed)
    rows = [0] * experts
    for _ in range(tokens):
        for e in rng.sample(range(experts), top):
            rows[e] += 1
    return rows


def issue_set():
    return [("moe8_14336x4096", 14336, 4096, route(8, 8192, 2, 1)),
            ("moe64_2048x7168", 2048, 7168, route(64, 16384, 8, 2)),
            ("moe256_2048x7168", 2048, 7168, route(256, 16384, 8, 3)),
            ("moe128_768x2048", 768, 2048, route(128, 16384, 8, 4))]


SETS = {"train": (24, 1125), "test": (8, 20261124), "heldout": (8, 20261125),
        "train2": (32, 1126), "unseen": (12, 20261126)}


def drawn_set(count, seed, prefix):
    """MoE problems of the sizes models use, drawn at random; B at most 8
    GB and A at most 2 GB so that each fits beside the others."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        experts = rng.choice([8, 16, 32, 60, 64, 128, 160, 256])
        n = rng.choice([768, 1024, 1408, 1536, 2048, 2816, 4096, 7168, 14336])
        k = rng.choice([1024, 2048, 3072, 4096, 5120, 7168])
        tokens = rng.choice([2048, 4096, 8192, 16384, 32768])
        top = rng.choice([t for t in (1, 2, 4, 6, 8) if t <= experts])
        if experts * n * k * 2 > 8 << 30 or tokens * top * k * 2 > 2 << 30:
            continue
        name = f"{prefix}_e{experts}_n{n}_k{k}_t{tokens}_top{top}"
        out.append((name, n, k, route(experts, tokens, top, rng.randrange(1 << 30))))
    return out


def tensors(n, k, sizes):
    import torch
    rows, g = sum(sizes), len(sizes)
    a = torch.randn(rows, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(g, n, k, device="cuda", dtype=torch.bfloat16)
    offs = torch.tensor(sizes, device="cuda", dtype=torch.int64).cumsum(0).to(torch.int32)
    return a, b, offs, b.transpose(-2, -1)   # [G, K, N], K-major storage


def spot_error(out, a, b, sizes):
    """Relative error of the first and last non-empty groups against
    per-group matmuls."""
    starts = [0]
    for m in sizes:
        starts.append(starts[-1] + m)
    filled = [i for i, m in enumerate(sizes) if m]
    err = 0.0
    for gi in filled[:1] + filled[-1:]:
        s, e = starts[gi], starts[gi + 1]
        ref = a[s:e].float() @ b[gi].float().t()
        err = max(err, ((out[s:e].float() - ref).norm() / ref.norm()).item())
    return err


def time_torch(n, k, sizes, iters, warmup):
    import torch
    a, b, offs, bt = tensors(n, k, sizes)
    for _ in range(warmup):
        torch._grouped_mm(a, bt, offs=offs)
    torch.cuda.synchronize()
    from cuda_timing import burst_ms
    times = [burst_ms(lambda: torch._grouped_mm(a, bt, offs=offs), 1) for _ in range(iters)]
    out = torch._grouped_mm(a, bt, offs=offs)
    med = statistics.median(times)
    rows = sum(sizes)
    return {"G": len(sizes), "rows": rows, "n": n, "k": k, "median_ms": med,
            "min_ms": min(times), "tflops": 2.0 * rows * n * k / (med * 1e9),
            "spot_rel_err": spot_error(out, a, b, sizes)}


def time_vs_gemm(n, k, sizes, iters, warmup, burst=10):
    """Ours (gemm.grouped_mm) and torch._grouped_mm alternating on the same
    tensors, three ways: "idle", one call between CUDA events after a
    synchronisation (the GPU waits for the host's work of the call, so this
    is a call's latency from an idle stream); "queued", `burst` calls back
    to back between the events (the host runs ahead, as in a model's
    forward pass: the GPU time per call); "host_us", the host's time per
    call over back-to-back calls."""
    import time
    import torch
    import gemm
    a, b, offs, bt = tensors(n, k, sizes)
    rows, groups = sum(sizes), len(sizes)
    calls = {"ours": lambda: gemm.grouped_mm(a, bt, offs),
             "torch": lambda: torch._grouped_mm(a, bt, offs=offs)}
    for _ in range(warmup):
        for call in calls.values():
            call()
    torch.cuda.synchronize()
    from cuda_timing import burst_ms
    times = {name: {"idle": [], "queued": []} for name in calls}
    for rep in range(iters):
        order = list(calls) if rep % 2 == 0 else list(reversed(list(calls)))
        for name in order:
            times[name]["idle"].append(burst_ms(calls[name], 1))
        for name in order:
            times[name]["queued"].append(burst_ms(calls[name], burst))
    host = {}
    for name, call in calls.items():
        torch.cuda.synchronize()
        begin = time.perf_counter()
        for _ in range(burst):
            call()
        host[name] = (time.perf_counter() - begin) / burst * 1e6
        torch.cuda.synchronize()
    ours, theirs = calls["ours"](), calls["torch"]()
    torch.cuda.synchronize()
    diff = ((ours.float() - theirs.float()).norm() / theirs.float().norm()).item()
    flop = 2.0 * rows * n * k
    result = {"G": groups, "rows": rows, "n": n, "k": k,
              "kernel": gemm.select(rows, n, k, layouts="row,col,row",
                                    groups=groups, device=a.device.index).config.name,
              "ours_vs_torch_rel_diff": diff, "ours_spot_rel_err": spot_error(ours, a, b, sizes)}
    for name, kinds in times.items():
        result[name] = {"host_us": host[name]}
        for kind, values in kinds.items():
            med = statistics.median(values)
            suffix = "" if kind == "queued" else "_idle"
            result[name].update({f"median_ms{suffix}": med, f"min_ms{suffix}": min(values),
                                 f"tflops{suffix}": flop / (med * 1e9)})
    result["ours_over_torch"] = result["ours"]["tflops"] / result["torch"]["tflops"]
    result["ours_over_torch_idle"] = (result["ours"]["tflops_idle"] /
                                      result["torch"]["tflops_idle"])
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plan", nargs="?")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--vs-gemm", action="store_true")
    parser.add_argument("--write-plan")
    parser.add_argument("--set", choices=["issue", *SETS], default="issue")
    args = parser.parse_args()
    if args.write_plan:
        with open(args.write_plan, "w") as f:
            problems = issue_set() if args.set == "issue" else \
                drawn_set(*SETS[args.set], args.set)
            for name, n, k, sizes in problems:
                f.write(f"{name} {n} {k} {','.join(map(str, sizes))}\n")
        return
    import torch
    for line in open(args.plan):
        if not line.strip() or line.startswith("#"):
            continue
        name, n, k, groups = line.split()
        sizes = [int(x) for x in groups.split(",")]
        result = {"name": name}
        try:
            timer = time_vs_gemm if args.vs_gemm else time_torch
            result.update(timer(int(n), int(k), sizes, args.iters, args.warmup))
        except Exception as e:  # report, go on with the next problem
            result["error"] = f"{type(e).__name__}: {e}"
        print(json.dumps(result), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
