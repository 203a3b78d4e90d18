"""The benchmark suite: the shapes of gemm_bench.shapes' groups, each with
the configuration the dispatcher picks (lib/Dispatch: the candidate of
least estimated time under its fitted model), timed beside cuBLAS; then one
merged results.json, a markdown table and PNG plots.

    # where the gemm package is: which bundle each shape gets
    python -m gemm_bench.suite select [--model MODEL.json] [--groups G,...] \\
        [--bundles DIR] [--json SELECTION.json]
    # GPU machine (bench/suite.sh does all of it):
    python -m gemm_bench.suite run --runner gemm-runner --bundles DIR --results DIR \\
        [--selection SELECTION.json | --model MODEL.json] [--groups G,...] \\
        [--l2 warm|cold|both] [--odd-flag "--unaligned stage"]
    python -m gemm_bench.suite report DIR [--bandwidth BYTES_PER_S | --membw membw.json]
        [--compile-times DIR/compile-times.json]

Roofline: for LLM shapes with M <= 128 (bandwidth-bound: every weight byte
is used at most 128 times) the report adds the HBM bandwidth each kernel
reached, (M*K + N*K + M*N) * element bytes / median time, as a share of the
bandwidth given (measured device-to-device copy by default), and of the
GPU's datasheet figure where the GPU is one of DATASHEET_HBM_BYTES_PER_S.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import sys

from gemm_bench import configs, shapes as shapes_mod
from gemm_bench.runner import TIMING_BEFORE_THE_FIELD

DEFAULT_MODEL = os.path.join(shapes_mod.repo_root(), "bench", "tuning", "sm90-h200-model.json")
# Vendor datasheet HBM bandwidths, by the first part of the GPU's name
# (nvidia-smi's) that they match: the H200 (SXM and NVL), and the H100's
# SXM, NVL and PCIe parts.
DATASHEET_HBM_BYTES_PER_S = (("H200", 4.8e12), ("H100 NVL", 3.9e12),
                             ("H100 PCIe", 2.0e12), ("H100", 3.35e12))
MEASURED_COPY_HBM_BYTES_PER_S = 4.3e12
ROOFLINE_MAX_M = 128
# gemm-runner --timing: what each timed run's events bracket.
TIMING_TEXT = {
    "gpu": "Timing gpu: each run queued behind a held stream, then released, so the "
           "events bracket the GPU's work alone.",
    "call": "Timing call: each run launched onto an idle stream, so the host's launch "
            "cost is in the time.",
}
RESULTS_FORMAT = "gemm-bench-suite"


def load_model(path=None):
    """The dispatcher's model at `path` (default DEFAULT_MODEL)."""
    import gemm
    path = path or DEFAULT_MODEL
    try:
        return gemm._core.DispatchModel.load(path)
    except gemm.DispatchError as e:
        raise SystemExit(str(e))


def _configs(names):
    import gemm
    out = []
    for name in sorted(names):
        try:
            out.append(gemm.KernelConfig(name))
        except gemm.UsageError:
            pass  # not a kernel configuration's bundle
    return out


def select(shape, dtype, model, available=None):
    """{config, source, class} for one problem: the dispatcher's choice
    (lib/Dispatch, the one gemm.matmul and gemm-runner --library make) under
    `model`. `available`: the bundle names compiled, None for all; a choice
    that is not compiled is refused with what to compile, not replaced by
    whatever is there."""
    import gemm
    selection = gemm._core.select(*shape, dtype=dtype, model=model)
    if available is not None and selection.config.name not in available:
        raise SystemExit(f"{shape_text(shape)} {dtype}: the dispatcher's choice "
                         f"{selection.config.name} was not compiled "
                         "(python -m gemm_bench.configs --set best, then gemm_bench.compile)")
    return {"config": configs.parse_name(selection.config.name), "source": selection.source,
            "class": shapes_mod.shape_class(*shape), "transposed": selection.transposed}


def run_shape(selection):
    """The problem the selected kernel runs: N x M x K for a transposed
    selection (C^T = B A^T, the same memory and the same cuBLASLt call),
    else the shape."""
    m, n, k = selection["shape"]
    return (n, m, k) if selection.get("transposed") else (m, n, k)


def shape_text(shape):
    return "x".join(str(v) for v in shape)


def select_all(model, shapes_dir=None, available=None, groups=shapes_mod.SHAPE_GROUPS):
    out = []
    for group, dtype, shape in shapes_mod.sweep(shapes_dir, groups):
        choice = select(shape, dtype, model, available)
        choice.update(group=group, dtype=dtype, shape=shape)
        out.append(choice)
    return out


