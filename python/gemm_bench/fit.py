"""Measurements for fitting the dispatcher's model of the hardware (issue 16):
every plausible candidate kernel timed on every shape of the training set.

    # compiler machine: the candidates' bundles
    python -m gemm_bench.fit configs --out DIR/candidates.mlir
    # GPU machine: one gemm-runner process per candidate over its shapes
    python -m gemm_bench.fit measure --runner gemm-runner --bundles DIR --work DIR
    # anywhere: the runner JSON files of a measurement as one compact file
    python -m gemm_bench.fit collect DIR --out measurements.json
    # anywhere: what would run and its estimated GPU time
    python -m gemm_bench.fit plan

Only the training set (bench/shapes/train.txt, gemm_bench.generate) is
measured here; the test set is for the suite alone.
"""
import argparse
import json
import os
import sys

from gemm_bench import configs, shapes as shapes_mod, tune

SMS = 132
C = configs.Config

# The kernels the model chooses among: every tile of the model at the default
# order and depth, the clusters the search found worth having, split-K for
# 64- and 128-row tiles, and stream-K for the tiles of compute-bound shapes.
CANDIDATES = (
    [C(bm, bn, s) for bm, bn, s in configs.TILES] +
    [C(128, 256, "cooperative", 2, 1), C(256, 128, "cooperative", 2, 1),
     C(128, 192, "cooperative", 2, 1), C(64, 256, "pingpong", 1, 2)] +
    [C(64, 64, "pingpong", splits=s) for s in (2, 4, 8)] +
    [C(64, 128, "pingpong", splits=s) for s in (2, 4)] +
    [C(128, 128, "pingpong", splits=2), C(128, 128, "cooperative", splits=2),
     C(64, 256, "pingpong", splits=2)] +
    [C(128, 256, "cooperative", stream_k=True), C(128, 256, "cooperative", 2, 1, stream_k=True),
     C(256, 128, "cooperative", 2, 1, stream_k=True), C(128, 192, "cooperative", stream_k=True),
     C(128, 128, "pingpong", stream_k=True), C(64, 128, "pingpong", stream_k=True)])


