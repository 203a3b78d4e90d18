#!/usr/bin/env bash
# debug-waits on a GPU: a planted protocol bug traps with a message instead of
# hanging, and what bounding the waits costs a correct kernel.
#
#   bench/debug-waits.sh make BUNDLES          # here, with gemm-opt (build/bin)
#   bench/debug-waits.sh run BUNDLES RESULTS   # on the GPU machine
#
# `make` compiles the default kernel (bench/kernels/default.mlir, 128x256x64
# cooperative) six ways: release and debug-waits=1000, each also with one of
# two bugs planted after materialization: an mbarrier bug (the stage's
# expect_tx one 1 KB box too large, so the consumers' full barrier never
# completes; compiled past gemm-check-pipelines with checks=false) and a
# named-barrier bug (the epilogue's first bar.sync counts 160 threads where
# its warpgroup's 128 arrive). It also compiles a split-K kernel (the fixup's
# bar.red.or, bounded under debug-waits) release and debug.
# `run` builds gemm-runner (bench/lib/build-runner.sh), runs the buggy debug
# kernels (expected: exit 7 and the wait that gave up, named from the
# kernel's wait record, about a second after the launch: the consumers' full
# barrier, then "named barrier (bar.sync) of 160 threads: barrier id 1, 128
# thread(s) arrived"), checks the split-K kernels on shapes that split,
# checks and times the correct release and debug kernels beside cuBLAS in
# alternating rounds (ROUNDS, default 7), and last runs the buggy release
# kernels (expected: hangs reported after --timeout-ms, exit 6).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?make or run}
bundles=${2:?bundle directory}

if [ "$mode" = make ]; then
  opt=${GEMM_OPT:-$root/build/bin/gemm-opt}
  kernel=$root/bench/kernels/default.mlir
  mkdir -p "$bundles"/{release,debug,bad-release,bad-debug,bad-named-release,bad-named-debug}
  mkdir -p "$bundles"/{splitk-release,splitk-debug}
  "$opt" "$kernel" --gemm-to-ptx="output-dir=$bundles/release" -o /dev/null &&
  "$opt" "$kernel" --gemm-to-ptx="output-dir=$bundles/debug debug-waits=1000" \
    -o /dev/null &&
  "$opt" "$kernel" --gemm-materialize-sm90 |
    sed 's/tx(49152)/tx(50176)/' > "$bundles/bad.mlir" &&
  "$opt" "$bundles/bad.mlir" --gemm-to-ptx="output-dir=$bundles/bad-release checks=false" \
    -o /dev/null &&
  "$opt" "$bundles/bad.mlir" \
    --gemm-to-ptx="output-dir=$bundles/bad-debug checks=false debug-waits=1000" -o /dev/null ||
    exit 2
  grep -q 'tx(50176)' "$bundles/bad.mlir" || { echo "the bug was not planted"; exit 2; }
  # The named-barrier bug: the first `nvvm.barrier id = %x number_of_threads
  # = %y` (the epilogue's, before its staging writes) counts 160 threads.
  "$opt" "$kernel" --gemm-materialize-sm90 |
    sed '0,/nvvm.barrier id = \(%[^ ]*\) number_of_threads = %[^ ]*/s//%planted_threads = arith.constant 160 : i32\n          nvvm.barrier id = \1 number_of_threads = %planted_threads/' \
    > "$bundles/bad-named.mlir" &&
  "$opt" "$bundles/bad-named.mlir" --gemm-to-ptx="output-dir=$bundles/bad-named-release" \
    -o /dev/null &&
  "$opt" "$bundles/bad-named.mlir" \
    --gemm-to-ptx="output-dir=$bundles/bad-named-debug debug-waits=1000" -o /dev/null ||
    exit 2
  grep -q 'number_of_threads = %planted_threads' "$bundles/bad-named.mlir" ||
    { echo "the named-barrier bug was not planted"; exit 2; }
  grep -A1 '@sm90_bf16_64x128_pingpong_k2 ' "$root/bench/kernels/sm90.mlir" \
    > "$bundles/split-k.mlir" &&
  "$opt" "$bundles/split-k.mlir" --gemm-to-ptx="output-dir=$bundles/splitk-release" \
    -o /dev/null &&
  "$opt" "$bundles/split-k.mlir" \
    --gemm-to-ptx="output-dir=$bundles/splitk-debug debug-waits=1000" -o /dev/null || exit 2
  echo "bundles in $bundles"
  exit 0
