"""Fitting the dispatcher's model (include/gemm/Dispatch/Model.h, issue 16):
every plausible candidate kernel timed on every shape of the training set,
then the physics' constants fitted to those times and the residuals kept as
the model's learned correction.

    # compiler machine: the candidates' bundles
    python -m gemm_bench.fit configs --out DIR/candidates.mlir
    # compiler machine (needs the gemm package): which candidate on which
    # training shape, and the estimated GPU time
    python -m gemm_bench.fit plan --json DIR/plan.json
    # GPU machine: one gemm-runner process per candidate over its shapes
    python -m gemm_bench.fit measure --plan DIR/plan.json --runner gemm-runner \
        --bundles DIR --work DIR
    # anywhere: the runner JSON files of a measurement as one compact file
    python -m gemm_bench.fit collect DIR --out measurements.json
    # anywhere (needs the gemm package): the model file the dispatcher reads,
    # from one or more measurements files (several training sets; a candidate
    # timed again on a shape in a later file, after its code changed, replaces
    # the earlier run)
    python -m gemm_bench.fit fit measurements.json [more.json...] \
        --out bench/tuning/sm90-h200-model.json
    # then the grouped (MoE) kernels' residuals from a bench/grouped-h200.sh run
    python -m gemm_bench.fit grouped bench/results/2026-11-24-h200-grouped/results.md \
        TRAIN/results.md --model bench/tuning/sm90-h200-model.json
    # and the low-precision kernels' residuals: the kernel library's fp8,
    # int8 and tf32 kernels planned on the training shapes, measured as
    # above (--bundles build/kernels), against the model's physics
    python -m gemm_bench.fit plan --lowp build/kernels --json DIR/plan-lowp.json
    python -m gemm_bench.fit lowp measurements-lowp.json --model bench/tuning/sm90-h200-model.json
    # anywhere: how well model files pick on measurements of shapes they
    # were not fitted on (a second training set, or another GPU's runs)
    python -m gemm_bench.fit regret measurements-train2.json --model A.json --model B.json

Only the training set (bench/shapes/train.txt, gemm_bench.generate) is
measured here; the test set is for the suite alone.

Shapes whose rows TMA cannot read run as gemm-runner runs them by default
(--unaligned stage): the TMA kernels' time includes the staging copies around
them, the direct kernels' does not (they read the rows as they are). The fit
uses the whole call's time and the model's staging term, so that it weighs
one against the other; which operands a TMA kernel stages is the runtime's
rule (gemm._core.tma_staging), recorded per measurement.
"""
import argparse
import datetime
import json
import lzma
import math
import os
import re
import sys

from gemm_bench import configs, runner, shapes as shapes_mod

SMS = 132
C = configs.Config
# The layouts of the candidates of transposed problems (K-major A and B, a
# column-major C).
TRANSPOSED = "akbkcc"


def transposed(config):
    """Whether a candidate (gemm_bench.configs.Config or gemm._core.
    KernelConfig) runs the transposed problem: its C is column-major."""
    layouts = config.layouts   # "akbkcc" (Config) or "row,col,col" (KernelConfig)
    return layouts.split(",")[2] == "col" if "," in layouts else layouts.endswith("cc")


def run_shape(config, shape):
    """The problem a candidate runs for a training shape (M, N, K): N x M x K
    for a candidate of transposed problems (dispatch::select's rule), else
    the shape itself. Its own inverse."""
    m, n, k = shape
    return (n, m, k) if transposed(config) else (m, n, k)


def model_key(config):
    """The model file's key of a gemm._core.KernelConfig: its name without
    arch and type, with the layout token of a transposed candidate."""
    return configs.parse_name(config.name).key

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
     C(128, 128, "pingpong", stream_k=True), C(64, 128, "pingpong", stream_k=True)] +
    # The direct kernels (plain loads and stores, never staged) of small
    # problems: a narrow tile for skinny N, and one and two warpgroups.
    [C(bm, bn, "direct") for bm, bn in ((64, 32), (64, 64), (128, 64), (128, 128))] +
    # and the same split along K (a CTA per k-range) where few tiles have a
    # long K: each k-block of a direct kernel waits for its loads' round
    # trip, so more CTAs in flight read the rows faster than one per tile,
    # where TMA kernels would pay the copies of the rows they cannot read.
    [C(bm, bn, "direct", splits=s) for bm, bn in ((64, 32), (64, 64)) for s in (2, 4, 8)] +
    [C(128, 64, "direct", splits=s) for s in (2, 4)] +
    # Tiles of the transposed problem C^T = B A^T (a column-major C^T, the
    # caller's row-major C): the problem's M along the tile's N in steps of
    # 8 (narrow tiles), so that M of a few hundred rows fills its tiles and
    # the tiles fill the SMs; measured on the transposed training shapes.
    [C(128, bn, layouts=TRANSPOSED) for bn in (72, 80, 96, 104, 112, 144, 152, 160, 176,
                                               192, 208, 224)] +
    [C(64, bn, "pingpong", layouts=TRANSPOSED) for bn in (80, 96, 112, 144, 160)] +
    [C(256, bn, layouts=TRANSPOSED) for bn in (80, 96, 112)] +
    [C(128, bn, splits=2, layouts=TRANSPOSED) for bn in (112, 144)] +
    # and for M <= 64: tiles 16-32 wide along M load no padding rows of A
    # (a row-major tile's 64 rows are mostly empty there), and their
    # split-K partials are a quarter to an eighth of a 64x128 tile's, so
    # the fixup costs less (bench/results/2026-11-29-h200-transposed-narrow).
    [C(64, bn, "pingpong", layouts=TRANSPOSED) for bn in (16, 24, 32)] +
    [C(64, bn, "pingpong", splits=s, layouts=TRANSPOSED) for bn in (16, 32) for s in (2, 4)] +
    [C(128, 16, layouts=TRANSPOSED)] +
    # The same in 4-CTA clusters along the tile's M (the problem's N; B's
    # tile multicast), as cuBLASLt runs most small losers: an H100 probe
    # took 45x7168x2048 from 0.82x to 0.90x of cuBLASLt on the transposed
    # 64x64, and lost 6% at 84x5120x5120
    # (bench/results/2026-12-06-h100-cublas-kernels/, call 3).
    [C(64, bn, "pingpong", 4, 1, layouts=TRANSPOSED) for bn in (32, 64, 96)] +
    # Narrow tiles along the problem's own N (a row-major C whose last
    # epilogue sub-tile is packed): N just past a multiple of 64 or 128, and
    # tile counts between waves.
    [C(128, bn) for bn in (80, 96, 112, 144, 160, 176, 208)] +
    [C(64, bn, "pingpong") for bn in (80, 96, 112, 144, 160)] +
    [C(256, bn) for bn in (96, 112)] +
    [C(128, 144, splits=2)] +
    # 192-row tiles (three consumer warpgroups): M of 129-192 rows (and
    # 320-384, ...) in one row of tiles, with fewer bytes per MMA than two
    # 64-row tiles.
    [C(192, bn) for bn in (80, 96, 112, 128, 144, 160, 176, 192)])


