#!/usr/bin/env bash
# The benchmark suite, on the GPU machine: builds gemm-runner (CUDA only),
# runs the shape groups (default the sweep, bench/shapes/{squares,llm,odd}.txt),
# each shape with the bundle the dispatcher picks, interleaved with cuBLASLt
# in one process, and writes RESULTS/results.json (merged), results.md and
# tflops.png, ratio.png, roofline.png, stamped with the GPU, its clocks and
# power limit (gpu.txt, and every runner JSON in RESULTS/runs/).
#
#   bench/suite.sh BUNDLES [RESULTS]
#
# BUNDLES: made on the compiler machine with
#   bench/compile-bundles.sh best .bundles/suite [--groups ...]
# RESULTS: default bench/results/DATE-suite.
# Environment:
#   MODEL            the dispatcher's model (default bench/tuning/sm90-h200-model.json)
#   L2               warm (default), cold (flush L2 before every timed run) or both
#   ODD_SHAPES_FLAG  gemm-runner flags for the odd sizes, whose rows are not
#                    16-byte multiples (default --unaligned stage: our
#                    kernel and cuBLAS read the same packed rows, the
#                    staging copies timed as ours); the report notes it
#   HBM_BW           roofline bandwidth in bytes/s (default: measure the
#                    device-to-device copy bandwidth here)
#   SHAPE_GROUPS     comma-separated shape groups (default: the sweep,
#                    squares,llm,odd; the generated sets of issue 16: train,test)
#   SELECTION        the dispatcher's choices, from `python -m gemm_bench.suite
#                    select --json FILE` on a machine with the gemm package
#                    (without it, this machine's package is asked)
#   TIMING           gemm-runner --timing: gpu (its default; the GPU's work
#                    alone) or call (each call from an idle stream, the
#                    host's launch cost included)
#   WARMUP (10), ITERS (30), PYTHON (python3 with numpy and matplotlib)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=${1:?bundle directory (bench/compile-bundles.sh best DIR)}
results=${2:-$root/bench/results/$(date -u +%Y-%m-%d)-suite}
python=${PYTHON:-python3}
# Set but empty: no flag (gemm-runner's default, which is also staging).
odd_flag=${ODD_SHAPES_FLAG-"--unaligned stage"}
mkdir -p "$results"

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2

if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
    --format=csv | tee "$results/gpu.txt"
fi

export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
model_args=()
[ -n "${MODEL:-}" ] && model_args=(--model "$MODEL")
group_args=()
[ -n "${SHAPE_GROUPS:-}" ] && group_args=(--groups "$SHAPE_GROUPS")
[ -n "${SELECTION:-}" ] && group_args+=(--selection "$SELECTION")
[ -n "${TIMING:-}" ] && group_args+=(--timing "$TIMING")
bandwidth_args=(--membw "$results/membw.json")
if [ -n "${HBM_BW:-}" ]; then
  bandwidth_args=(--bandwidth "$HBM_BW")
else
  "$python" -m gemm_bench.membw --json "$results/membw.json" ||
    echo "note: copy bandwidth not measured; the report uses the H200 figure"
fi
[ -f "$bundles/compile-times.json" ] && cp "$bundles/compile-times.json" "$results/"

"$python" -m gemm_bench.suite run --runner "$runner" --bundles "$bundles" \
  --results "$results" --l2 "${L2:-warm}" --odd-flag="$odd_flag" \
  --warmup "${WARMUP:-10}" --iters "${ITERS:-30}" "${model_args[@]}" "${group_args[@]}"
status=$?
"$python" -m gemm_bench.suite report "$results" "${bandwidth_args[@]}" \
  --compile-times "$results/compile-times.json" --odd-flag="$odd_flag" \
  --gpu-info "$results/gpu.txt" "${model_args[@]}" || status=1
echo "results: $results (results.md, results.json, *.png)"
exit $status
