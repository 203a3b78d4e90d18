#!/usr/bin/env bash
# Operand layouts and batched GEMM on the H200 (issue 17), in one call of at
# most ~8 minutes: builds gemm-runner, checks every layout x {bf16, f16} x
# configurations (bench/kernels/sm90-layouts.mlir over
# bench/shapes/layouts-check.txt) and every batched kernel
# (bench/kernels/sm90-batched.mlir over bench/shapes/batched-check.txt, plus
# broadcast operands and gapped entries), runs compute-sanitizer on small
# problems, and times each layout against the K-major kernel (the
# dispatcher's configuration of the shape, the same one in all eight
# layouts) on 4096 and 8192 cubed and LLM shapes, and the batched kernels on
# the three torch.bmm shapes, each interleaved with cuBLASLt (the matching
# transposes; strided-batched for batches). Writes RESULTS/results.md (the
# tables), the runner logs and JSON, and RESULTS.tar.gz.
#
#   bench/layouts-h200.sh RESULTS
#
# Carried in the working tree (made on the machine with the compiler):
#   gemm-opt bench/kernels/sm90-layouts.mlir --gemm-to-ptx="output-dir=.bundles/layouts"
#   gemm-opt bench/kernels/sm90-batched.mlir --gemm-to-ptx="output-dir=.bundles/batched"
#   build-venv/bin/python bench/layouts-bundles.py .bundles/speed
# and .device/nlohmann-json3-dev_*.deb where the machine lacks nlohmann-json
# (bench/lib/build-runner.sh). ITERS (default 20) sets the timed runs, JOBS
# (default 4) the concurrent correctness checks.
set -uo pipefail
results=${1:?results directory}
mkdir -p "$results/check" "$results/bench" "$results/sanitizer"
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=$root/.bundles
for dir in layouts batched speed; do
  [ -d "$bundles/$dir" ] || { echo "missing $bundles/$dir (see the header)"; exit 2; }
done
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2
echo "gemm-runner built ($(elapsed))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"
status=0