def staging(shape, dtype="bf16", layouts="row,col,row"):
    """(a, b, c): which operands of `shape` (packed rows of `layouts`) a TMA
    kernel gets staged, by the runtime's rule (gemm::runtime::stagedForTma)."""
    import gemm
    return tuple(gemm._core.tma_staging(*shape, dtype, layouts=layouts))


def candidates(dtype="bf16", match=None):
    """CANDIDATES of `dtype`, those whose name `match` (a regular
    expression) finds only, when given."""
    chosen = [c.replace(dtype=dtype) for c in CANDIDATES]
    return [c for c in chosen if re.search(match, c.name)] if match else chosen


def plan(shapes, dtype="bf16", sm_count=SMS, layouts=None, match=None):
    """{config name: [shapes]} of the measurement: each candidate (of
    `layouts` only, and whose name `match` (a regular expression) finds,
    when given) on the training shapes where the dispatcher may pick it
    (isApplicable in include/gemm/Dispatch/Model.h; needs the gemm
    package), transposed for candidates of transposed problems."""
    import gemm
    out = {}
    for config in candidates(dtype, match):
        if layouts and config.layouts != layouts:
            continue
        core = gemm.KernelConfig(config.name)
        chosen = [run_shape(config, s) for s in shapes
                  if gemm._core.is_applicable(core, *run_shape(config, s), sm_count)]
        if chosen:
            out[core.name] = chosen
    return out


def lowp_plan(shapes, configs, sm_count=SMS, match=None):
    """{config name: [shapes]}: each low-precision kernel of `configs`
    (gemm._core.KernelConfig: fp8, int8, tf32; K-major A and B, a row-major
    C, or a column-major one for kernels of transposed problems; whose name
    `match` finds, when given) on the training shapes where the dispatcher
    may pick it, transposed for kernels of transposed problems."""
    import gemm
    out = {}
    for core in configs:
        if (core.in_dtype in ("bf16", "f16") or core.batched or core.grouped or
                core.layouts not in ("row,col,row", "row,col,col") or
                (match and not re.search(match, core.name))):
            continue
        chosen = [run for run in (run_shape(core, s) for s in shapes)
                  if gemm._core.is_applicable(core, *run, sm_count)]
        if chosen:
            out[core.name] = chosen
    return out


def write_plan(work, path):
    with open(path, "w") as f:
        json.dump({name: [list(s) for s in shape_list] for name, shape_list in work.items()},
                  f, indent=0)


def plan_shapes(work):
    """The training shapes of a plan (those of transposed runs as given)."""
    import gemm
    return {run_shape(gemm.KernelConfig(name), s) for name, v in work.items() for s in v}


def staged_count(work):
    """Shapes of a plan whose rows a TMA kernel would stage."""
    return sum(1 for s in plan_shapes(work) if any(staging(s)))


def read_plan(path):
    with open(path) as f:
        return {name: [tuple(s) for s in shape_list] for name, shape_list in json.load(f).items()}


def gpu_seconds(work, warmup, iters):
    return sum(runner.process_seconds_estimate(shape_list, warmup, iters, checked=False,
                                               vs_cublas=False)
               for shape_list in work.values())


def measure(runner_command, bundles_dir, work_dir, work, warmup, iters, log=sys.stdout):
    """Times each candidate of `work` ({name: [shapes]}) on its shapes, one
    gemm-runner process per candidate."""
    os.makedirs(work_dir, exist_ok=True)
    failures = []
    for count, (name, shape_list) in enumerate(sorted(work.items()), 1):
        json_path = os.path.join(work_dir, name + ".json")
        # Rows TMA cannot read are staged around TMA kernels, as the
        # runtime does for its callers; direct kernels take them as they are.
        code = runner.run_bundle(runner_command, os.path.join(bundles_dir, name + ".json"),
                                 shape_list, json_path, warmup, iters, False,
                                 extra_args=("--unaligned", "stage"), timeout_s=600,
                                 check=False, vs_cublas=False)
        if code != 0:
            failures.append((name, code))
        print(f"[{count}/{len(work)}] {name}: {len(shape_list)} shapes, exit {code}",
              file=log, flush=True)
    return failures


MEASUREMENTS_FORMAT = "gemm-fit-measurements"


