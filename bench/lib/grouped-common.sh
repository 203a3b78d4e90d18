# Sourced by the grouped-GEMM GPU scripts (bench/grouped-h200.sh,
# bench/general-h200.sh): the start (results folders, gemm-runner built,
# the GPU's clocks), the correctness loop, compute-sanitizer and the end.
#
#   source "$root/bench/lib/grouped-common.sh"
#   bench_start "$results"                 # sets $runner, $status, elapsed
#   { echo "BUNDLE.json ARGS..."; ... } | check_runs "$results/check/summary.txt"
#   sanitize memcheck BUNDLE.json ARGS... >> "$results/sanitizer/summary.txt"
#   bench_end
#
# check_runs runs `gemm-runner BUNDLE ARGS --check` for each line of its
# input, JOBS (default 4) at a time, and writes one line per run to the
# summary: "NAME ARGS exit CODE  P PASS  F FAIL"; it sets status=1 when a
# run exits non-zero. A line whose ARGS end in "expect-exit=N" must exit
# with N instead (a refused problem) and print the text after "expect=" in
# its log; such lines are checked the same way.

# `{ ...; } | check_runs FILE` runs check_runs in this shell (it sets
# $status), not in a subshell.
shopt -s lastpipe

bench_start() {
  results=${1:?results directory}
  mkdir -p "$results/check" "$results/bench" "$results/sanitizer"
  start=$(date +%s)
  status=0
  source "$root/bench/lib/build-runner.sh"
  build_gemm_runner "$results/build.log" || exit 2
  echo "gemm-runner built ($(elapsed))"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
    --format=csv | tee "$results/gpu.txt"
}

elapsed() { echo "$(( $(date +%s) - start )) s"; }

# One check run: BUNDLE ARGS... [expect-exit=N expect=TEXT...]
check_one() {
  local bundle=$1 expect_exit=0 expect="" args=() log tag code ok
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      expect-exit=*) expect_exit=${1#expect-exit=} ;;
      expect=*) expect=${*#expect=}; break ;;
      *) args+=("$1") ;;
    esac
    shift
  done
  tag=$(echo "${args[*]}" | tr -c 'A-Za-z0-9_.=-' '_' | cut -c1-60)
  log=$results/check/$(basename "$bundle" .json)-$tag.log
  "$runner" "$bundle" "${args[@]}" --check --json "${log%.log}.json" > "$log" 2>&1
  code=$?
  ok=$code
  if [ "$expect_exit" != 0 ]; then
    # A refused problem: the exit code and the message it must print.
    ok=1
    [ "$code" = "$expect_exit" ] && grep -qF -- "$expect" "$log" && ok=0
  fi
  echo "$(basename "$bundle" .json) ${args[*]} exit $ok (code $code)" \
       "$(grep -c ': check PASS' "$log") PASS $(grep -c ': check FAIL' "$log") FAIL"
}

check_runs() {
  local summary=${1:?summary file}
  export -f check_one
  export runner results
  xargs -P "${JOBS:-4}" -L 1 bash -c 'check_one "$@"' _ > "$summary"
  grep -v " exit 0 " "$summary" && status=1
  echo "correctness: $(grep -c ' exit 0 ' "$summary") of $(wc -l < "$summary") runs pass ($(elapsed))"
}

# compute-sanitizer TOOL on one check run: TOOL BUNDLE ARGS...
sanitize() {
  local tool=$1 bundle=$2
  shift 2
  local log=$results/sanitizer/$tool-$(basename "$bundle" .json).log
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$runner" "$bundle" "$@" --check > "$log" 2>&1
  echo "$tool $(basename "$bundle" .json) $*: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | head -1))"
}

bench_end() {
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
    --format=csv | tee -a "$results/gpu.txt"
  echo "done ($(elapsed)), status $status"
}