def bundle_names(bundles_dir):
    return {f[:-len(".json")] for f in os.listdir(bundles_dir)
            if f.endswith(".json") and f != "compile-times.json"}


# ---------------------------------------------------------------------------
# run (GPU machine)
# ---------------------------------------------------------------------------

def write_selection(selections, path):
    with open(path, "w") as f:
        json.dump([dict(s, config=s["config"].name, shape=list(s["shape"]))
                   for s in selections], f, indent=1)


def read_selection(path):
    """The selections write_selection wrote: the dispatcher's choices made on
    another machine (the GPU machine need not have the gemm package)."""
    with open(path) as f:
        return [dict(s, config=configs.parse_name(s["config"]), shape=tuple(s["shape"]))
                for s in json.load(f)]


def run_suite(runner, bundles_dir, results_dir, model, l2_modes, odd_flag, warmup,
              iters, shapes_dir=None, groups=shapes_mod.SHAPE_GROUPS, log=sys.stdout,
              selection_path=None, timing=None):
    from gemm_bench.runner import run_bundle
    runs_dir = os.path.join(results_dir, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    if selection_path:
        selections = [s for s in read_selection(selection_path) if s["group"] in groups]
        missing = {s["config"].name for s in selections} - bundle_names(bundles_dir)
        if missing:
            raise SystemExit(f"{selection_path}: bundles not in {bundles_dir}: "
                             + ", ".join(sorted(missing)))
    else:
        selections = select_all(model, shapes_dir, bundle_names(bundles_dir), groups)
    write_selection(selections, os.path.join(results_dir, "selection.json"))
    # One gemm-runner process per group and bundle: the set-up is paid once
    # and the group's flags apply to all its shapes.
    processes = {}
    for s in selections:
        processes.setdefault((s["group"], s["config"].name), []).append(s)
    failures = []
    for l2 in l2_modes:
        for count, ((group, name), chosen) in enumerate(processes.items(), 1):
            shape_list = [run_shape(s) for s in chosen]
            # The odd-shape flag goes to every process with a shape whose
            # rows TMA cannot address as they are (the generated sets mix them in).
            odd = group == "odd" or any(shapes_mod.needs_padding(s["shape"]) for s in chosen)
            extra = odd_flag.split() if odd and odd_flag else []
            json_path = os.path.join(runs_dir, f"{group}-{name}-{l2}.json")
            code = run_bundle(runner, os.path.join(bundles_dir, name + ".json"), shape_list,
                              json_path, warmup, iters, l2 == "cold", extra, timeout_s=600,
                              timing=timing)
            if code != 0:
                failures.append({"group": group, "bundle": name, "l2": l2, "exit": code})
            print(f"[{l2} {count}/{len(processes)}] {group} {name}: "
                  f"{', '.join(map(shape_text, shape_list))}: exit {code}", file=log, flush=True)
    return failures


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------

def _element_bytes(dtype):
    return configs.ELEMENT_BYTES.get(dtype, 2)


def collect_rows(results_dir, selection=None):
    """Rows of every runner JSON under results_dir/runs (or results_dir)."""
    runs_dir = os.path.join(results_dir, "runs")
    if not os.path.isdir(runs_dir):
        runs_dir = results_dir
    paths = sorted(os.path.join(runs_dir, f) for f in os.listdir(runs_dir)
                   if f.endswith(".json"))
    # A transposed selection ran N x M x K: its row is the shape's.
    by_key = {}
    for s in selection or []:
        by_key[(s["group"], s["dtype"], tuple(run_shape(s)), s["config"].name)] = s
    rows, device, errors = [], None, []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("format") != "gemm-runner-results":
            continue
        device = device or data.get("device")
        if data.get("error"):
            errors.append({"file": os.path.basename(path), **data["error"]})
        group = os.path.basename(path).split("-", 1)[0]
        name = data.get("bundle", {}).get("name", "")
        try:
            dtype = configs.parse_name(name).dtype
        except ValueError:
            dtype = "bf16"
        for result in data.get("results", []):
            bench = result.get("bench") or {}
            if "ours" not in bench or "cublas" not in bench:
                continue
            ran = (result["m"], result["n"], result["k"])
            chosen = by_key.get((group, dtype, ran, name), {})
            shape = tuple(chosen.get("shape", ran))
            check = result.get("check")
            row = {
                "group": group, "dtype": dtype, "shape": list(shape), "bundle": name,
                "source": chosen.get("source"), "class": shapes_mod.shape_class(*shape),
                "l2": "cold" if bench.get("cold_l2") else "warm",
                "padded": result.get("padded", False),
                "check": None if check is None else bool(check.get("passed")),
                "ours_ms": bench["ours"]["median_ms"], "ours_tflops": bench["ours"]["tflops"],
                "cublas_ms": bench["cublas"]["median_ms"],
                "cublas_tflops": bench["cublas"]["tflops"],
                "ratio": bench["cublas"]["median_ms"] / bench["ours"]["median_ms"],
                "iterations": bench.get("iterations"), "warmup": bench.get("warmup"),
                "timing": bench.get("timing", TIMING_BEFORE_THE_FIELD),
                "clocks": bench.get("clocks"),
            }
            row["bytes"] = (shape[0] * shape[2] + shape[1] * shape[2] +
                            shape[0] * shape[1]) * _element_bytes(dtype)
            rows.append(row)
    order = {g: i for i, g in enumerate(shapes_mod.SHAPE_GROUPS +
                                        shapes_mod.GENERATED_GROUPS)}
    rows.sort(key=lambda r: (order.get(r["group"], 99), r["dtype"] != "bf16", r["l2"] != "warm",
                             r["shape"][1], r["shape"][2], r["shape"][0]))
    return rows, device, errors


def is_bandwidth_bound(row):
    return row["group"] == "llm" and row["shape"][0] <= ROOFLINE_MAX_M


def add_roofline(rows, bandwidth):
    for row in rows:
        row["ours_bytes_per_s"] = row["bytes"] / (row["ours_ms"] * 1e-3)
        row["cublas_bytes_per_s"] = row["bytes"] / (row["cublas_ms"] * 1e-3)
        row["ours_hbm_fraction"] = row["ours_bytes_per_s"] / bandwidth
        row["cublas_hbm_fraction"] = row["cublas_bytes_per_s"] / bandwidth


def _range(values, fmt):
    values = [v for v in values if isinstance(v, (int, float))]
    if not values:
        return "unknown"
    low, high = min(values), max(values)
    return fmt.format(low) if low == high else fmt.format(low) + "-" + fmt.format(high)


def gpu_line(device, rows):
    if not device:
        return "GPU: unknown"
    clocks = [r["clocks"] or {} for r in rows]
    return (f"GPU: {device.get('name')} ({device.get('sm_count')} SMs, compute capability "
            f"{device.get('compute_capability')}, driver CUDA "
            f"{device.get('driver_cuda_version')}, cuBLASLt {device.get('cublaslt_version')}); "
            f"SM clock {_range([c.get('sm_clock_mhz') for c in clocks], '{:.0f}')} MHz under "
            f"load (max {device.get('sm_clock_max_mhz')}), memory clock "
            f"{_range([c.get('mem_clock_mhz') for c in clocks], '{:.0f}')} MHz, power limit "
            f"{_range([c.get('power_limit_watts') for c in clocks], '{:.0f}')} W, "
            f"{_range([c.get('temperature_c') for c in clocks], '{:.0f}')} C")


def _geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def datasheet_hbm_bytes_per_s(gpu_name):
    """The datasheet's HBM bandwidth of the GPU named `gpu_name`, or None for
    a GPU not in DATASHEET_HBM_BYTES_PER_S."""
    for part, bytes_per_s in DATASHEET_HBM_BYTES_PER_S:
        if part in (gpu_name or ""):
            return bytes_per_s
    return None


def markdown(rows, device, meta):
    lines = ["# GEMM benchmark suite: our SM90 kernels beside cuBLASLt", "",
             gpu_line(device, rows), ""]
    if meta.get("nvidia_smi"):
        lines += ["nvidia-smi before the runs:", "", "```", meta["nvidia_smi"], "```", ""]
    iterations = {(r["warmup"], r["iterations"]) for r in rows}
    lines.append("Median of " + ", ".join(f"{i} timed runs after {w} warm-ups"
                                           for w, i in sorted(iterations))
                 + ", interleaved run by run with cuBLASLt in one process; random-normal "
                 "inputs; ratio = cuBLAS median / our median (above 1: ours is faster). "
                 + " ".join(TIMING_TEXT[t] for t in sorted({r["timing"] for r in rows}))
                 + (" L2 cold: flushed before every timed run." if any(
                     r["l2"] == "cold" for r in rows) else ""))
    bandwidth = meta["bandwidth"]
    datasheet = datasheet_hbm_bytes_per_s((device or {}).get("name"))
    lines.append(f"HBM roofline (LLM shapes with M <= {ROOFLINE_MAX_M}): bytes = (M*K + N*K + "
                 f"M*N) * element bytes over the median time, as % of "
                 f"{bandwidth['bytes_per_s'] / 1e12:.2f} TB/s ({bandwidth['source']}); " +
                 (f"the datasheet's {datasheet / 1e12:.2f} TB/s in brackets." if datasheet else
                  "no datasheet figure for this GPU."))
    if meta.get("odd_flag") is not None:
        flag = meta["odd_flag"] or ""
        how = ""
        if "pad" in flag:
            how = " (rows rounded up to 16 bytes; cuBLAS uses the same leading dimensions)"
        elif "stage" in flag:
            how = (" (matrices copied through aligned scratch buffers around every launch, "
                   "timed as part of ours)")
        lines.append(f"Odd shapes ran with `{flag or '(no flag)'}`{how}.")
    sources = {}
    for r in rows:
        sources[r["source"] or "unknown"] = sources.get(r["source"] or "unknown", 0) + 1
    lines.append("Configurations: " + ", ".join(f"{n} {s}" for s, n in sorted(sources.items()))
                 + (f" (model: {meta['model']})" if meta.get("model") else "") + ".")
    compile_times = meta.get("compile_times") or {}
    if compile_times:
        lines.append("Compile: ms of gemm-opt from the gemm.matmul to PTX for the row's kernel "
                     "(ptxas and the bundle export not included).")
    lines.append("")
    sections = []
    for r in rows:
        section = (r["group"], r["dtype"], r["l2"])
        if section not in sections:
            sections.append(section)
    for group, dtype, l2 in sections:
        section_rows = [r for r in rows if (r["group"], r["dtype"], r["l2"]) == (group, dtype, l2)]
        roofline = any(is_bandwidth_bound(r) for r in section_rows)
        lines.append(f"## {group}, {dtype}, L2 {l2}")
        lines.append("")
        header = ("| M | N | K | kernel | from | check | ours ms | ours TFLOP/s | cuBLAS ms "
                  "| cuBLAS TFLOP/s | ratio |")
        align = "|---:|---:|---:|---|---|---|---:|---:|---:|---:|---:|"
        if roofline:
            header += " ours % HBM | cuBLAS % HBM |"
            align += "---:|---:|"
        header += " compile ms |"
        align += "---:|"
        lines += [header, align]
        for r in section_rows:
            m, n, k = r["shape"]
            check = {None: "-", True: "PASS", False: "FAIL"}[r["check"]]
            if r["padded"]:
                check += ", padded"
            line = (f"| {m} | {n} | {k} | {r['bundle']} | {r['source'] or '-'} | {check} "
                    f"| {r['ours_ms']:.4f} | {r['ours_tflops']:.1f} | {r['cublas_ms']:.4f} "
                    f"| {r['cublas_tflops']:.1f} | {r['ratio']:.3f}x |")
            if roofline:
                if is_bandwidth_bound(r):
                    line += "".join(
                        f" {100 * r[who + '_hbm_fraction']:.1f}%" +
                        (f" [{100 * r[who + '_bytes_per_s'] / datasheet:.1f}%]"
                         if datasheet else "") + " |"
                        for who in ("ours", "cublas"))
                else:
                    line += " - | - |"
            compile_ms = compile_times.get(r["bundle"], {}).get("to_ptx_ms")
            line += f" {compile_ms:.0f} |" if compile_ms is not None else " - |"
            lines.append(line)
        geomean = _geomean(r["ratio"] for r in section_rows)
        count = len(section_rows)
        lines += ["", f"Geometric mean ratio: {geomean:.3f}x over {count} "
                  f"shape{'s' if count > 1 else ''}.", ""]
    lines += generalization(rows, meta.get("notes") or {}, meta["bandwidth"]["bytes_per_s"])
    lines.append("## Summary")
    lines.append("")
    lines.append("| group | type | L2 | shapes | geomean ratio | min | max | checks failed |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|")
    for group, dtype, l2 in sections:
        section_rows = [r for r in rows if (r["group"], r["dtype"], r["l2"]) == (group, dtype, l2)]
        ratios = [r["ratio"] for r in section_rows]
        lines.append(f"| {group} | {dtype} | {l2} | {len(ratios)} | {_geomean(ratios):.3f}x | "
                     f"{min(ratios):.3f}x | {max(ratios):.3f}x | "
                     f"{sum(1 for r in section_rows if r['check'] is False)} |")
    bound = [r for r in rows if is_bandwidth_bound(r)]
    if bound:
        lines.append("")
        lines.append(f"Bandwidth-bound shapes (LLM, M <= {ROOFLINE_MAX_M}): ours at "
                     f"{100 * statistics.median(r['ours_hbm_fraction'] for r in bound):.1f}% "
                     f"of the roofline (median), cuBLAS at "
                     f"{100 * statistics.median(r['cublas_hbm_fraction'] for r in bound):.1f}%.")
    if meta.get("errors"):
        lines.append("")
        lines.append("Runs that stopped with an error (their remaining shapes are missing):")
        for e in meta["errors"]:
            lines.append(f"- {e.get('file')}: {e.get('message')}")
    return "\n".join(lines) + "\n"


def generated_notes(rows, shapes_dir=None):
    """{group: {(M, N, K): note}} of the generated groups among `rows`, from
    their shape files (kind and LLM projection of each shape)."""
    notes = {}
    for group in {r["group"] for r in rows} & set(shapes_mod.GENERATED_GROUPS):
        path = shapes_mod.group_path(group, shapes_dir)
        if os.path.exists(path):
            notes[group] = shapes_mod.read_shape_notes(path)
    return notes


def _kind(note):
    """'llm', 'square' or 'random' of a generated shape's note."""
    return note.split(":", 1)[0].strip() or "unknown"


def _percentile(values, q):
    values = sorted(values)
    if not values:
        return None
    position = (len(values) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def _stats_line(label, ratios):
    """| label | shapes | geomean | 5th percentile | min | below 0.90x |"""
    if not ratios:
        return None
    return (f"| {label} | {len(ratios)} | {_geomean(ratios):.3f}x | "
            f"{_percentile(ratios, 5):.3f}x | {min(ratios):.3f}x | "
            f"{sum(1 for v in ratios if v < 0.9)} |")


def generalization(rows, notes, bandwidth):
    """The report of the generated sets (issue 16): per group and type the
    ratio's geomean, 5th percentile, minimum and shapes below 0.90x, by M
    bucket, by kind (LLM projection, square, random; rows that TMA cannot
    address apart), by LLM family; and for M <= 64 the share of the HBM
    roofline."""
    lines = []
    sections = []
    for r in rows:
        key = (r["group"], r["dtype"], r["l2"])
        if r["group"] in shapes_mod.GENERATED_GROUPS and key not in sections:
            sections.append(key)
    if not sections:
        return lines
    lines += ["## Generated sets", "",
              "Shapes drawn by gemm_bench.generate (train: what the dispatcher's model is "
              "fitted on; train2: a second training set, for fits and their regret; test: "
              "never used to fit). Ratio = cuBLAS median / ours; "
              "'unaligned' rows are not 16-byte multiples and go through staging copies.", ""]
    header = ["| | shapes | geomean | 5th pct | min | below 0.90x |",
              "|---|---:|---:|---:|---:|---:|"]
    for group, dtype, l2 in sections:
        section = [r for r in rows if (r["group"], r["dtype"], r["l2"]) == (group, dtype, l2)]
        group_notes = notes.get(group, {})
        lines += [f"### {group}, {dtype}, L2 {l2}", ""] + header
        lines.append(_stats_line("all", [r["ratio"] for r in section]))
        for aligned, label in ((True, "aligned rows"), (False, "unaligned rows (staged)")):
            line = _stats_line(label, [r["ratio"] for r in section
                                       if shapes_mod.needs_padding(r["shape"]) != aligned])
            if line:
                lines.append(line)
        low = 1
        for high in shapes_mod.M_BUCKETS:
            bucket = [r["ratio"] for r in section
                      if r["shape"][0] >= low and (high is None or r["shape"][0] <= high)]
            line = _stats_line(f"M {low}-{high}" if high else f"M {low}+", bucket)
            if line:
                lines.append(line)
            low = (high or 0) + 1
        kinds = {}
        for r in section:
            kinds.setdefault(_kind(group_notes.get(tuple(r["shape"]), "")), []).append(r)
        for kind, kind_rows in sorted(kinds.items()):
            lines.append(_stats_line(f"kind {kind}", [r["ratio"] for r in kind_rows]))
        families = {}
        for r in kinds.get("llm", []):
            note = group_notes.get(tuple(r["shape"]), "")
            families.setdefault(note.split(":", 1)[1].strip().split()[0], []).append(r["ratio"])
        for family, ratios in sorted(families.items()):
            lines.append(_stats_line(f"LLM {family}", ratios))
        small = [r for r in section if r["shape"][0] <= 64 and not shapes_mod.needs_padding(
            r["shape"])]
        if small:
            def share(r, who):
                return r["bytes"] / (r[who + "_ms"] * 1e-3) / bandwidth
            ours = [share(r, "ours") for r in small]
            theirs = [share(r, "cublas") for r in small]
            lines += ["", f"M <= 64 (aligned, {len(small)} shapes): ours at "
                      f"{100 * statistics.median(ours):.0f}% of the HBM roofline (median; "
                      f"{sum(1 for v in ours if v >= 0.9)} shapes at 90% or more), cuBLAS at "
                      f"{100 * statistics.median(theirs):.0f}%; "
                      f"{sum(1 for r in small if r['ratio'] < 1.0)} shapes below 1.00x cuBLAS."]
        worst = sorted(section, key=lambda r: r["ratio"])[:10]
        lines += ["", "Lowest ratios: " + ", ".join(
            f"{shape_text(r['shape'])} {r['ratio']:.2f}x"
            + (" (staged)" if shapes_mod.needs_padding(r["shape"]) else "") for r in worst), ""]
    return lines


def plots(rows, out_dir, notes=None):
    """tflops.png, ratio.png and, if there are bandwidth-bound rows,
    roofline.png, and for the generated sets generalization.png (each
    shape's ratio against M, by kind); returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    generated = [r for r in rows if r["group"] in shapes_mod.GENERATED_GROUPS]
    rows = [r for r in rows if r["group"] not in shapes_mod.GENERATED_GROUPS]
    sections = []
    for r in rows:
        if (r["group"], r["dtype"], r["l2"]) not in sections:
            sections.append((r["group"], r["dtype"], r["l2"]))

    def label(r):
        return shape_text(r["shape"])

    def figure(draw, path, panels):
        widths = [max(4, 0.45 * len(p[1])) for p in panels]
        fig, axes = plt.subplots(len(panels), 1, figsize=(max(widths) + 2, 3.6 * len(panels)),
                                 squeeze=False)
        for ax, (title, panel_rows) in zip(axes[:, 0], panels):
            draw(ax, panel_rows)
            ax.set_title(title, fontsize=10)
            ax.set_xticks(range(len(panel_rows)))
            ax.set_xticklabels([label(r) for r in panel_rows], rotation=60, ha="right",
                               fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return path

    panels = [(f"{g}, {d}, L2 {l}", [r for r in rows if (r["group"], r["dtype"], r["l2"]) == (g, d, l)])
              for g, d, l in sections]

    def tflops(ax, panel_rows):
        x = range(len(panel_rows))
        ax.bar([i - 0.2 for i in x], [r["ours_tflops"] for r in panel_rows], 0.4, label="ours")
        ax.bar([i + 0.2 for i in x], [r["cublas_tflops"] for r in panel_rows], 0.4,
               label="cuBLASLt")
        ax.set_ylabel("TFLOP/s (median)")
        ax.legend(fontsize=8)

    def ratio(ax, panel_rows):
        ax.bar(range(len(panel_rows)), [r["ratio"] for r in panel_rows])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel("cuBLAS time / ours")

    written = []
    if panels:
        written = [figure(tflops, os.path.join(out_dir, "tflops.png"), panels),
                   figure(ratio, os.path.join(out_dir, "ratio.png"), panels)]
    if generated:
        written.append(generalization_plot(generated, notes or {}, plt,
                                           os.path.join(out_dir, "generalization.png")))
    bound = [r for r in rows if is_bandwidth_bound(r)]
    if bound:
        def roofline(ax, panel_rows):
            x = range(len(panel_rows))
            ax.bar([i - 0.2 for i in x], [100 * r["ours_hbm_fraction"] for r in panel_rows],
                   0.4, label="ours")
            ax.bar([i + 0.2 for i in x], [100 * r["cublas_hbm_fraction"] for r in panel_rows],
                   0.4, label="cuBLASLt")
            ax.axhline(100.0, color="black", linewidth=0.8)
            ax.set_ylabel("% of HBM roofline")
            ax.legend(fontsize=8)
        bound_panels = [(f"LLM, M <= {ROOFLINE_MAX_M}, {d}, L2 {l}",
                         [r for r in bound if (r["dtype"], r["l2"]) == (d, l)])
                        for d, l in sorted({(r["dtype"], r["l2"]) for r in bound})]
        written.append(figure(roofline, os.path.join(out_dir, "roofline.png"), bound_panels))
    return written


def generalization_plot(rows, notes, plt, path):
    """One panel per generated group and type: each shape's ratio against M
    (log scale), marked by kind, unaligned (staged) shapes hollow."""
    sections = []
    for r in rows:
        if (r["group"], r["dtype"]) not in sections:
            sections.append((r["group"], r["dtype"]))
    fig, axes = plt.subplots(len(sections), 1, figsize=(9, 3.4 * len(sections)), squeeze=False)
    markers = {"llm": "o", "square": "s", "random": "^"}
    for ax, (group, dtype) in zip(axes[:, 0], sections):
        section = [r for r in rows if (r["group"], r["dtype"]) == (group, dtype)]
        for kind, marker in markers.items():
            for staged in (False, True):
                pts = [r for r in section
                       if _kind(notes.get(group, {}).get(tuple(r["shape"]), "")) == kind
                       and shapes_mod.needs_padding(r["shape"]) == staged]
                if pts:
                    ax.scatter([r["shape"][0] for r in pts], [r["ratio"] for r in pts],
                               marker=marker, s=18,
                               facecolors="none" if staged else None,
                               edgecolors="C1" if staged else None,
                               color=None if staged else "C0",
                               label=f"{kind}{', staged' if staged else ''}")
        ax.set_xscale("log")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(0.9, color="grey", linewidth=0.6, linestyle="--")
        ax.set_xlabel("M")
        ax.set_ylabel("cuBLAS time / ours")
        ax.set_title(f"{group}, {dtype}: geomean {_geomean(r['ratio'] for r in section):.3f}x",
                     fontsize=10)
        ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def bandwidth_figure(value=None, membw_path=None):
    """{bytes_per_s, source}: a given figure, else a measured one (membw.py's
    JSON), else the H200's measured copy figure."""
    if value:
        return {"bytes_per_s": float(value), "source": "given"}
    if membw_path and os.path.exists(membw_path):
        with open(membw_path) as f:
            measured = json.load(f)
        if measured.get("bytes_per_s"):
            return {"bytes_per_s": measured["bytes_per_s"],
                    "source": f"measured device-to-device copy on this GPU, "
                              f"{measured.get('buffer_bytes', 0) / 2**30:.0f} GiB buffers"}
    return {"bytes_per_s": MEASURED_COPY_HBM_BYTES_PER_S,
            "source": "device-to-device copy measured on an H200 earlier; not measured here"}


def write_report(results_dir, bandwidth, odd_flag=None, compile_times_path=None,
                 model_path=None, gpu_info_path=None, plot=True, shapes_dir=None):
    selection = None
    selection_path = os.path.join(results_dir, "selection.json")
    if os.path.exists(selection_path):
        selection = read_selection(selection_path)
    rows, device, errors = collect_rows(results_dir, selection)
    merged_path = os.path.join(results_dir, "results.json")
    if not rows and os.path.exists(merged_path):
        # The runner JSONs were not kept: report again from the merged rows.
        with open(merged_path) as f:
            merged = json.load(f)
        if merged.get("format") == RESULTS_FORMAT:
            rows, device, errors = merged["rows"], merged.get("device"), merged.get("errors", [])
    if not rows:
        raise SystemExit(f"{results_dir}: no benchmark results")
    add_roofline(rows, bandwidth["bytes_per_s"])
    compile_times = {}
    if compile_times_path and os.path.exists(compile_times_path):
        with open(compile_times_path) as f:
            compile_times = json.load(f).get("kernels", {})
    gpu_info = None
    if gpu_info_path and os.path.exists(gpu_info_path):
        with open(gpu_info_path) as f:
            gpu_info = f.read().strip()
    meta = {"bandwidth": bandwidth, "odd_flag": odd_flag, "model": model_path,
            "compile_times": compile_times, "errors": errors, "nvidia_smi": gpu_info,
            "notes": generated_notes(rows, shapes_dir)}
    for row in rows:
        entry = compile_times.get(row["bundle"], {})
        row["compile_to_ptx_ms"] = entry.get("to_ptx_ms")
    text = markdown(rows, device, meta)
    with open(os.path.join(results_dir, "results.md"), "w") as f:
        f.write(text)
    merged = {"format": RESULTS_FORMAT, "version": 1,
              "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
                  timespec="seconds"),
              "device": device, "nvidia_smi": gpu_info, "hbm_bandwidth": bandwidth,
              "odd_shapes_flag": odd_flag, "dispatch_model": model_path,
              "errors": errors, "rows": rows}
    with open(os.path.join(results_dir, "results.json"), "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    written = []
    if plot:
        try:
            written = plots(rows, results_dir, meta["notes"])
        except ImportError as e:
            print(f"suite: no plots ({e}); results.md and results.json are written",
                  file=sys.stderr)
    return text, written


def parse_groups(text):
    groups = tuple(g for g in text.split(",") if g)
    known = shapes_mod.SHAPE_GROUPS + shapes_mod.GENERATED_GROUPS
    unknown = [g for g in groups if g not in known]
    if unknown or not groups:
        raise argparse.ArgumentTypeError(f"unknown shape group(s) {', '.join(unknown) or '(none)'}"
                                         f"; known: {', '.join(known)}")
    return groups


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the sweep (GPU machine)")
    run.add_argument("--runner", required=True)
    run.add_argument("--bundles", required=True)
    run.add_argument("--results", required=True)
    run.add_argument("--l2", default="warm", choices=("warm", "cold", "both"))
    run.add_argument("--odd-flag", default="--unaligned stage",
                     help="gemm-runner flags for the odd group (default: --unaligned stage, "
                          "the packed rows cuBLAS also reads)")
    run.add_argument("--selection", help="the dispatcher's choices, written by `select "
                     "--json` (where the gemm package is), instead of asking it here")
    run.add_argument("--warmup", type=int, default=10)
    run.add_argument("--iters", type=int, default=30)
    run.add_argument("--timing", choices=tuple(TIMING_TEXT),
                     help="gemm-runner --timing (default: its own, gpu)")
    rep = sub.add_parser("report", help="results.json, results.md and plots of a run")
    rep.add_argument("results")
    rep.add_argument("--bandwidth", type=float, help="HBM bytes/s for the roofline")
    rep.add_argument("--membw", help="membw.py JSON (used when --bandwidth is not given)")
    rep.add_argument("--compile-times", help="compile-times.json of the bundles")
    rep.add_argument("--odd-flag", help="the flag the odd group ran with, for the notes")
    rep.add_argument("--gpu-info", help="nvidia-smi output to keep in results.json")
    rep.add_argument("--no-plots", action="store_true")
    sel = sub.add_parser("select", help="print the bundle each sweep shape gets")
    sel.add_argument("--bundles", help="only bundles compiled here")
    sel.add_argument("--json", help="also write the choices here, for `run --selection`")
    for p in (run, rep, sel):
        p.add_argument("--model", help=f"the dispatcher's model (default {DEFAULT_MODEL})")
        p.add_argument("--shapes-dir", help="default: bench/shapes")
    for p in (run, sel):
        p.add_argument("--groups", type=parse_groups, default=shapes_mod.SHAPE_GROUPS,
                       help="comma-separated shape groups (default: the sweep, "
                       f"{','.join(shapes_mod.SHAPE_GROUPS)}; the generated sets: "
                       f"{','.join(shapes_mod.GENERATED_GROUPS)})")
    args = parser.parse_args(argv)

    if args.command == "select":
        available = bundle_names(args.bundles) if args.bundles else None
        selections = select_all(load_model(args.model), args.shapes_dir, available, args.groups)
        if args.json:
            write_selection(selections, args.json)
        for s in selections:
            print(f"{s['group']:8} {s['dtype']:5} {shape_text(s['shape']):>18}  "
                  f"{s['config'].name}  ({s['source']}; {s['class']}"
                  f"{'; transposed' if s['transposed'] else ''})")
        return 0
    if args.command == "run":
        l2_modes = ("warm", "cold") if args.l2 == "both" else (args.l2,)
        # With --selection the choices were made elsewhere: no model (and no
        # gemm package) needed here.
        model = None if args.selection else load_model(args.model)
        failures = run_suite(args.runner, args.bundles, args.results, model, l2_modes,
                             args.odd_flag, args.warmup, args.iters, args.shapes_dir,
                             args.groups, selection_path=args.selection,
                             timing=args.timing)
        for f in failures:
            print(f"suite: {f['group']} {f['bundle']} (L2 {f['l2']}) exited {f['exit']}",
                  file=sys.stderr)
        return 1 if failures else 0
    text, written = write_report(args.results, bandwidth_figure(args.bandwidth, args.membw),
                                 args.odd_flag, args.compile_times, args.model or DEFAULT_MODEL,
                                 args.gpu_info, plot=not args.no_plots,
                                 shapes_dir=args.shapes_dir)
    sys.stdout.write(text)
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    from gemm_bench.suite import main as package_main
    sys.exit(package_main())