def collect(work_dir):
    """The measurements of a `measure` run's runner JSON files: per candidate
    and shape, the median time of the whole call (with the staging copies
    of the operands the runner staged for that kernel, listed in `staged`)
    and of the kernel alone, with the GPU and its clocks."""
    if not os.path.isdir(work_dir):
        raise SystemExit(f"{work_dir}: no such directory: `fit measure --work {work_dir}` "
                         "writes the runs there (it did not start, or was stopped first)")
    rows, device, clocks, errors, timings = [], None, [], [], {}
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
        if "bundle" not in data:
            continue   # the bundle never loaded: an error, no results
        config = data["bundle"]["name"]
        for result in data.get("results", []):
            bench = result.get("bench") or {}
            if "ours" not in bench:
                continue
            timings[name] = bench.get("timing", runner.TIMING_BEFORE_THE_FIELD)
            kernel = bench.get("kernel_only") or bench["ours"]
            rows.append({"config": config, "m": result["m"], "n": result["n"],
                         "k": result["k"], "kernel_ms": kernel["median_ms"],
                         "call_ms": bench["ours"]["median_ms"],
                         "staged": result.get("staged", [])})
            if bench.get("clocks"):
                clocks.append(bench["clocks"])
    timing = one_timing(timings, f"{work_dir}: runs", "measure them again one way")
    sm = [c["sm_clock_mhz"] for c in clocks if "sm_clock_mhz" in c]
    return {"format": MEASUREMENTS_FORMAT, "version": 1,
            "timing": timing,
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
    """A measurements file (`fit collect`), plain or compressed with xz
    (NAME.json.xz: how bench/results keeps the large ones)."""
    with (lzma.open if path.endswith(".xz") else open)(path, "rt") as f:
        data = json.load(f)
    if data.get("format") != MEASUREMENTS_FORMAT:
        raise SystemExit(f"{path}: not a {MEASUREMENTS_FORMAT} file (gemm_bench.fit collect)")
    data.setdefault("timing", runner.TIMING_BEFORE_THE_FIELD)
    return data


def one_timing(timings, what, remedy):
    """The one gemm-runner --timing of `timings` ({source: timing}; none:
    the timing before the field). A call's time holds the host's launch cost
    and the GPU's time does not, so the fixed costs of runs timed apart do
    not fit together: exits naming `what` and `remedy` when they differ."""
    found = set(timings.values())
    if len(found) > 1:
        raise SystemExit(f"{what} timed in different ways (gemm-runner --timing): " +
                         ", ".join(f"{source} {t}" for source, t in timings.items()) +
                         f"; {remedy}")
    return found.pop() if found else runner.TIMING_BEFORE_THE_FIELD


def gpu_name(data):
    """The GPU a measurements file or a model file was measured on ("" when
    it does not say; a model fitted with --other-gpus names its GPUs joined
    with " + ")."""
    return (data.get("device") or data.get("gpu") or {}).get("name", "")


def gpu_names(data):
    """gpu_name's GPUs, one by one."""
    return [gpu for gpu in gpu_name(data).split(" + ") if gpu]


def one_gpu(named, other_gpus):
    """The one GPU of `named` ({source: measurements or model JSON}; sources
    that do not record theirs are left out), or all of them joined with " +
    " when `other_gpus` allows several. Times of different GPUs do not fit
    one physics: without it, exits naming each source's GPU."""
    gpus = {source: gpu_name(data) for source, data in named.items() if gpu_name(data)}
    found = list(dict.fromkeys(gpu for data in named.values() for gpu in gpu_names(data)))
    if len(found) > 1 and not other_gpus:
        raise SystemExit("measured on different GPUs: " +
                         ", ".join(f"{source} {gpu}" for source, gpu in gpus.items()) +
                         "; fit one GPU's runs, or pass --other-gpus to fit them together "
                         "(the model then names every GPU)")
    return " + ".join(found)


def refuse_other_gpus(model, named, what):
    """Exits with a message when a measurements file of `named` ({source:
    JSON}) was measured on a GPU that `model` (a model file's JSON, `what`
    in the message) was not fitted on: its residuals would be against
    another GPU's physics."""
    fitted = gpu_names(model)
    measured = {source: gpu_name(data) for source, data in named.items()}
    other = {source: gpu for source, gpu in measured.items()
             if fitted and gpu and gpu not in fitted}
    if other:
        raise SystemExit(f"{what} was fitted on {' + '.join(fitted)}; " +
                         ", ".join(f"{source} was measured on {gpu}" for source, gpu in other.items()) +
                         ": measure them on the model's GPU")


MODEL_FORMAT = "gemm-dispatch-model"

# The physics' constants (include/gemm/Dispatch/Model.h, in the model file's
# units): a start for the fit and its bounds.
HARDWARE = {  # name: (start, low, high)
    "launch_us": (8.0, 0.5, 30.0),
    "load_latency_us": (1.5, 0.1, 10.0),
    "l2_tbps": (12.0, 1.0, 100.0),
    "read_tbps": (4.0, 1.0, 6.0),
    "write_tbps": (4.0, 0.3, 6.0),
    "fixup_tbps": (4.0, 0.1, 50.0),
    "stream_k_fixed_us": (2.0, 0.01, 50.0),
    "stream_k_traffic": (1.5, 1.0, 5.0),
    "cluster_compute": (1.0, 0.7, 1.5),
    # The staging copies around TMA kernels (a launch each, bytes read and
    # written) and the direct kernel (launch, a k-block's round trip, element
    # loads an SM issues per second, in 10^9).
    "stage_launch_us": (3.0, 0.3, 30.0),
    "stage_tbps": (2.0, 0.05, 10.0),
    "direct_launch_us": (5.0, 0.5, 30.0),
    "direct_kblock_us": (0.6, 0.05, 10.0),
    "direct_gloads_per_sm": (40.0, 2.0, 400.0),
    # How close limits of a k-block combine (their p-norm), and a unit's
    # MMAs with its HBM reads.
    "bottleneck_sharpness": (4.0, 1.0, 30.0),
    "memory_sharpness": (4.0, 1.0, 30.0),
}
EFFICIENCY = (0.8, 0.2, 1.0)
# Choices of the learned correction, taken by the training set's
# leave-one-shape-out regret.
CORRECTIONS = [(bandwidth, prior) for bandwidth in (0.4, 0.5, 0.6, 0.8, 1.0)
               for prior in (0.1, 0.25, 0.5, 1.0)]


def tile_key(config):
    """HardwareParams::tileKey of a gemm._core.KernelConfig."""
    tm, tn, _ = config.tile
    return f"{tm}x{tn}_{'coop' if config.schedule == 'cooperative' else config.schedule}"


def _training(data):
    """(config, shape, seconds) per measurement: the whole call, staging
    copies included (the model's staging term stands for them)."""
    import gemm
    rows = []
    for row in data["rows"]:
        config = gemm.KernelConfig(row["config"])
        rows.append((config, (row["m"], row["n"], row["k"]), row["call_ms"] * 1e-3))
    return rows


def _staged(data):
    """Per row of _training(data): which of (a, b, c) the runner staged
    around the kernel, as the measurement recorded it (the runtime's rule
    when it ran, which may have changed since); the present rule for rows
    that did not record it."""
    import gemm
    out = []
    for row in data["rows"]:
        if "staged" in row:
            out.append(tuple(t in row["staged"] for t in "abc"))
        else:
            config = gemm.KernelConfig(row["config"])
            out.append(staging((row["m"], row["n"], row["k"]), config.in_dtype, config.layouts))
    return out


def _latest_runs(datas):
    """_training and _staged of the measurements files `datas` together,
    where a candidate timed on a shape again in a later file (a kernel whose
    code changed, measured anew) replaces the earlier run; each run's GPU
    (gpu_name of its file); and how many runs were so replaced."""
    latest = {}
    for data in datas:
        for run, staged in zip(_training(data), _staged(data)):
            latest[(run[0].name, run[1])] = (run, staged, gpu_name(data))
    count = sum(len(d["rows"]) for d in datas)
    kept = latest.values()
    return ([run for run, _, _ in kept], [staged for _, staged, _ in kept],
            [gpu for _, _, gpu in kept], count - len(latest))


def residuals_gpus(rows, gpus):
    """The model file's "residuals_gpu": per candidate (model_key), the GPUs
    its runs of `rows` were timed on (`gpus`, one per row), joined with " +
    ", so that the dispatcher can say which GPU timed a pick of a model
    fitted on several."""
    per_key = {}
    for (config, _, _), gpu in zip(rows, gpus):
        per_key.setdefault(model_key(config), {})[gpu or "unnamed GPU"] = None
    return {key: " + ".join(found) for key, found in per_key.items()}


def fit_physics(rows, staged, sm_count=SMS, base=None):
    """The hardware constants and tile efficiencies that minimise the robust
    (soft L1) sum of squared log errors over `rows`, whose staged operands
    are `staged` (_staged). With `base` (a model file's JSON), its hardware
    constants and tile efficiencies are kept and only the efficiencies of
    tiles it lacks are fitted, on their rows: new candidates join a fitted
    model without moving the estimates of its own."""
    import numpy
    from scipy.optimize import least_squares
    import gemm
    configs = [c for c, _, _ in rows]
    shapes = [s for _, s, _ in rows]
    measured = numpy.log([t for _, _, t in rows])
    fixed_hardware = dict(base["hardware"]) if base else {}
    fixed_efficiency = dict(base["tile_efficiency"]) if base else {}
    free_hardware = [n for n in HARDWARE if n not in fixed_hardware]
    tiles = sorted({tile_key(c) for c in configs} - set(fixed_efficiency))
    start = [HARDWARE[n][0] for n in free_hardware] + [EFFICIENCY[0]] * len(tiles)
    low = [HARDWARE[n][1] for n in free_hardware] + [EFFICIENCY[1]] * len(tiles)
    high = [HARDWARE[n][2] for n in free_hardware] + [EFFICIENCY[2]] * len(tiles)

    def split(values):
        return ({**fixed_hardware, **dict(zip(free_hardware, values[:len(free_hardware)]))},
                {**fixed_efficiency, **dict(zip(tiles, values[len(free_hardware):]))})

    def log_errors(values, indices):
        hardware, efficiency = split(values)
        return numpy.log(gemm._core.physics_estimates(
            hardware, efficiency, [configs[i] for i in indices],
            [shapes[i] for i in indices], sm_count,
            [staged[i] for i in indices])) - measured[indices]
    every = numpy.arange(len(rows))
    # Only the rows that the free values move enter the fit.
    moved = every if free_hardware else numpy.array(
        [i for i, c in enumerate(configs) if tile_key(c) in tiles], dtype=int)
    values = []
    if start:
        values = least_squares(lambda v: log_errors(v, moved), start, bounds=(low, high),
                               loss="soft_l1", f_scale=0.1, diff_step=1e-3).x
    hardware, efficiency = split(values)
    return ({k: round(v, 4) for k, v in hardware.items()},
            {k: round(v, 4) for k, v in efficiency.items()},
            log_errors(values, every))


def model_json(hardware, efficiency, rows, log_errors, bandwidth, prior, provenance,
               keep=lambda row: True):
    """The model file's JSON; the residual points are those of the rows
    `keep` accepts (every candidate is listed all the same)."""
    candidates = {}
    for row, error in zip(rows, log_errors):
        points = candidates.setdefault(model_key(row[0]), [])
        if keep(row):
            m, n, k = row[1]
            points.append([m, n, k, round(-float(error), 4)])
    return {"format": MODEL_FORMAT, "version": 2, "gpu": provenance.pop("gpu"),
            "fitted_on": provenance, "hardware": hardware, "tile_efficiency": efficiency,
            "correction": {"bandwidth": bandwidth, "prior_weight": prior},
            "candidates": candidates}


def problem_class(config):
    """What a kernel computes apart from its sizes: types and scales. The
    kernels of one class at one shape are the dispatcher's alternatives."""
    return (config.in_dtype, config.b_dtype, config.out_dtype, config.quant)


def picks(model_for, rows, sm_count=SMS, allowed=None):
    """Per training problem (class and shape): the (config, seconds) of the
    measured candidate the model `model_for(shape)` picks, among those whose
    names are in `allowed` (default all), and the best measured seconds
    there of any candidate (candidates of transposed problems estimated on
    the problem they run, as dispatch::select does). Problems where no
    allowed candidate was measured are left out."""
    by_shape = {}
    for config, ran, seconds in rows:
        by_shape.setdefault(run_shape(config, ran), {}).setdefault(
            problem_class(config), []).append((config, ran, seconds))
    out = {}
    for shape, classes in by_shape.items():
        model = model_for(shape)
        for kind, timed in classes.items():
            choices = [c for c in timed if allowed is None or c[0].name in allowed]
            if not choices:
                continue
            picked = min(choices,
                         key=lambda c: model.estimate(c[0], *c[1], sm_count)["seconds"])
            out[(kind, shape)] = (picked[0], picked[2], min(t for _, _, t in timed))
    return out


def regrets(model_for, rows, sm_count=SMS):
    """Per training problem: picks()'s measured time over the best there."""
    return {key: seconds / best
            for key, (_, seconds, best) in picks(model_for, rows, sm_count).items()}


def choose_correction(choices, parsed, rows):
    """The (bandwidth, prior weight) of `choices` whose correction holds
    best on shapes it has not seen: the least geomean of the rows'
    leave-one-shape-out regrets, with parsed(bandwidth, prior, keep) the
    model whose residual points are the rows `keep` accepts. Returns
    (bandwidth, prior, summary of those regrets)."""
    best = None
    for bandwidth, prior in choices:
        loo = regrets(lambda shape: parsed(
            bandwidth, prior, lambda r: run_shape(r[0], r[1]) != shape), rows)
        score = summary(loo.values())
        if best is None or score["geomean"] < best[2]["geomean"]:
            best = (bandwidth, prior, score)
    return best


def summary(values):
    import numpy
    values = numpy.array(list(values))
    return {"geomean": round(float(numpy.exp(numpy.mean(numpy.log(values)))), 4),
            "p95": round(float(numpy.percentile(values, 95)), 4),
            "max": round(float(values.max()), 4),
            "within_5_percent": round(float(numpy.mean(values <= 1.05)), 4)}


# The M ranges `fit regret` reports apart: bandwidth-bound, skinny, the rest.
REGRET_BUCKETS = ((1, 64), (65, 128), (129, None), (1, None))


def regret_report(measurements_paths, model_paths):
    """Markdown: per M bucket, the regret (measured time of the pick over the
    best measured candidate, geomean and 95th percentile) of each model
    file's picks among its own candidates on the measurements (as the
    dispatcher with that file would pick), and the GPUs they come from; with
    two or more models, the problems whose picks the first two differ on."""
    import gemm
    datas = [read_measurements(path) for path in measurements_paths]
    one_timing({p: d["timing"] for p, d in zip(measurements_paths, datas)},
               "measurements", "compare on measurements of one timing")
    rows = _latest_runs(datas)[0]
    lines = ["measurements: " + ", ".join(
        f"{p} ({gpu_name(d) or 'GPU not recorded'})"
        for p, d in zip(measurements_paths, datas))]
    per_model = []
    for path in model_paths:
        try:
            model = gemm._core.DispatchModel.load(path)
        except gemm._core.DispatchError as e:
            raise SystemExit(f"--model {path}: {e}")
        lines.append(f"model {len(per_model) + 1}: {path} "
                     f"(fitted on {model.gpu_name or 'a GPU not recorded'})")
        per_model.append(picks(lambda shape: model, rows,
                               allowed={c.name for c in model.candidates}))
    # The problems where every model had a measured candidate to pick.
    common = set.intersection(*(set(chosen) for chosen in per_model))
    ratios = [{key: seconds / best for key, (_, seconds, best) in chosen.items()
               if key in common} for chosen in per_model]
    lines += ["", "| M | problems | " + " | ".join(
        f"model {i + 1} regret (p95)" for i in range(len(per_model))) + " |",
        "|---|---:|" + "---:|" * len(per_model)]
    for low, high in REGRET_BUCKETS:
        def inside(key):
            return key[1][0] >= low and (high is None or key[1][0] <= high)
        keys = [key for key in ratios[0] if inside(key)]
        if not keys:
            continue
        cells = []
        for values in ratios:
            s = summary(values[key] for key in keys)
            cells.append(f"{s['geomean']:.4f} ({s['p95']:.3f})")
        lines.append(f"| {low}-{high or ''} | {len(keys)} | " + " | ".join(cells) + " |")
    if len(per_model) > 1:
        changed = sorted(key for key in common
                         if per_model[0][key][0].name != per_model[1][key][0].name)
        lines += ["", f"{len(changed)} problem{'' if len(changed) == 1 else 's'} picked "
                  "differently by models 1 and 2:", "",
                  "| problem | type | model 2's time over model 1's | model 1's pick | "
                  "model 2's pick |", "|---|---|---:|---|---|"]
        for kind, shape in changed:
            (first, t1, _), (second, t2, _) = per_model[0][(kind, shape)], \
                per_model[1][(kind, shape)]
            lines.append(f"| {'x'.join(map(str, shape))} | {kind[0]} | {t2 / t1:.3f} | "
                         f"{first.name} | {second.name} |")
    return "\n".join(lines)


def read_base_model(path):
    """The JSON of `fit fit --base`'s model file, refused with a message
    when it is not one of this module's model files."""
    try:
        with open(path) as f:
            model = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--base {path}: cannot read it as JSON ({e}); give a model file "
                         "of `python -m gemm_bench.fit fit`")
    missing = [key for key in ("hardware", "tile_efficiency", "correction")
               if not isinstance(model, dict) or not isinstance(model.get(key), dict)]
    if missing or model.get("format") != MODEL_FORMAT:
        raise SystemExit(f"--base {path}: not a model file of `python -m gemm_bench.fit fit` "
                         f"(format {MODEL_FORMAT!r} with hardware, tile_efficiency and "
                         "correction)")
    return model


