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
# after it; the cache keeps what was measured), DEADLINE_S (570: the whole
# script, build included, should end by then -- a 10-minute call less a
# margin -- so the budget shrinks by the build's time), WORK (runner JSON and
# logs, default /tmp/gemm-tune), RESUME (0; 1: reuse the runner JSON a cut
# search left in WORK -- same bundles and settings -- and carry on),
# WARMUP (10), ITERS (30), COLD_L2 (0|1), PYTHON (python3; numpy and
# matplotlib are not needed here).
# `python -m gemm_bench.tune plan` prints the plan and its time estimate.
set -uo pipefail
start=$SECONDS
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

# What is left of the deadline after the build, less 20 s for the cache,
# the heuristic's evaluation and the last process's overrun of its estimate.
budget=${BUDGET_S:-420}
left=$(( ${DEADLINE_S:-570} - (SECONDS - start) - 20 ))
[ "$left" -lt "${budget%.*}" ] && budget=$left
echo "search budget: $budget s"

export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
# Options of tune run beyond the defaults.
extra=()
[ "${COLD_L2:-0}" = 1 ] && extra=(--cold-l2)
[ "${RESUME:-0}" = 1 ] && extra+=(--resume)
"$python" -m gemm_bench.tune run --runner "$runner" --bundles "$bundles" --work "$work" \
  --cache "$cache" --budget-s "$budget" --warmup "${WARMUP:-10}" \
  --iters "${ITERS:-30}" --gpu-info "$work/gpu.txt" "${extra[@]}"
status=$?
[ -f "$cache" ] && "$python" -m gemm_bench.heuristic --evaluate "$cache" | tee "${cache%.json}-heuristic.md"
echo "cache: $cache; runner JSON and logs: $work"
exit $status