fi

results=${3:?results directory}
mkdir -p "$results"
source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2
name=gemm_sm90_bf16
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"

# The buggy kernel VARIANT at 512 cubed: exit code and wall time of the whole
# process (CUDA start-up included) into RESULTS/VARIANT.log.
run_buggy() {
  local variant=$1 timeout_ms=$2 start end code
  start=$(date +%s%N)
  "$runner" "$bundles/$variant/$name.json" --m 512 --n 512 --k 512 \
    --timeout-ms "$timeout_ms" > "$results/$variant.log" 2>&1
  code=$?
  end=$(date +%s%N)
  echo "exit $code after $(( (end - start) / 1000000 )) ms" | tee -a "$results/$variant.log"
  grep -m2 "error" "$results/$variant.log"
}

echo "== the planted bug with debug-waits=1000"
run_buggy bad-debug 30000
echo "== the planted named-barrier bug with debug-waits=1000"
run_buggy bad-named-debug 30000

echo "== split-K (bar.red.or in the fixup), release and debug-waits=1000"
for variant in splitk-release splitk-debug; do
  "$runner" "$bundles/$variant/sm90_bf16_64x128_pingpong_k2.json" --shapes <(printf '%s\n' \
    "64 128 8192" "1000 1000 1000" "4096 4096 4096" "128 8192 8192") --check \
    > "$results/$variant.log" 2>&1
  echo "$variant: exit $?" | tee -a "$results/$variant.log"
  grep -E "PASS|FAIL" "$results/$variant.log" | head -8
done

rounds=${ROUNDS:-7}
echo "== the correct kernel, release and debug-waits=1000, alternating ($rounds rounds)"
mkdir -p "$results/runs"
for round in $(seq "$rounds"); do
  for variant in release debug; do
    "$runner" "$bundles/$variant/$name.json" --shapes <(printf '%s\n' \
      "4096 4096 4096" "8192 8192 8192" "128 8192 8192" "16 8192 8192" "1000 1000 1000") \
      --check --bench --vs cublas --json "$results/runs/$variant-$round.json" \
      > "$results/runs/$variant-$round.log" 2>&1 ||
      echo "$variant round $round: exit $?"
  done
done
python3 - "$results" "$rounds" <<'EOF' | tee "$results/cost.md"
import json, statistics, sys
results, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for variant in ("release", "debug"):
    for round in range(1, rounds + 1):
        data = json.load(open(f"{results}/runs/{variant}-{round}.json"))
        for r in data["results"]:
            key = f"{r['m']}x{r['n']}x{r['k']}"
            rows.setdefault(key, {}).setdefault(variant, []).append(
                (r["bench"]["ours"]["median_ms"], r["bench"]["speedup_vs_cublas"],
                 r["check"]["passed"]))
print(f"Medians of {rounds} rounds (each: 10 warm-up, 50 timed runs interleaved with cuBLASLt).")
print()
print("| shape | release ms | debug ms | debug / release | release vs cuBLAS | debug vs cuBLAS | checks |")
print("|---|---:|---:|---:|---:|---:|---|")
for key, v in rows.items():
    rel = statistics.median(x[0] for x in v["release"])
    dbg = statistics.median(x[0] for x in v["debug"])
    ok = all(x[2] for x in v["release"] + v["debug"])
    print(f"| {key} | {rel:.4f} | {dbg:.4f} | {dbg / rel:.3f} | "
          f"{statistics.median(x[1] for x in v['release']):.3f}x | "
          f"{statistics.median(x[1] for x in v['debug']):.3f}x | {'PASS' if ok else 'FAIL'} |")
EOF
tar -C "$results" -czf "$results/runs.tar.gz" runs && rm -rf "$results/runs"

echo "== the planted bugs without debug-waits (hang until the runner's timeout)"
run_buggy bad-release 5000
run_buggy bad-named-release 5000