def _ceil(a, b):
    return -(-a // b)


def plausible(config, shape):
    """Whether timing `config` on `shape` can teach the model anything: no
    tile twice as tall or wide as the problem, split-K only where whole
    tiles leave most SMs idle and K is long enough to share, stream-K only
    past one wave, clusters only where the problem is two tiles across."""
    m, n, k = shape
    if config.tile_m >= 2 * max(m, 64) or config.tile_n >= 2 * max(n, 64):
        return False
    tiles = _ceil(m, config.tile_m) * _ceil(n, config.tile_n)
    k_blocks = _ceil(k, config.tile_k)
    if config.splits > 1:
        return tiles * 2 <= SMS and k_blocks >= 4 * config.splits
    if config.stream_k:
        return tiles > SMS and k_blocks >= 8
    if config.cluster_m > 1 and _ceil(m, config.tile_m) < 2:
        return False
    if config.cluster_n > 1 and _ceil(n, config.tile_n) < 2:
        return False
    return True


def plan(shapes, dtype="bf16"):
    """{config name: [shapes]} of the measurement."""
    out = {}
    for config in CANDIDATES:
        config = config.replace(dtype=dtype)
        chosen = [s for s in shapes if plausible(config, s)]
        if chosen:
            out[config.name] = chosen
    return out


def gpu_seconds(work, warmup, iters):
    total = 0.0
    for shape_list in work.values():
        total += tune.PROCESS_SETUP_S
        for shape in shape_list:
            total += 0.05 + (warmup + iters) * tune.kernel_seconds_estimate(shape)
    return total


def measure(runner, bundles_dir, work_dir, shapes, warmup, iters, log=sys.stdout):
    os.makedirs(work_dir, exist_ok=True)
    work = plan(shapes)
    failures = []
    for count, (name, shape_list) in enumerate(sorted(work.items()), 1):
        json_path = os.path.join(work_dir, name + ".json")
        code = tune.run_bundle(runner, os.path.join(bundles_dir, name + ".json"), shape_list,
                               json_path, warmup, iters, False, timeout_s=600,
                               check=False, vs_cublas=False)
        if code != 0:
            failures.append((name, code))
        print(f"[{count}/{len(work)}] {name}: {len(shape_list)} shapes, exit {code}",
              file=log, flush=True)
    return failures


MEASUREMENTS_FORMAT = "gemm-fit-measurements"


def collect(work_dir):
    """The measurements of a `measure` run's runner JSON files: per candidate
    and shape, the median time of the kernel (without the staging copies of
    unaligned shapes, which every candidate pays alike) and of the whole
    call, with the GPU and its clocks."""
    rows, device, clocks, errors = [], None, [], []
    for name in sorted(os.listdir(work_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(work_dir, name)) as f:
            data = json.load(f)
        if data.get("format") != "gemm-runner-results":
            continue
        device = device or data.get("device")
        if data.get("error"):
            errors.append({"file": name, **data["error"]})
        config = data["bundle"]["name"]
        for result in data.get("results", []):
            bench = result.get("bench") or {}
            if "ours" not in bench:
                continue
            kernel = bench.get("kernel_only") or bench["ours"]
            rows.append({"config": config, "m": result["m"], "n": result["n"],
                         "k": result["k"], "kernel_ms": kernel["median_ms"],
                         "call_ms": bench["ours"]["median_ms"]})
            if bench.get("clocks"):
                clocks.append(bench["clocks"])
    sm = [c["sm_clock_mhz"] for c in clocks if "sm_clock_mhz" in c]
    return {"format": MEASUREMENTS_FORMAT, "version": 1,
            "device": {k: device.get(k) for k in ("name", "sm_count", "driver_cuda_version")}
            if device else None,
            "sm_clock_mhz_range": [min(sm), max(sm)] if sm else None,
            "power_limit_watts": clocks[0].get("power_limit_watts") if clocks else None,
            "errors": errors, "rows": rows}


def write_measurements(data, path):
    """One measurement a line, so the file stays readable and diffable."""
    head = {k: v for k, v in data.items() if k != "rows"}
    with open(path, "w") as f:
        f.write(json.dumps(head, indent=1)[:-2] + ',\n "rows": [\n')
        f.write(",\n".join("  " + json.dumps(r) for r in data["rows"]))
        f.write("\n ]\n}\n")


def read_measurements(path):
    with open(path) as f:
        data = json.load(f)
    if data.get("format") != MEASUREMENTS_FORMAT:
        raise SystemExit(f"{path}: not a {MEASUREMENTS_FORMAT} file (gemm_bench.fit collect)")
    return data


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cfg = sub.add_parser("configs", help="write the candidates as gemm.matmul ops")
    cfg.add_argument("--out", required=True)
    pl = sub.add_parser("plan", help="what `measure` runs and its estimated GPU time")
    col = sub.add_parser("collect", help="one compact file of a measure run's results")
    col.add_argument("work")
    col.add_argument("--out", required=True)
    ms = sub.add_parser("measure", help="time every plausible candidate (GPU machine)")
    ms.add_argument("--runner", required=True)
    ms.add_argument("--bundles", required=True)
    ms.add_argument("--work", required=True)
    for p in (pl, ms):
        p.add_argument("--shapes", default=shapes_mod.group_path("train"))
        p.add_argument("--warmup", type=int, default=3)
        p.add_argument("--iters", type=int, default=10)
    args = parser.parse_args(argv)
    if args.command == "configs":
        configs.write_mlir([c.replace(dtype="bf16") for c in CANDIDATES], args.out,
                           header="gemm_bench.fit candidates")
        print(f"{args.out}: {len(CANDIDATES)} kernels")
        return 0
    if args.command == "collect":
        data = collect(args.work)
        write_measurements(data, args.out)
        print(f"{args.out}: {len(data['rows'])} measurements, {len(data['errors'])} errors")
        return 0
    shapes = shapes_mod.read_shapes(args.shapes)
    if args.command == "plan":
        work = plan(shapes)
        runs = sum(len(v) for v in work.values())
        print(f"{len(shapes)} shapes, {len(work)} candidates, {runs} runs, about "
              f"{gpu_seconds(work, args.warmup, args.iters):.0f} s of GPU time")
        for name, shape_list in sorted(work.items()):
            print(f"  {name}: {len(shape_list)}")
        return 0
    failures = measure(args.runner, args.bundles, args.work, shapes, args.warmup, args.iters)
    for name, code in failures:
        print(f"fit: {name} exited {code}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    from gemm_bench.fit import main as package_main
    sys.exit(package_main())
