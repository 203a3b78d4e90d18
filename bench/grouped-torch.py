"""torch._grouped_mm on the grouped problems of bench/grouped-h200.sh.

Reads lines "NAME N K M_0,M_1,..." (the groups' rows) from a plan file and
times torch._grouped_mm(A [sum M_g, K], B [G, N, K] viewed as [G, K, N],
offs = the groups' end offsets, int32) with CUDA events, bf16, the same
group sizes the runner gets. Prints one JSON object per line: name, G, rows,
median/min ms, TFLOP/s (2 x rows x N x K / median).

  python3 bench/grouped-torch.py PLAN [--iters 20] [--warmup 5]
"""
import argparse
import json
import statistics

import torch


def time_one(n, k, sizes, iters, warmup):
    rows = sum(sizes)
    g = len(sizes)
    a = torch.randn(rows, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(g, n, k, device="cuda", dtype=torch.bfloat16)
    ends = torch.tensor(sizes, device="cuda", dtype=torch.int64).cumsum(0)
    offs = ends.to(torch.int32)
    bt = b.transpose(-2, -1)  # [G, K, N], K-major storage: B[g] is N x K
    for _ in range(warmup):
        torch._grouped_mm(a, bt, offs=offs)
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        torch._grouped_mm(a, bt, offs=offs)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    # Spot check against per-group matmuls (first and last non-empty group).
    out = torch._grouped_mm(a, bt, offs=offs)
    starts = [0] + ends.tolist()[:-1]
    err = 0.0
    for gi in [i for i, m in enumerate(sizes) if m][:1] + [i for i, m in enumerate(sizes) if m][-1:]:
        s, e = starts[gi], starts[gi] + sizes[gi]
        ref = a[s:e].float() @ b[gi].float().t()
        err = max(err, ((out[s:e].float() - ref).norm() / ref.norm()).item())
    med = statistics.median(times)
    return {"G": g, "rows": rows, "n": n, "k": k, "median_ms": med,
            "min_ms": min(times), "tflops": 2.0 * rows * n * k / (med * 1e9),
            "spot_rel_err": err}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plan")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    for line in open(args.plan):
        if not line.strip() or line.startswith("#"):
            continue
        name, n, k, groups = line.split()
        sizes = [int(x) for x in groups.split(",")]
        result = {"name": name}
        try:
            result.update(time_one(int(n), int(k), sizes, args.iters, args.warmup))
        except Exception as e:  # report, go on with the next problem
            result["error"] = f"{type(e).__name__}: {e}"
        print(json.dumps(result), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
