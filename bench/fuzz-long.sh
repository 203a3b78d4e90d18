#!/usr/bin/env bash
# The long fuzz run (docs/Fuzzing.md), recorded as in
# bench/results/2026-11-24-fuzz/: one libFuzzer process at nice 19, from the
# seed corpus alone (an empty corpus directory), with a fixed seed, until
# RUNS executions (default 1e6) or the first finding.
#
#   bash bench/fuzz-long.sh RESULTS [RUNS]
#
# It builds the fuzzer (scripts/fuzz.sh build), copies the binary to
# build-fuzz/long/ (so that later builds do not change a running fuzzer),
# and writes into RESULTS: command.txt, commit.txt, fuzz.log (libFuzzer's
# log, gzipped at the end) and summary.txt (executions, time, exec/s,
# coverage, corpus size, findings). Findings go to build-fuzz/long/artifacts.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
results=${1:?results directory}
runs=${2:-1000000}
build=${GEMM_FUZZ_BUILD_DIR:-$root/build-fuzz}

bash "$root/scripts/fuzz.sh" build || exit 1
work=$build/long
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts" "$results"
cp "$build/bin/gemm-fuzz" "$work/gemm-fuzz"
git -C "$root" rev-parse HEAD > "$results/commit.txt"
git -C "$root" status --short >> "$results/commit.txt"
seeds=$(ls "$build/corpus/seeds" | wc -l)
cmd=(nice -n 19 "$work/gemm-fuzz" "$work/corpus" "$build/corpus/seeds"
     -seed=1 "-runs=$runs" -timeout=120 -rss_limit_mb=4096
     -print_final_stats=1 "-artifact_prefix=$work/artifacts/")
echo "GEMM_FUZZ_STATS=1 ${cmd[*]}" > "$results/command.txt"
start=$(date +%s)
GEMM_FUZZ_STATS=1 "${cmd[@]}" > "$results/fuzz.log" 2>&1
code=$?
end=$(date +%s)

{
  echo "exit code: $code (0: RUNS executions without a finding)"
  echo "wall time: $((end - start)) s"
  echo "seed corpus: $seeds inputs (make-corpus.py over test/)"
  echo "corpus at the end: $(ls "$work/corpus" | wc -l) inputs found"
  grep -m1 "inline 8-bit counters" "$results/fuzz.log"
  grep -E "^#[0-9]+ +(INITED|DONE)" "$results/fuzz.log"
  grep -E "^Done [0-9]+ runs" "$results/fuzz.log"
  grep -E "^stat::" "$results/fuzz.log"
  grep -E "^gemm-fuzz: [0-9]+ inputs" "$results/fuzz.log"
  echo "findings: $(ls "$work/artifacts" | wc -l)"
  ls "$work/artifacts"
} > "$results/summary.txt"
cat "$results/summary.txt"
gzip -f "$results/fuzz.log"
exit $code
