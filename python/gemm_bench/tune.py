"""Searches the SM90 configuration space on a GPU and caches the best
configuration per shape class (gemm_bench.shapes).

    # on the GPU machine (bench/tune.sh does this after building gemm-runner):
    python -m gemm_bench.tune run --runner gemm-runner --bundles DIR --work DIR \\
        --cache bench/tuning/sm90-h200.json [--budget-s 420] [--cold-l2]
    # anywhere: the plan and its estimated GPU time; a cache from runner JSON
    python -m gemm_bench.tune plan
    python -m gemm_bench.tune build-cache RUNNER.json [...] --out CACHE.json

The search runs, per class, every candidate over the class's representative
shapes (shapes.tuning_shapes) with gemm-runner --check --bench --vs cublas,
and ranks candidates by their median, over those shapes, of cuBLAS's median
time over ours (measured interleaved in the same process, so clock and power
drift cancel). A candidate counts only if it passed the check and was
measured on every shape of the class. Stages (configs.py says how each is
pruned):
  1. tile x schedule x cluster, plus the heuristic's picks (so the heuristic
     can be judged against the search);
  2. ring depth: the stage-1 winner at half its derived depth;
  3. raster x swizzle of the winner, for classes with M > 256;
  4. confirmation: the best variant of each of the CONFIRM_TOP best
     families (tile, schedule, cluster, split) so far, CONFIRM_ROUNDS more
     times each (in separate processes, the second round in reverse
     order). Every run of a candidate on a shape counts: its ratio there is
     the median over its runs, and where the finalists were confirmed, the
     best is one of them. A single process's ratio drifts by several percent with the GPU's
     clocks and cuBLAS's own spread, so the highest of some 50 single
     measurements is mostly the luckiest.
One gemm-runner process runs one bundle over all shapes it is a candidate
for in the stage, which pays the process set-up (~1-2 s) once per bundle.
Each process's JSON is kept in the work directory; the cache is rewritten
after every stage, so a search cut short by --budget-s (or a time limit)
still leaves a cache of what was measured, `build-cache` can redo it from
the JSON files, and `run --resume` with the same work directory carries on
where it stopped.
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

# heuristic (the dispatcher, through the gemm package) is imported where it
# is used: the GPU machine runs candidates without the package.
from gemm_bench import configs, shapes as shapes_mod

CACHE_FORMAT = "gemm-tuning-cache"
METRIC = ("median over the class's shapes of cuBLAS median time / our median time "
          "(interleaved in one process; above 1: ours is faster)")

# Cost model of one gemm-runner process, for planning (seconds). Set-up: CUDA
# context, cuBLASLt, module load; per shape: allocation, random fill, the
# check's references and comparison.
PROCESS_SETUP_S = 1.5
SHAPE_OVERHEAD_S = 0.25
ASSUMED_TFLOPS = 600e12      # below cuBLAS's ~750: candidates can be slower
ASSUMED_BYTES_PER_S = 3.0e12

# Stage 4: how many finalists per class, and how many more runs each.
CONFIRM_TOP = 3
CONFIRM_ROUNDS = 2
LAST_STAGE = 4


def shape_text(shape):
    return "x".join(str(v) for v in shape)


def kernel_seconds_estimate(shape, element_bytes=2):
    m, n, k = shape
    return max(2.0 * m * n * k / ASSUMED_TFLOPS,
               (m * k + n * k + m * n) * element_bytes / ASSUMED_BYTES_PER_S) + 5e-6


def process_seconds_estimate(shapes, warmup, iters):
    """GPU-machine seconds of one gemm-runner --check --bench --vs cublas run."""
    total = PROCESS_SETUP_S
    for shape in shapes:
        runs = 2 * (warmup + iters) + 3   # ours and cuBLAS, timed; the check
        total += SHAPE_OVERHEAD_S + runs * kernel_seconds_estimate(shape)
    return total


# ---------------------------------------------------------------------------
# gemm-runner results -> measurements -> cache
# ---------------------------------------------------------------------------

def load_runner_json(path):
    """One record per problem of a gemm-runner --json file."""
    with open(path) as f:
        data = json.load(f)
    if data.get("format") != "gemm-runner-results":
        raise ValueError(f"{path}: not a gemm-runner --json results file")
    name = data.get("bundle", {}).get("name", os.path.basename(path))
    try:
        config = configs.parse_name(name)
    except ValueError:
        config = None
    records = []
    for result in data.get("results", []):
        bench = result.get("bench") or {}
        check = result.get("check")
        record = {
            "bundle": name, "config": config.key if config else None,
            "dtype": config.dtype if config else None,
            "shape": (result["m"], result["n"], result["k"]),
            "check": None if check is None else bool(check.get("passed")),
            "cold_l2": bench.get("cold_l2"), "clocks": bench.get("clocks"),
            "device": data.get("device"), "source": path,
        }
        if "ours" in bench and "cublas" in bench:
            record.update(ours_ms=bench["ours"]["median_ms"],
                          cublas_ms=bench["cublas"]["median_ms"],
                          ours_tflops=bench["ours"]["tflops"],
                          cublas_tflops=bench["cublas"]["tflops"])
            record["ratio"] = record["cublas_ms"] / record["ours_ms"]
        record["ok"] = "ratio" in record and record["check"] is not False
        records.append(record)
    return records, data.get("error")


def _gpu_stamp(records):
    devices = [r["device"] for r in records if r.get("device")]
    clocks = [r["clocks"] for r in records if r.get("clocks")]

    def span(field):
        values = [c[field] for c in clocks if isinstance(c.get(field), (int, float))]
        return [min(values), max(values)] if values else "unknown"
    return {"device": devices[0] if devices else "unknown",
            "sm_clock_mhz_range": span("sm_clock_mhz"),
            "mem_clock_mhz_range": span("mem_clock_mhz"),
            "power_limit_watts_range": span("power_limit_watts"),
            "temperature_c_range": span("temperature_c")}


def build_cache(records, stages=None, search=None, gpu_info=None):
    """The tuning cache of `records` (load_runner_json), bf16 only.

    stages: {class key: {config key: stage}} to note when each candidate ran.
    """
    by_class = {}
    for r in records:
        if r["config"] is None or r["dtype"] != "bf16":
            continue
        key = shapes_mod.shape_class(*r["shape"])
        runs = by_class.setdefault(key, {}).setdefault(r["config"], {})
        runs.setdefault(shape_text(r["shape"]), []).append(r)
    classes = {}
    for key in sorted(by_class, key=shapes_mod.all_classes().index):
        candidates = by_class[key]
        class_shapes = sorted({s for results in candidates.values() for s in results},
                              key=lambda s: tuple(int(v) for v in s.split("x")))
        entries = []
        for config_key, runs in candidates.items():
            results = {s: _combine_runs(runs[s]) for s in class_shapes if s in runs}
            complete = all(s in results and results[s]["ok"] for s in class_shapes)
            entry = {"config": config_key,
                     "stage": (stages or {}).get(key, {}).get(config_key),
                     "eligible": complete,
                     "median_ratio": None,
                     "runs": min((results[s]["runs"] for s in results), default=0),
                     "results": results}
            if complete:
                entry["median_ratio"] = statistics.median(
                    results[s]["ratio"] for s in class_shapes)
            entries.append(entry)
        # Candidates measured more than once (the confirmed finalists) rank
        # first: a single lucky run does not beat a confirmed median.
        entries.sort(key=lambda e: (not e["eligible"], e["runs"] < 2,
                                    -(e["median_ratio"] or 0), e["config"]))
        best = entries[0] if entries and entries[0]["eligible"] else None
        classes[key] = {
            "bounds": shapes_mod.class_bounds(key),
            "shapes": [[int(v) for v in s.split("x")] for s in class_shapes],
            "best": None if best is None else {
                "config": best["config"],
                "bundle": configs.parse_name(best["config"]).name,
                "median_ratio": best["median_ratio"],
                "median_ours_tflops": statistics.median(
                    r["ours_tflops"] for r in best["results"].values()),
                "median_cublas_tflops": statistics.median(
                    r["cublas_tflops"] for r in best["results"].values()),
                "stage": best["stage"]},
            "candidates": entries,
        }
    cache = {"format": CACHE_FORMAT, "version": 1, "metric": METRIC,
             "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
                 timespec="seconds"),
             "gpu": _gpu_stamp(records),
             "classes": classes}
    if gpu_info:
        cache["gpu"]["nvidia_smi"] = gpu_info
    if search:
        cache["search"] = search
    return cache


def _combine_runs(runs):
    """One candidate's runs on one shape: ok if every run passed and was
    measured; each figure the median over the runs."""
    out = {"ok": all(r["ok"] for r in runs),
           "check": None if all(r["check"] is None for r in runs)
           else all(r["check"] is not False for r in runs),
           "runs": len(runs)}
    for field in ("ratio", "ours_ms", "cublas_ms", "ours_tflops", "cublas_tflops"):
        values = [r[field] for r in runs if field in r]
        if values:
            out[field] = round(statistics.median(values), 6)
    return out


def best_config(cache, key):
    best = cache["classes"].get(key, {}).get("best")
    return configs.parse_name(best["config"]) if best else None


def stage_candidates(stage, key, class_shapes, cache):
    """The configurations stage `stage` runs for class `key`."""
    if stage == 1:
        from gemm_bench import heuristic
        out = configs.stage1_candidates(key)
        for shape in class_shapes:
            pick = heuristic.pick(*shape)
            if pick not in out:
                out.append(pick)
        return out
    winner = best_config(cache, key) if cache else None
    if winner is None:
        return []
    if stage == 2:
        return [configs.depth_probe(winner)] if winner.stages == 0 else []
    if stage == 3:
        return configs.order_variants(winner) if configs.searches_order(key) else []
    if stage == 4:
        # The best-measured variant of each of the CONFIRM_TOP best families
        # (tile, schedule, cluster, split): a lucky family's depth and order
        # variants would otherwise crowd the others out.
        entry = cache["classes"].get(key, {"candidates": []})
        finalists, families = [], set()
        for candidate in entry["candidates"]:
            config = configs.parse_name(candidate["config"])
            family = config.replace(raster=configs.DEFAULT_RASTER,
                                    swizzle=configs.DEFAULT_SWIZZLE, stages=0)
            if candidate["eligible"] and family not in families:
                families.add(family)
                finalists.append(config)
        return finalists[:CONFIRM_TOP]
    raise ValueError(f"no stage {stage}")


def plan_stage1(shapes_dir=None):
    """{bundle name: [shapes]} of stage 1."""
    plan = {}
    for key, class_shapes in shapes_mod.tuning_shapes(shapes_dir).items():
        for config in stage_candidates(1, key, class_shapes, None):
            plan.setdefault(config.name, []).extend(class_shapes)
    return plan


def estimate_search(warmup, iters, shapes_dir=None):
    """(stage 1 seconds, stages 2-4 upper bound seconds, processes)."""
    stage1 = plan_stage1(shapes_dir)
    first = sum(process_seconds_estimate(s, warmup, iters) for s in stage1.values())
    later = 0.0
    for key, class_shapes in shapes_mod.tuning_shapes(shapes_dir).items():
        count = 1 + (len(configs.SWIZZLES) * len(configs.RASTERS) - 1
                     if configs.searches_order(key) else 0) + CONFIRM_TOP * CONFIRM_ROUNDS
        later += count * process_seconds_estimate(class_shapes, warmup, iters)
    return first, later, len(stage1)


# ---------------------------------------------------------------------------
# The search on the GPU
# ---------------------------------------------------------------------------

def run_bundle(runner, bundle_path, shape_list, json_path, warmup, iters, cold_l2,
               extra_args=(), timeout_s=None, check=True, vs_cublas=True):
    shapes_file = json_path[:-len(".json")] + ".shapes"
    with open(shapes_file, "w") as f:
        f.writelines(f"{m} {n} {k}\n" for m, n, k in shape_list)
    command = (shlex.split(runner) + [bundle_path, "--shapes", shapes_file] +
               (["--check"] if check else []) + ["--bench"] +
               (["--vs", "cublas"] if vs_cublas else []) +
               ["--warmup", str(warmup), "--iters", str(iters), "--json", json_path] +
               (["--cold-l2"] if cold_l2 else []) + list(extra_args))
    with open(json_path[:-len(".json")] + ".log", "w") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=timeout_s)
            return done.returncode
        except subprocess.TimeoutExpired:
            log.write(f"\ntune: killed after {timeout_s} s\n")
            return None


def _reusable(json_path, shape_list):
    """(records, error, exit code) of an earlier run of the same bundle, stage
    and shapes in the work directory, if it ran them all or stopped with an
    error (a hang is not worth a second wait); else None."""
    if not os.path.exists(json_path):
        return None
    try:
        records, error = load_runner_json(json_path)
    except (ValueError, json.JSONDecodeError, KeyError):
        return None
    if not error and {r["shape"] for r in records} != {tuple(s) for s in shape_list}:
        return None
    if error:
        code = error.get("exit_code", 2)
    else:
        code = 1 if any(r["check"] is False for r in records) else 0
    return records, error, code


def run_search(runner, bundles_dir, work_dir, cache_path, budget_s, warmup, iters,
               cold_l2=False, shapes_dir=None, gpu_info=None, log=sys.stdout, resume=False):
    os.makedirs(work_dir, exist_ok=True)
    classes = shapes_mod.tuning_shapes(shapes_dir)
    available = {f[:-len(".json")] for f in os.listdir(bundles_dir)
                 if f.endswith(".json") and f != "compile-times.json"}
    start = time.monotonic()
    stages = {key: {} for key in classes}
    records, missing, skipped, failures = [], set(), [], []
    search = {"budget_s": budget_s, "warmup": warmup, "iterations": iters,
              "cold_l2": cold_l2, "stages_done": [], "complete": False}
    cache = None
    for stage in range(1, LAST_STAGE + 1):
        wanted = {}
        for key, class_shapes in classes.items():
            for config in stage_candidates(stage, key, class_shapes, cache):
                # Stage 4 runs again what earlier stages ran.
                if stage < LAST_STAGE and config.key in stages[key]:
                    continue
                if config.name not in available:
                    missing.add(config.name)
                    continue
                if stage < LAST_STAGE:
                    stages[key][config.key] = stage
                wanted.setdefault(config.name, []).extend(class_shapes)
        # (json file, bundle, shapes) of each process. Confirmation rounds
        # alternate the order so that drift over a round cancels.
        jobs = []
        if stage < LAST_STAGE:
            jobs = [(f"stage{stage}-{name}.json", name, shape_list)
                    for name, shape_list in wanted.items()]
        else:
            for round_ in range(1, CONFIRM_ROUNDS + 1):
                names = list(wanted) if round_ % 2 else list(reversed(wanted))
                jobs += [(f"stage{stage}-r{round_}-{name}.json", name, wanted[name])
                         for name in names]
        # A confirmation round runs whole or not at all, so that no class is
        # judged on finalists of which only some were run again.
        round_size = len(wanted) if stage == LAST_STAGE else 1
        # --resume: what an earlier search left for each job, read once.
        reused = [_reusable(os.path.join(work_dir, json_name), shape_list) if resume
                  else None for json_name, _, shape_list in jobs]
        out_of_time = False
        for count, (json_name, name, shape_list) in enumerate(jobs, 1):
            json_path = os.path.join(work_dir, json_name)
            previous = reused[count - 1]
            if (count - 1) % round_size == 0:
                window = range(count - 1, min(count - 1 + round_size, len(jobs)))
                needed = sum(0.0 if reused[i]
                             else process_seconds_estimate(jobs[i][2], warmup, iters)
                             for i in window)
                if time.monotonic() - start + needed > budget_s:
                    skipped.extend(n for _, n, _ in jobs[count - 1:])
                    out_of_time = True
                    break
            if previous:
                new, error, code = previous
                records.extend(new)
                note = (f"; {error.get('message', error)}" if error else "") + "; reused"
            else:
                estimate = process_seconds_estimate(shape_list, warmup, iters)
                code = run_bundle(runner, os.path.join(bundles_dir, name + ".json"),
                                  shape_list, json_path, warmup, iters, cold_l2,
                                  timeout_s=max(120, 10 * estimate))
                note = ""
                if os.path.exists(json_path):
                    try:
                        new, error = load_runner_json(json_path)
                        records.extend(new)
                        if error:
                            note = f"; {error.get('message', error)}"
                    except (ValueError, json.JSONDecodeError) as e:
                        note = f"; unreadable JSON: {e}"
            if code != 0:
                failures.append({"bundle": name, "stage": stage, "exit": code,
                                 "note": note.lstrip("; ")})
            print(f"stage {stage} [{count}/{len(jobs)}] {name}: {len(shape_list)} shapes, "
                  f"exit {code}{note} ({time.monotonic() - start:.0f} s)", file=log, flush=True)
        if not out_of_time:
            search["stages_done"].append(stage)
        search.update(elapsed_s=round(time.monotonic() - start, 1),
                      skipped_for_budget=skipped, missing_bundles=sorted(missing),
                      failures=failures, complete=not out_of_time and stage == LAST_STAGE)
        cache = build_cache(records, stages, search, gpu_info)
        write_json(cache, cache_path)
        if out_of_time:
            print(f"tune: stopped in stage {stage}: the budget of {budget_s} s would be "
                  f"exceeded; {len(skipped)} runs skipped", file=log)
            break
    if missing:
        print(f"tune: {len(missing)} candidate bundles were not compiled (regenerate "
              f"--set tune): {', '.join(sorted(missing)[:5])}...", file=log)
    return cache


def write_json(data, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def cache_markdown(cache):
    lines = ["| class | shapes | best config | median ratio | ours TFLOP/s | cuBLAS TFLOP/s "
             "| runner-up | candidates | runs of the best |",
             "|---|---|---|---:|---:|---:|---|---:|---:|"]
    for key, entry in cache["classes"].items():
        best = entry["best"]
        eligible = [c for c in entry["candidates"] if c["eligible"]]
        runner_up = (f"{eligible[1]['config']} ({eligible[1]['median_ratio']:.3f}x)"
                     if len(eligible) > 1 else "-")
        shapes_cell = ", ".join(shape_text(s) for s in entry["shapes"])
        if best:
            lines.append(f"| {key} | {shapes_cell} | {best['config']} | "
                         f"{best['median_ratio']:.3f}x | {best['median_ours_tflops']:.1f} | "
                         f"{best['median_cublas_tflops']:.1f} | {runner_up} | "
                         f"{len(eligible)}/{len(entry['candidates'])} | "
                         f"{eligible[0]['runs']} |")
        else:
            lines.append(f"| {key} | {shapes_cell} | none passed | - | - | - | - | "
                         f"0/{len(entry['candidates'])} | - |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the search (GPU machine)")
    run.add_argument("--runner", required=True,
                     help="gemm-runner command (split into words like a shell does)")
    run.add_argument("--bundles", required=True, help="bundles of --set tune")
    run.add_argument("--work", required=True, help="directory for runner JSON and logs")
    run.add_argument("--cache", required=True, help="the cache to write")
    run.add_argument("--budget-s", type=float, default=420.0,
                     help="stop starting runs that would end after this (default 420)")
    run.add_argument("--gpu-info", help="a file with nvidia-smi's view, kept in the cache")
    run.add_argument("--resume", action="store_true",
                     help="reuse the runner JSON an earlier search left in --work "
                     "(same bundle, stage and shapes) instead of running it again")
    plan = sub.add_parser("plan", help="print the search plan and its GPU time estimate")
    build = sub.add_parser("build-cache", help="make a cache from gemm-runner JSON files")
    build.add_argument("results", nargs="+")
    build.add_argument("--out", help="cache file (default: stdout)")
    build.add_argument("--markdown", help="also write the cache as a table")
    for p in (run, plan):
        p.add_argument("--warmup", type=int, default=10)
        p.add_argument("--iters", type=int, default=30)
        p.add_argument("--shapes-dir", help="default: bench/shapes")
    run.add_argument("--cold-l2", action="store_true")
    args = parser.parse_args(argv)

    if args.command == "plan":
        first, later, processes = estimate_search(args.warmup, args.iters, args.shapes_dir)
        classes = shapes_mod.tuning_shapes(args.shapes_dir)
        for key, class_shapes in classes.items():
            names = [c.key for c in stage_candidates(1, key, class_shapes, None)]
            print(f"{key} ({', '.join(map(shape_text, class_shapes))}): "
                  f"{len(names)} stage-1 candidates")
        print(f"stage 1: {processes} gemm-runner processes, about {first:.0f} s; "
              f"stages 2-4: at most about {later:.0f} s "
              f"(warmup {args.warmup}, iterations {args.iters})")
        return 0
    if args.command == "build-cache":
        records = []
        for path in args.results:
            records.extend(load_runner_json(path)[0])
        unnamed = sorted({r["bundle"] for r in records if r["config"] is None})
        if unnamed:
            print("tune: skipped bundles whose names are not configuration names: "
                  + ", ".join(unnamed), file=sys.stderr)
        cache = build_cache(records)
        if args.out:
            write_json(cache, args.out)
        else:
            json.dump(cache, sys.stdout, indent=1)
            print()
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(cache_markdown(cache))
        return 0
    gpu_info = None
    if args.gpu_info and os.path.exists(args.gpu_info):
        with open(args.gpu_info) as f:
            gpu_info = f.read().strip()
    cache = run_search(args.runner, args.bundles, args.work, args.cache, args.budget_s,
                       args.warmup, args.iters, args.cold_l2, args.shapes_dir, gpu_info,
                       resume=args.resume)
    with open(os.path.splitext(args.cache)[0] + ".md", "w") as f:
        f.write(cache_markdown(cache))
    from gemm_bench import heuristic
    rows, summary = heuristic.evaluate(cache)
    print(cache_markdown(cache))
    print(summary)
    return 0


if __name__ == "__main__":
    from gemm_bench.tune import main as package_main
    sys.exit(package_main())