def refuse_other_timing(model, timing, what):
    """Exits with a message when `model` (a model file's JSON, `what` in the
    message) was fitted on times of another --timing than `timing`, the
    measurements' to be added to it."""
    fitted = model.get("fitted_on", {}).get("timing")
    if fitted and fitted != timing:
        raise SystemExit(f"{what} was fitted on times of --timing {fitted}, the measurements "
                         f"are of --timing {timing}: measure them again the model's way")


# The model file's sections fitted against the physics by their own
# commands (`fit grouped`, `fit lowp`), after `fit fit`.
DEPENDENT_SECTIONS = ("grouped", "lowp")


def fit(measurements_paths, command, base=None, other_gpus=False):
    """The model file's JSON for one or more measurements files (training
    sets measured apart: their rows are fitted together). With `base` (a
    model file's JSON) its physics and correction are kept (fit_physics),
    and its DEPENDENT_SECTIONS with them. Files and base of different GPUs
    are refused unless `other_gpus` (one_gpu)."""
    import numpy
    import gemm
    datas = [read_measurements(path) for path in measurements_paths]
    timing = one_timing({p: d["timing"] for p, d in zip(measurements_paths, datas)},
                        "measurements", "fit measurements of one timing")
    named = dict(zip(measurements_paths, datas))
    if base:
        refuse_other_timing(base, timing, "the base model")
        named = {"the base model": base, **named}
    gpus = one_gpu(named, other_gpus)
    data = datas[0]
    rows, staged, row_gpus, remeasured = _latest_runs(datas)
    hardware, efficiency, log_errors = fit_physics(rows, staged, base=base)
    provenance = {"gpu": {"name": gpus,
                          "sm_count": (data.get("device") or {}).get("sm_count", SMS)},
                  "measurements": ", ".join(measurements_paths), "timing": timing,
                  "command": command,
                  "date": datetime.date.today().isoformat(),
                  "runs": len(rows), "remeasured_runs": remeasured,
                  "shapes": len({run_shape(c, s) for c, s, _ in rows}),
                  "physics_rms_log_error": round(float(numpy.sqrt(numpy.mean(log_errors ** 2))), 4),
                  "physics_median_abs_log_error": round(float(numpy.median(abs(log_errors))), 4)}

    def parsed(bandwidth, prior, keep):
        text = json.dumps(model_json(hardware, efficiency, rows, log_errors, bandwidth, prior,
                                     dict(provenance), keep))
        return gemm._core.DispatchModel.parse(text, "fit")
    choices = ([(base["correction"]["bandwidth"], base["correction"]["prior_weight"])]
               if base else CORRECTIONS)
    bandwidth, prior, loo = choose_correction(choices, parsed, rows)
    provenance["physics_only_regret"] = summary(regrets(
        lambda shape: parsed(bandwidth, prior, lambda r: False), rows).values())
    provenance["leave_one_shape_out_regret"] = loo
    model = model_json(hardware, efficiency, rows, log_errors, bandwidth, prior, provenance)
    if " + " in gpus:
        model["residuals_gpu"] = residuals_gpus(rows, row_gpus)
    # The grouped and low-precision residuals are relative to the physics,
    # which a base keeps: refitting them on the same measurements gives the
    # same sections, so they come along.
    for section in DEPENDENT_SECTIONS:
        if base and section in base:
            model[section] = base[section]
    return model


