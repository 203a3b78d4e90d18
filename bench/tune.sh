#!/usr/bin/env bash
# The configuration search, on the GPU machine: builds gemm-runner (CUDA
# only), runs every candidate bundle over the representative shapes of each
# shape class beside cuBLAS, and writes the tuning cache: the best
# configuration per class with its measured figures and the GPU stamp.
#
#   bench/tune.sh BUNDLES [CACHE]
#
# BUNDLES: made on the compiler machine with
#   bench/compile-bundles.sh tune .bundles/tune
# CACHE: default bench/tuning/sm90-h200.json (and .md beside it, and
# -heuristic.md: how close the heuristic gets to the searched best).
# Environment: BUDGET_S (420: no gemm-runner process starts that would end
# after it; the cache keeps what was measured), WORK (runner JSON and logs,
# default /tmp/gemm-tune), WARMUP (10), ITERS (30), COLD_L2 (0|1),
# PYTHON (python3, with numpy and matplotlib not needed here).
# `python -m gemm_bench.tune plan` prints the plan and its time estimate.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=${1:?bundle directory (bench/compile-bundles.sh tune DIR)}
cache=${2:-$root/bench/tuning/sm90-h200.json}
work=${WORK:-/tmp/gemm-tune}
python=${PYTHON:-python3}
mkdir -p "$work" "$(dirname "$cache")"
[ -f "$bundles/compile-times.json" ] || echo "note: $bundles/compile-times.json missing"

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$work/build.log" || exit 2

if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
    --format=csv | tee "$work/gpu.txt"
fi

export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
cold=()
[ "${COLD_L2:-0}" = 1 ] && cold=(--cold-l2)
"$python" -m gemm_bench.tune run --runner "$runner" --bundles "$bundles" --work "$work" \
  --cache "$cache" --budget-s "${BUDGET_S:-420}" --warmup "${WARMUP:-10}" \
  --iters "${ITERS:-30}" --gpu-info "$work/gpu.txt" "${cold[@]}"
status=$?
[ -f "$cache" ] && "$python" -m gemm_bench.heuristic --evaluate "$cache" | tee "${cache%.json}-heuristic.md"
echo "cache: $cache; runner JSON and logs: $work"
exit $status
