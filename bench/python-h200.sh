#!/usr/bin/env bash
# The Python package on a GPU machine that has CUDA, PyTorch and no MLIR or
# package registry: builds gemm-runner and installs the package from source
# (its binding against the runtime), with a self-contained gemm-opt and the
# kernel library made on a machine with the compiler, then runs the package's
# whole pytest suite (GPU tests included) and times the Python call path
# beside torch.matmul. Results go to RESULTS.
#
#   bench/python-h200.sh RESULTS
#
# PART=grouped (one call of about 5 minutes): installs the package only (no
# gemm-runner), runs the grouped tests (python/tests/test_grouped.py, GPU
# ones included) and times the dispatcher's grouped pick (gemm.grouped_mm)
# against torch._grouped_mm in one process, alternating the two every
# repetition (bench/grouped-torch.py --vs-gemm), on the issue's four MoE
# problems and on the unseen set (drawn with another seed than the sets the
# kernel choice is fitted on); RESULTS/grouped.md has the tables. ITERS
# (default 20) sets the timed repetitions, SETS (default "issue unseen")
# the problem sets.
#
# What it carries in the working tree (.device/, .whl/) is listed in
# bench/lib/install-package.sh, which installs the package.
set -uo pipefail
results=${1:?results directory}
mkdir -p "$results"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"
python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)' |
  tee -a "$results/gpu.txt"

part=${PART:-all}
start=$(date +%s)
if [ "$part" != grouped ]; then
  source "$root/bench/lib/build-runner.sh"
  build_gemm_runner "$results/build-runner.log" || exit 2
fi
source "$root/bench/lib/install-package.sh"
install_gemm_package "$results/pip-install.log" || exit 2
echo "installed ($(( $(date +%s) - start )) s)"

status=0
export GEMM_CACHE_DIR=/tmp/gemm-cache
if [ "$part" = grouped ]; then
  (cd python && PYTHONUNBUFFERED=1 timeout 240 python3 -m pytest -rs -v -p no:cacheprovider \
    --durations=10 --junitxml="$results/pytest-grouped.xml" tests/test_grouped.py) \
    > "$results/pytest-grouped.log" 2>&1 || status=1
  tail -15 "$results/pytest-grouped.log"
  echo "grouped tests done ($(( $(date +%s) - start )) s)"
  for set in ${SETS:-issue unseen}; do
    python3 bench/grouped-torch.py --write-plan "$results/grouped-$set-plan.txt" --set $set
    PYTHONUNBUFFERED=1 timeout 150 python3 bench/grouped-torch.py "$results/grouped-$set-plan.txt" \
      --vs-gemm --iters "${ITERS:-20}" --warmup 3 > "$results/grouped-$set.jsonl" \
      2> "$results/grouped-$set.err" || status=1
    echo "grouped $set set timed ($(( $(date +%s) - start )) s)"
  done
  python3 - "$results" <<'PY' > "$results/grouped.md"
import json, math, os, sys
results = sys.argv[1]
print("# gemm.grouped_mm (the dispatcher's pick) vs torch._grouped_mm, bf16\n")
print("One process, same tensors, the two calls alternating every repetition; "
      "medians of CUDA-event times (ours includes the group table's prep kernel "
      "and the offsets' concatenation). queued: 10 calls back to back between the "
      "events, the GPU time per call; idle: one call after a synchronisation, which "
      "adds the host's work of the call; host: the host's time per call.\n")
titles = {"issue": "The issue's MoE problems (the dispatcher's grouped residuals are fitted "
                   "on them and on the train, train2, test and heldout sets)",
          "unseen": "MoE problems drawn with seed 20261126 (never measured before the fit)",
          "test": "MoE problems drawn with seed 20261124 (fitted on)",
          "heldout": "MoE problems drawn with seed 20261125 (fitted on)"}
for set_name in os.environ.get("SETS", "issue unseen").split():
    print(f"## {titles.get(set_name, set_name)}\n")
    print("| problem | G | rows | N | K | kernel | ours TFLOP/s | torch TFLOP/s | ours/torch "
          "| idle: ours/torch | host us: ours, torch | rel. diff |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, idle = [], []
    path = os.path.join(results, f"grouped-{set_name}.jsonl")
    for line in open(path) if os.path.exists(path) else []:
        r = json.loads(line)
        if "error" in r:
            print(f"| {r['name']} | | | | | error: {r['error'][:120]} | | | | | | |")
            continue
        ratios.append(r["ours_over_torch"])
        idle.append(r["ours_over_torch_idle"])
        print(f"| {r['name']} | {r['G']} | {r['rows']} | {r['n']} | {r['k']} | "
              f"{r['kernel'].replace('sm90_bf16_', '')} | {r['ours']['tflops']:.1f} | "
              f"{r['torch']['tflops']:.1f} | {r['ours_over_torch']:.3f} | "
              f"{r['ours_over_torch_idle']:.3f} | {r['ours']['host_us']:.0f}, "
              f"{r['torch']['host_us']:.0f} | {r['ours_vs_torch_rel_diff']:.1e} |")
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    if ratios:
        print(f"\nqueued: geomean ours/torch {geo(ratios):.3f}, min {min(ratios):.3f}, "
              f"max {max(ratios):.3f}; idle: geomean {geo(idle):.3f}, min {min(idle):.3f}; "
              f"over {len(ratios)} problems\n")
PY
  cat "$results/grouped.md"
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
    --format=csv | tee -a "$results/gpu.txt"
  echo "done ($(( $(date +%s) - start )) s), status $status"
  exit $status
fi
(cd python && GEMM_RUNNER=$runner PYTHONUNBUFFERED=1 timeout 420 python3 -m pytest -rs -v \
  -p no:cacheprovider --durations=10 --junitxml="$results/pytest.xml" tests) \
  > "$results/pytest.log" 2>&1 || status=1
tail -25 "$results/pytest.log"

for tool in memcheck racecheck; do
  (cd /tmp && PYTHONUNBUFFERED=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 "$root/bench/python-sanitize.py") > "$results/sanitize-$tool.log" 2>&1 || status=1
  echo "compute-sanitizer $tool: $(tail -2 "$results/sanitize-$tool.log" | tr '\n' ' ')"
done

PYTHONUNBUFFERED=1 timeout 120 python3 bench/python-overhead.py --json "$results/overhead.json" \
  2>&1 | tee "$results/overhead.txt" || status=1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee -a "$results/gpu.txt"
exit $status
