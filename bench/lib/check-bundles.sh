# Sourced by the GPU-machine scripts (bench/direct-h200.sh,
# bench/narrow-h200.sh): gemm-runner --check of each bundle over a shape list,
# every run's output in one log.
#
#   source "$root/bench/lib/check-bundles.sh"
#   check_bundles "$results/check.log" bench/shapes/x.txt .bundles/x/*.json
#
# Prints "N passed, N failed or errors" and returns 1 when any check failed
# or a run exited non-zero. Needs $runner (bench/lib/build-runner.sh).

check_bundles() {
  local log=${1:?log path} shapes=${2:?shape list} manifest passed failed
  shift 2
  for manifest in "$@"; do
    timeout 120 "$runner" "$manifest" --shapes "$shapes" --check ||
      echo "FAILED: $manifest (exit $?)"
  done > "$log" 2>&1
  passed=$(grep -c "check PASS" "$log")
  failed=$(grep -c "check FAIL\|FAILED\|error" "$log")
  echo "$passed passed, $failed failed or errors"
  [ "$failed" -eq 0 ]
}