def write_model(model, path):
    """The model file, one candidate's residual points to a line."""
    head = {k: v for k, v in model.items() if k not in ("candidates",) + DEPENDENT_SECTIONS}
    with open(path, "w") as f:
        f.write(json.dumps(head, indent=1)[:-2])
        for section in DEPENDENT_SECTIONS:
            part = model.get(section)
            if part:
                head = {k: v for k, v in part.items() if k != "candidates"}
                f.write(f',\n "{section}": ' + json.dumps(head)[:-1] + ', "candidates": {\n')
                f.write(",\n".join(f"  {json.dumps(key)}: {json.dumps(points)}"
                                    for key, points in part["candidates"].items()))
                f.write("\n }}")
        f.write(',\n "candidates": {\n')
        f.write(",\n".join(f"  {json.dumps(key)}: {json.dumps(points)}"
                            for key, points in model["candidates"].items()))
        f.write("\n }\n}\n")


# The grouped kernels of bench/kernels/sm90-grouped.mlir by their bench names.
GROUPED_BENCH_KERNELS = {
    "sm90_bf16_grouped_128x256_coop": "128x256x64_coop_c1x1_rm_s8_st0",
    "sm90_bf16_grouped_128x256_coop_c2x1": "128x256x64_coop_c2x1_rm_s8_st0",
    "sm90_bf16_grouped_128x256_coop_c1x2": "128x256x64_coop_c1x2_rm_s8_st0",
    "sm90_bf16_grouped_128x128_coop": "128x128x64_coop_c1x1_rm_s8_st0",
    "sm90_bf16_grouped_128x128_pingpong": "128x128x64_pingpong_c1x1_rm_s8_st0",
    "sm90_bf16_grouped_64x256_pingpong": "64x256x64_pingpong_c1x1_rm_s8_st0",
}


