#!/usr/bin/env bash
# On the GPU machine (CUDA, no MLIR): runs each SM90 bundle prepared by
# bench/sim-h200-prepare.sh on the simulator's problems with the same
# small-integer inputs (gemm-runner --inputs small-int) and compares C with
# the simulator's bit for bit (--expect-c). Every sum is exact in f32 with
# these inputs, so any difference is a real disagreement between the
# simulator's model of the kernel IR and the GPU running its PTX. The GPU's
# grid (132 SMs) differs from the simulator's (8): C must not depend on it.
#
#   bench/sim-h200.sh PREPARED_DIR RESULTS_DIR
#   e.g. bench/sim-h200.sh .bundles/sim-h200 "$OUT"
#
# Writes RESULTS_DIR/runner-NAME_MxNxK.log (and .json) per comparison and
# RESULTS_DIR/summary.txt; exits 1 when any C differs or a run fails.
set -uo pipefail
prepared=${1:?prepared directory (bench/sim-h200-prepare.sh)}
results=${2:?results directory}
mkdir -p "$results"
root=$(cd "$(dirname "$0")/.." && pwd)

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$results/gpu.txt"

status=0
equal=0 differ=0 failed=0
summary=$results/summary.txt
: > "$summary"
for dump in "$prepared"/sim/*.bin; do
  base=$(basename "$dump" .bin)              # NAME_MxNxK_sSEED
  seed=${base##*_s}
  rest=${base%_s*}
  shape=${rest##*_}
  name=${rest%_*}
  IFS=x read -r m n k <<< "$shape"
  log=$results/runner-${name}_${shape}.log
  "$runner" "$prepared/bundles/$name.json" --m "$m" --n "$n" --k "$k" \
    --seed "$seed" --inputs small-int --expect-c "$dump" \
    --json "$results/runner-${name}_${shape}.json" > "$log" 2>&1
  rc=$?
  line=$(grep -E '^C (equals|differs|is )' "$log" | head -1)
  if [ $rc -eq 0 ] && [[ "$line" == "C equals"* ]]; then
    equal=$((equal + 1))
  elif [[ "$line" == "C differs"* || "$line" == "C is "* ]]; then
    differ=$((differ + 1)); status=1
  else
    failed=$((failed + 1)); status=1
    line="exit $rc: $(grep -m1 -i error "$log")"
  fi
  echo "$name ${m}x${n}x${k}: $line" | tee -a "$summary"
done
echo "== $equal equal, $differ differ, $failed failed (of $((equal + differ + failed)))" |
  tee -a "$summary"
tar -C "$results" -czf "$results.tar.gz" . 2>/dev/null && echo "results: $results.tar.gz"
exit $status