# ---- correctness: every kernel over its shape list, JOBS at a time --------
check_one() {   # manifest shapes-file
  local name
  name=$(basename "$1" .json)
  "$runner" "$1" --shapes "$2" --check --json "$results/check/$name.json" \
    > "$results/check/$name.log" 2>&1
  echo "$name exit $? $(grep -c ': check PASS' "$results/check/$name.log") PASS $(grep -c ': check FAIL' "$results/check/$name.log") FAIL"
}
export -f check_one
export runner results
{ for m in "$bundles"/layouts/*.json; do echo "$m $root/bench/shapes/layouts-check.txt"; done
  for m in "$bundles"/batched/*.json; do echo "$m $root/bench/shapes/batched-check.txt"; done; } |
  xargs -P "${JOBS:-4}" -L 1 bash -c 'check_one "$0" "$1"' > "$results/check/summary.txt"
# Broadcast operands (batch stride 0) and gapped C entries.
for m in sm90_bf16_akbkcr_batched_128x256_coop sm90_bf16_ambncr_batched_128x256_coop_c2x1 \
         sm90_bf16_akbkcr_batched_64x128_pingpong_k2 sm90_bf16_akbkcc_batched_128x128_coop_f32out; do
  for strides in 0,p,p p,0,800000; do
    log=$results/check/broadcast-$m-${strides//,/_}.log
    "$runner" "$bundles/batched/$m.json" --m 1000 --n 768 --k 512 --batch 6 \
      --batch-strides $strides --check > "$log" 2>&1
    echo "broadcast $m $strides exit $? $(grep -c ': check PASS' "$log") PASS $(grep -c ': check FAIL' "$log") FAIL" \
      >> "$results/check/summary.txt"
  done
done
grep -v " exit 0 " "$results/check/summary.txt" && status=1
echo "correctness: $(grep -c ' exit 0 ' "$results/check/summary.txt") of $(wc -l < "$results/check/summary.txt") runs pass ($(elapsed))"

# ---- compute-sanitizer on small problems ---------------------------------
sanitize() {   # tool bundle args...
  local tool=$1 bundle=$2
  shift 2
  local log=$results/sanitizer/$tool-$(basename "$bundle" .json).log
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$runner" "$bundle" "$@" --check > "$log" 2>&1
  echo "$tool $(basename "$bundle" .json) $*: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | head -1))"
}
{
  sanitize memcheck "$bundles/layouts/sm90_bf16_ambncr_128x256_coop_c2x1.json" --m 300 --n 520 --k 200 &
  sanitize memcheck "$bundles/layouts/sm90_bf16_akbkcc_128x128_coop_f32out.json" --m 300 --n 521 --k 203 &
  wait
  sanitize memcheck "$bundles/batched/sm90_bf16_ambncc_batched_128x256_coop.json" --m 200 --n 264 --k 136 --batch 3 &
  sanitize racecheck "$bundles/layouts/sm90_bf16_ambncc_128x256_coop.json" --m 256 --n 512 --k 128 &
  wait
  sanitize racecheck "$bundles/batched/sm90_bf16_akbkcr_batched_64x128_pingpong_k2.json" --m 200 --n 256 --k 256 --batch 3 --batch-strides 0,p,p &
  sanitize synccheck "$bundles/layouts/sm90_f16_ambncc_128x128_pingpong.json" --m 300 --n 256 --k 256 &
  wait
} > "$results/sanitizer/summary.txt"
cat "$results/sanitizer/summary.txt"
grep -v ": exit 0 " "$results/sanitizer/summary.txt" > /dev/null && status=1
echo "sanitizers done ($(elapsed))"

# ---- speed: each layout beside the K-major kernel, interleaved with cuBLAS -
# The runs of one shape go back to back, in the plan's order; each is ours
# and cuBLAS alternating (gemm-runner --vs cublas).
while read -r group shape layouts bundle; do
  [ -n "$group" ] || continue
  IFS=x read -r -a dims <<< "$shape"
  if [ "${#dims[@]}" = 4 ]; then
    args=(--batch "${dims[0]}" --m "${dims[1]}" --n "${dims[2]}" --k "${dims[3]}")
  else
    args=(--m "${dims[0]}" --n "${dims[1]}" --k "${dims[2]}")
  fi
  json=$results/bench/$group-$shape-${layouts//,/_}-$bundle.json
  "$runner" "$bundles/speed/$bundle.json" "${args[@]}" --bench --vs cublas --warmup 5 \
    --iters "${ITERS:-20}" --json "$json" > "${json%.json}.log" 2>&1 || status=1
  echo "$group $shape $layouts $bundle $json" >> "$results/bench/runs.txt"
done < "$bundles/speed/plan.txt"
echo "timing done ($(elapsed))"

# ---- the tables ----------------------------------------------------------
python3 - "$results" <<'PY' > "$results/results.md"
import json, os, sys
results = sys.argv[1]
print("# Layouts and batched GEMM on the H200\n")
print("## Correctness\n")
summary = open(os.path.join(results, "check", "summary.txt")).read().splitlines()
ok = sum(" exit 0 " in line for line in summary)
print(f"{ok} of {len(summary)} gemm-runner runs pass (every shape of each):\n")
print("```")
print("\n".join(summary))
print("```\n")
print("## compute-sanitizer\n\n```")
print(open(os.path.join(results, "sanitizer", "summary.txt")).read().rstrip())
print("```\n")
runs = []
for line in open(os.path.join(results, "bench", "runs.txt")):
    group, shape, layouts, bundle, path = line.split()
    try:
        r = json.load(open(path))["results"][0]["bench"]
        ours, cublas = r["ours"]["tflops"], r["cublas"]["tflops"]
    except (OSError, KeyError, IndexError, ValueError):
        ours = cublas = None
    runs.append((group, shape, layouts, bundle, ours, cublas))
print("## Speed (bf16, medians of interleaved runs)\n")
print("ours/K-major: this layout's TFLOP/s over the K-major kernel's (a row, b col, c row) "
      "of the same shape; normalized: the same ratio of each run's ours/cuBLAS (each run "
      "interleaves with cuBLAS, so clock drift between runs cancels; cuBLAS runs the "
      "matching transposes).\n")
print("| group | shape | layouts (a,b,c) | kernel | ours TFLOP/s | cuBLAS TFLOP/s | ours/cuBLAS "
      "| ours/K-major | normalized |")
print("|---|---|---|---|---|---|---|---|---|")
base = {}
for group, shape, layouts, bundle, ours, cublas in runs:
    if layouts == "row,col,row" and group != "batched-alternatives" and ours:
        base.setdefault((group, shape), (ours, ours / cublas))
for group, shape, layouts, bundle, ours, cublas in runs:
    if ours is None:
        print(f"| {group} | {shape} | {layouts} | {bundle} | failed | | | | |")
        continue
    b = base.get((group, shape))
    rel = f"{ours / b[0]:.3f}" if b else ""
    norm = f"{(ours / cublas) / b[1]:.3f}" if b else ""
    print(f"| {group} | {shape} | {layouts} | {bundle} | {ours:.1f} | {cublas:.1f} | "
          f"{ours / cublas:.3f} | {rel} | {norm} |")
PY
cat "$results/results.md" | tail -70
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee -a "$results/gpu.txt"
tar -C "$results" -czf "$results.tar.gz" . && echo "results: $results.tar.gz ($(elapsed))"
exit $status