def grouped_section(results_mds, model_text, source):
    """The model file's "grouped" section from bench/grouped-h200.sh
    results.md files (the issue's problems and the training set): every
    grouped kernel timed there becomes a grouped candidate, with one
    residual point per problem: [M / G rows per group, N, K,
    log(measured / physics)] (the physics of the model, without grouped
    residuals, for the problem's G and rows)."""
    import re
    from gemm import _core
    text = json.loads(model_text)
    text.pop("grouped", None)
    model = _core.DispatchModel.parse(json.dumps(text), "physics")
    problems, timed = {}, []
    lines = [line for path in results_mds for line in open(path)]
    for line in lines:
        if line.startswith('{"name"'):
            r = json.loads(line)
            problems[r["name"]] = (r["G"], r["rows"], r["n"], r["k"])
        m = re.match(r"\| (\S+) \| (sm90_\S+) \| ([0-9.]+) \|", line)
        if m and m[2] in GROUPED_BENCH_KERNELS:
            timed.append((m[1], GROUPED_BENCH_KERNELS[m[2]], float(m[3])))
    candidates = {}
    for name, key, tflops in timed:
        groups, rows, n, k = problems[name]
        config = _core.KernelConfig("sm90_bf16_grouped_" + key)
        physics = model.estimate(config, rows, n, k, groups=groups)["seconds"]
        measured = 2.0 * rows * n * k / (tflops * 1e12)
        candidates.setdefault(key, []).append(
            [rows / groups, n, k, round(math.log(measured / physics), 4)])
    if not candidates:
        raise SystemExit(f"{', '.join(results_mds)}: no grouped kernel timings found")
    return {"source": source, "candidates": candidates}


