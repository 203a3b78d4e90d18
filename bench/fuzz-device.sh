#!/usr/bin/env bash
# The long fuzz run (docs/Fuzzing.md) on the many cores of the GPU machine,
# which has no LLVM/MLIR: libFuzzer's fork mode (one parent, JOBS worker
# processes sharing one corpus, the run stopping at RUNS executions in all
# or at the first finding) over gemm-fuzz-static.
#
#   bash bench/fuzz-device.sh prepare          here: build gemm-fuzz-static and the
#                                              seed corpus into .device/fuzz/ (carry it)
#   bash bench/fuzz-device.sh run RESULTS [RUNS] [JOBS] [SECONDS]
#                                              there: fuzz from the seeds (defaults
#                                              1e6 executions, one job a core, 540 s)
#
# RESULTS gets command.txt, commit.txt (from prepare), fuzz.log.gz, summary.txt,
# the corpus at the end (corpus.tar.gz) and the findings, if any, under
# artifacts/. A run longer than one device call is split into segments: copy
# one segment's corpus.tar.gz to .device/fuzz/resume.tar.gz and the next
# segment starts from that corpus as well as the seeds. GEMM_FUZZ_SEED (1)
# is libFuzzer's -seed: give each fresh segment its own.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carry=$root/.device/fuzz
mode=${1:?prepare or run}

if [ "$mode" = prepare ]; then
  build=${GEMM_FUZZ_BUILD_DIR:-$root/build-fuzz}
  bash "$root/scripts/fuzz.sh" static || exit 1
  rm -rf "$carry"
  mkdir -p "$carry"
  xz -T2 -6 -c "$build/bin/gemm-fuzz-static" > "$carry/gemm-fuzz-static.xz"
  tar -C "$build/corpus" -czf "$carry/seeds.tar.gz" seeds
  { git -C "$root" rev-parse HEAD; git -C "$root" status --short; } > "$carry/commit.txt"
  du -sh "$carry"
  exit 0
fi
[ "$mode" = run ] || { echo "usage: $0 prepare | run RESULTS [RUNS] [JOBS] [SECONDS]" >&2; exit 2; }

results=${2:?results directory}
runs=${3:-1000000}
jobs=${4:-$(nproc)}
seconds=${5:-540}
[ -f "$carry/gemm-fuzz-static.xz" ] ||
  { echo "no $carry/gemm-fuzz-static.xz: run '$0 prepare' on a machine with LLVM/MLIR and carry .device/fuzz" >&2; exit 2; }
mkdir -p "$results"
work=$(mktemp -d)
# Python's lzma: the GPU machine may have no xz.
python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$carry/gemm-fuzz-static.xz" "$work/gemm-fuzz" || exit 2
chmod +x "$work/gemm-fuzz"
tar -C "$work" -xzf "$carry/seeds.tar.gz"
mkdir -p "$work/corpus" "$results/artifacts"
[ -f "$carry/resume.tar.gz" ] && tar -C "$work/corpus" -xzf "$carry/resume.tar.gz"
resumed=$(ls "$work/corpus" | wc -l)
cp "$carry/commit.txt" "$results/commit.txt"
cmd=("$work/gemm-fuzz" "$work/corpus" "$work/seeds" "-seed=${GEMM_FUZZ_SEED:-1}" "-fork=$jobs" "-runs=$runs"
     "-max_total_time=$seconds" -timeout=120 -rss_limit_mb=4096 -print_final_stats=1
     "-artifact_prefix=$results/artifacts/")
echo "${cmd[*]}" > "$results/command.txt"
lscpu | grep -E "^(Model name|CPU\(s\)):" >> "$results/command.txt"
start=$(date +%s)
"${cmd[@]}" > "$results/fuzz.log" 2>&1
code=$?
end=$(date +%s)
{
  echo "exit code: $code (0: the run ended without a finding)"
  echo "wall time: $((end - start)) s, $jobs jobs"
  echo "seed corpus: $(ls "$work/seeds" | wc -l) inputs (make-corpus.py over test/)"
  echo "resumed from: $resumed inputs of an earlier segment's corpus"
  echo "corpus at the end: $(ls "$work/corpus" | wc -l) inputs"
  grep -m1 "inline 8-bit counters" "$results/fuzz.log"
  # Fork mode's status lines: executions so far, coverage, corpus, crashes.
  grep -E "^#[0-9]+: cov" "$results/fuzz.log" | tail -3
  grep -E "fuzzed for [0-9]+ iterations|INFO: exiting|DONE" "$results/fuzz.log" | tail -3
  echo "findings: $(ls "$results/artifacts" | wc -l)"
  ls "$results/artifacts"
} > "$results/summary.txt"
cat "$results/summary.txt"
gzip -f "$results/fuzz.log"
tar -C "$work/corpus" -czf "$results/corpus.tar.gz" .
rm -rf "$work"
exit $code
