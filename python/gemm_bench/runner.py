"""Running gemm-runner from the bench tooling: one process per bundle over a
list of shapes (the process set-up, ~1-2 s, is paid once), and what such a
run costs, for planning GPU time. Needs neither the gemm package nor a GPU
to import, so it runs on the GPU machine as it is.
"""
import shlex
import subprocess

# Cost model of one gemm-runner process, for planning (seconds). Set-up: CUDA
# context, cuBLASLt, module load; per shape: allocation, random fill, the
# check's references and comparison.
PROCESS_SETUP_S = 1.5
SHAPE_OVERHEAD_S = 0.25
ASSUMED_TFLOPS = 600e12      # below cuBLAS's ~750: candidates can be slower
ASSUMED_BYTES_PER_S = 3.0e12

# How gemm-runner JSON (and measurement files) without a "timing" field were
# timed: each call launched onto an idle stream (--timing call).
TIMING_BEFORE_THE_FIELD = "call"


def kernel_seconds_estimate(shape, element_bytes=2):
    m, n, k = shape
    return max(2.0 * m * n * k / ASSUMED_TFLOPS,
               (m * k + n * k + m * n) * element_bytes / ASSUMED_BYTES_PER_S) + 5e-6


def process_seconds_estimate(shapes, warmup, iters, checked=True, vs_cublas=True):
    """GPU-machine seconds of one gemm-runner process over `shapes`."""
    total = PROCESS_SETUP_S
    for shape in shapes:
        runs = (2 if vs_cublas else 1) * (warmup + iters) + (3 if checked else 0)
        total += (SHAPE_OVERHEAD_S if checked else 0.05) + runs * kernel_seconds_estimate(shape)
    return total


def run_bundle(runner, bundle_path, shape_list, json_path, warmup, iters, cold_l2,
               extra_args=(), timeout_s=None, check=True, vs_cublas=True, timing=None):
    """Runs `runner` (a command line) on one bundle over `shape_list`, writing
    its --json results to `json_path` and its output beside it (.log, and the
    shapes file .shapes). `timing`: gemm-runner's --timing (None: its
    default). Returns the exit code, None after a timeout."""
    shapes_file = json_path[:-len(".json")] + ".shapes"
    with open(shapes_file, "w") as f:
        f.writelines(f"{m} {n} {k}\n" for m, n, k in shape_list)
    command = (shlex.split(runner) + [bundle_path, "--shapes", shapes_file] +
               (["--check"] if check else []) + ["--bench"] +
               (["--vs", "cublas"] if vs_cublas else []) +
               ["--warmup", str(warmup), "--iters", str(iters), "--json", json_path] +
               (["--cold-l2"] if cold_l2 else []) +
               (["--timing", timing] if timing else []) + list(extra_args))
    with open(json_path[:-len(".json")] + ".log", "w") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=timeout_s)
            return done.returncode
        except subprocess.TimeoutExpired:
            log.write(f"\nrunner: killed after {timeout_s} s\n")
            return None