def lowp_section(data, model_text, source):
    """The model file's "lowp" section from the measurements (`collect`) of
    a `plan --lowp`: one residual point per kernel and shape, [M, N, K,
    log(measured / physics)], the physics of the model's hardware constants
    at the kernel's types and scales, with the operands the runner staged
    (DispatchModel.estimate without a lowp section: no correction for these
    kernels); and the section's own correction, the CORRECTIONS choice of
    least leave-one-shape-out regret over these measurements."""
    from gemm import _core
    text = json.loads(model_text)
    text.pop("lowp", None)
    model = _core.DispatchModel.parse(json.dumps(text), "physics")
    rows, points = _training(data), []
    for (config, shape, seconds), staged in zip(rows, _staged(data)):
        if config.in_dtype in ("bf16", "f16"):
            raise SystemExit(f"{config.name}: a 16-bit kernel in the low-precision "
                             "measurements (fit them with `fit fit`)")
        physics = model.estimate(config, *shape, staged=staged)["physics_s"]
        points.append([*shape, round(math.log(seconds / physics), 4)])
    if not points:
        raise SystemExit("no measurements of low-precision kernels")

    def section(bandwidth, prior, keep=lambda row: True):
        candidates = {}
        for row, point in zip(rows, points):
            kept = candidates.setdefault(row[0].name, [])
            if keep(row):
                kept.append(point)
        return {"source": source,
                "correction": {"bandwidth": bandwidth, "prior_weight": prior},
                "candidates": candidates}
    # The models of the choice leave the plain candidates' points out: they
    # correct no low-precision kernel, and parse faster without.
    plain = dict(text, candidates={key: [] for key in text["candidates"]})

    def parsed(bandwidth, prior, keep):
        return _core.DispatchModel.parse(
            json.dumps(dict(plain, lowp=section(bandwidth, prior, keep))), "lowp")
    bandwidth, prior, loo = choose_correction(CORRECTIONS, parsed, rows)
    out = section(bandwidth, prior)
    out["leave_one_shape_out_regret"] = loo
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cfg = sub.add_parser("configs", help="write the candidates as gemm.matmul ops")
    cfg.add_argument("--out", required=True)
    cfg.add_argument("--only-match", metavar="REGEX", help="the candidates whose name this "
                     "regular expression finds only (as `plan --only-match`)")
    pl = sub.add_parser("plan", help="which candidate runs on which training shape, and "
                        "the estimated GPU time")
    pl.add_argument("--shapes", default=shapes_mod.group_path("train"))
    pl.add_argument("--json", help="write the plan here, for `measure --plan`")
    pl.add_argument("--only-layouts", help="the candidates of these layouts only (e.g. "
                    "akbkcc: those of transposed problems)")
    pl.add_argument("--only-match", metavar="REGEX", help="the candidates whose name this "
                    "regular expression finds only (e.g. new ones)")
    pl.add_argument("--lowp", metavar="LIBRARY", help="plan the low-precision kernels of "
                    "this kernel library (build/kernels) instead of the candidates")
    ms = sub.add_parser("measure", help="time every candidate of a plan (GPU machine)")
    ms.add_argument("--plan", required=True, help="written by `plan --json`")
    ms.add_argument("--runner", required=True)
    ms.add_argument("--bundles", required=True)
    ms.add_argument("--work", required=True)
    for p in (pl, ms):
        p.add_argument("--warmup", type=int, default=3)
        p.add_argument("--iters", type=int, default=10)
    col = sub.add_parser("collect", help="one compact file of a measure run's results")
    col.add_argument("work")
    col.add_argument("--out", required=True)
    ft = sub.add_parser("fit", help="fit the dispatcher's model to a measurements file")
    ft.add_argument("measurements", nargs="+")
    ft.add_argument("--out", required=True)
    ft.add_argument("--base", metavar="MODEL", help="keep this model file's hardware "
                    "constants, tile efficiencies, correction and its grouped and lowp sections; "
                    "fit only the tiles it lacks (new candidates measured apart)")
    ft.add_argument("--other-gpus", action="store_true", help="fit measurements (and a base) "
                    "of different GPUs together; the model names them all")
    gr = sub.add_parser("grouped", help="add the grouped kernels' residuals of a "
                        "bench/grouped-h200.sh results.md to a model file")
    gr.add_argument("results", nargs="+")
    gr.add_argument("--model", required=True, help="the model file, rewritten in place")
    lp = sub.add_parser("lowp", help="add the low-precision kernels' residuals of a "
                        "`plan --lowp` measurement to a model file")
    lp.add_argument("measurements", nargs="+")
    lp.add_argument("--model", required=True, help="the model file, rewritten in place")
    rg = sub.add_parser("regret", help="how well model files pick on measurements: per M "
                        "range, the measured time of each one's pick over the best candidate's")
    rg.add_argument("measurements", nargs="+")
    rg.add_argument("--model", action="append", required=True, metavar="MODEL",
                    help="a model file (repeat to compare several)")
    args = parser.parse_args(argv)

    if args.command == "regret":
        print(regret_report(args.measurements, args.model))
        return 0

    if args.command == "lowp":
        text = open(args.model).read()
        model = json.loads(text)
        datas = [read_measurements(path) for path in args.measurements]
        timing = one_timing({p: d["timing"] for p, d in zip(args.measurements, datas)},
                            "measurements", "measure them again one way")
        refuse_other_timing(model, timing, args.model)
        refuse_other_gpus(model, dict(zip(args.measurements, datas)), args.model)
        model["lowp"] = lowp_section({"rows": [r for d in datas for r in d["rows"]]}, text,
                                     ", ".join(args.measurements))
        write_model(model, args.model)
        points = sum(len(v) for v in model["lowp"]["candidates"].values())
        print(f"{args.model}: {len(model['lowp']['candidates'])} low-precision kernels, "
              f"{points} points; correction {model['lowp']['correction']}, "
              f"leave-one-shape-out regret {model['lowp']['leave_one_shape_out_regret']}")
        return 0

    if args.command == "grouped":
        text = open(args.model).read()
        model = json.loads(text)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        model["grouped"] = grouped_section(
            args.results, text,
            ", ".join(os.path.relpath(os.path.dirname(os.path.abspath(path)), root)
                      for path in args.results))
        write_model(model, args.model)
        points = sum(len(v) for v in model["grouped"]["candidates"].values())
        print(f"{args.model}: {len(model['grouped']['candidates'])} grouped candidates, "
              f"{points} points")
        return 0

    if args.command == "configs":
        chosen = candidates(match=args.only_match)
        if not chosen:
            raise SystemExit(f"configs: no candidate's name matches {args.only_match!r}")
        configs.write_mlir(chosen, args.out, header="gemm_bench.fit candidates")
        print(f"{args.out}: {len(chosen)} kernels")
        return 0
    if args.command == "plan":
        if args.lowp:
            import gemm
            work = lowp_plan(shapes_mod.read_shapes(args.shapes),
                             gemm._core.KernelLibrary.load(args.lowp).configs,
                             match=args.only_match)
        else:
            work = plan(shapes_mod.read_shapes(args.shapes), layouts=args.only_layouts,
                        match=args.only_match)
        if args.json:
            write_plan(work, args.json)
        runs = sum(len(v) for v in work.values())
        print(f"{len(plan_shapes(work))} shapes "
              f"({staged_count(work)} with rows TMA kernels stage), {len(work)} "
              f"candidates, {runs} runs, about {gpu_seconds(work, args.warmup, args.iters):.0f} s "
              "of GPU time")
        for name, shape_list in sorted(work.items()):
            print(f"  {name}: {len(shape_list)}")
        return 0
    if args.command == "measure":
        failures = measure(args.runner, args.bundles, args.work, read_plan(args.plan),
                           args.warmup, args.iters)
        for name, code in failures:
            print(f"fit: {name} exited {code}", file=sys.stderr)
        return 1 if failures else 0
    if args.command == "collect":
        data = collect(args.work)
        write_measurements(data, args.out)
        print(f"{args.out}: {len(data['rows'])} measurements, {len(data['errors'])} errors")
        return 0
    base = read_base_model(args.base) if args.base else None
    model = fit(args.measurements, "python -m gemm_bench.fit fit "
                f"{' '.join(args.measurements)} --out {args.out}" +
                (f" --base {args.base}" if args.base else "") +
                (" --other-gpus" if args.other_gpus else ""), base, args.other_gpus)
    write_model(model, args.out)
    fitted = model["fitted_on"]
    replaced = (f" ({fitted['remeasured_runs']} replacing earlier runs)"
                if fitted["remeasured_runs"] else "")
    print(f"{args.out}: {len(model['candidates'])} candidates, {fitted['runs']} runs{replaced} on "
          f"{fitted['shapes']} shapes; physics RMS log error {fitted['physics_rms_log_error']}; "
          f"leave-one-shape-out regret {fitted['leave_one_shape_out_regret']}")
    kept = [s for s in DEPENDENT_SECTIONS if s in model]
    if kept:
        print(f"{args.out}: kept the base's {' and '.join(kept)} section"
              f"{'s' if len(kept) > 1 else ''} (fitted against the physics it keeps)")
    missing = [s for s in DEPENDENT_SECTIONS if s not in model]
    if missing:
        print(f"{args.out}: no {' or '.join(missing)} section: add "
              f"{' and '.join(f'`fit {s}`' for s in missing)} to it")
    return 0


if __name__ == "__main__":
    from gemm_bench.fit import main as package_main
    sys.exit(package_main())
