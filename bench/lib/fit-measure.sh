# Sourced by the GPU-machine scripts that time gemm_bench.fit candidates for
# the dispatcher's model (bench/results/*/scripts):
#
#   source bench/lib/fit-measure.sh
#   measure_plans "$results" .bundles/x train train2
#
# For each SET, `fit measure` of BUNDLES/plan-SET.json (written by `fit plan
# --json`) over the bundles beside it: 3 warm-ups, 10 runs, GPU timing, at
# most $MEASURE_LIMIT_S seconds (default 200) so that a hung run cannot take
# the whole call. Its log goes to RESULTS/measure-SET.log, and `fit collect`
# writes RESULTS/measurements-SET.json.xz of the runs that finished. Prints
# one line per set and one per collect (its error if nothing ran). Needs
# $runner (bench/lib/build-runner.sh).

measure_plans() {
  local results=${1:?results dir} bundles=${2:?bundles dir} source_root set work
  shift 2
  source_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  for set in "$@"; do
    work=${TMPDIR:-/tmp}/fit-$(basename "$bundles")-$set
    rm -rf "$work"
    PYTHONPATH=$source_root/python timeout "${MEASURE_LIMIT_S:-200}" python3 -m gemm_bench.fit measure \
      --plan "$bundles/plan-$set.json" --runner "$runner" --bundles "$bundles" --work "$work" \
      --warmup 3 --iters 10 > "$results/measure-$set.log" 2>&1
    echo "measure $set exit $? ($SECONDS s)"
    PYTHONPATH=$source_root/python python3 -m gemm_bench.fit collect "$work" \
      --out "$results/measurements-$set.json" > "$work.collect" 2>&1 &&
      xz -9f "$results/measurements-$set.json"
    tail -1 "$work.collect"
  done
}
