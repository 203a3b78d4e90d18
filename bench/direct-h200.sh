#!/usr/bin/env bash
# The direct kernels (schedule = direct) on an H200, in one device call of
# at most about 8 minutes (BUDGET; issue 16: small problems whose rows TMA
# cannot read):
#
#  1. correctness: gemm-runner --check of every kernel of
#     bench/kernels/direct.mlir (bf16 and f16 in; bf16, f16, f32 out) over
#     bench/shapes/direct-check.txt (1x1x1, odd sizes 1..301, K < 64, tails
#     of one row, the issue's problems); nothing may be staged;
#  2. compute-sanitizer memcheck (44x206x46, 278x38x50) and racecheck
#     (44x206x46) of a one- and a two-warpgroup direct kernel;
#  3. the issue's problems (bench/shapes/direct-issue.txt) timed beside
#     cuBLASLt: three direct kernels and the 64x64 pingpong TMA kernel with
#     its staging copies (the call as a caller sees it);
#  4. the training matrix again (python -m gemm_bench.fit measure over the
#     plan of .bundles/fit: every candidate, the direct ones included, on the
#     training shapes it applies to; TMA kernels with --unaligned stage),
#     collected into measurements.json for `gemm_bench.fit fit`.
#
# On the compiler machine first (bundles go to .bundles/, which the device
# call carries):
#   gemm-opt bench/kernels/direct.mlir --gemm-to-ptx="output-dir=.bundles/direct"
#   mkdir -p .bundles/fit
#   PYTHONPATH=python build-venv/bin/python -m gemm_bench.fit configs --out .bundles/fit/candidates.mlir
#   PYTHONPATH=python build-venv/bin/python -m gemm_bench.compile .bundles/fit/candidates.mlir --out .bundles/fit
#   PYTHONPATH=python build-venv/bin/python -m gemm_bench.fit plan --json .bundles/fit/plan.json
# and .device/nlohmann-json3-dev_*.deb where the machine lacks nlohmann-json
# (bench/lib/build-runner.sh).
# Then, on the GPU machine (writes $OUT/direct/ and $OUT/direct.tgz):
#   bash bench/direct-h200.sh
# And afterwards, anywhere with the gemm package:
#   python -m gemm_bench.fit fit OUT/direct/measurements.json --out bench/tuning/sm90-h200-model.json
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
: "${OUT:?set OUT to the directory results go to}"
R=$OUT/direct
mkdir -p "$R"
for need in .bundles/direct/direct_bf16_64x64.json .bundles/fit/plan.json \
            .bundles/fit/sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0.json \
            .bundles/fit/sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0.json; do
  [ -f "$need" ] || { echo "direct-h200: $need is missing (see the top of this script)"; exit 2; }
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv > "$R/gpu.txt"
source bench/lib/build-runner.sh
build_gemm_runner "$R/build.log" || exit 2
status=0

# 1. Correctness.
source bench/lib/check-bundles.sh
counts=$(check_bundles "$R/check.log" bench/shapes/direct-check.txt .bundles/direct/*.json) || status=1
staged=$(grep -c "(staged" "$R/check.log")
echo "1. checks: $counts, $staged staged (must be 0)" | tee "$R/summary.txt"
[ "$staged" -eq 0 ] || status=1

# 2. Sanitizers, on the smallest kernel and the two-warpgroup one.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  shapes=("44 206 46" "278 38 50")
  [ "$tool" = racecheck ] && shapes=("44 206 46")
  for bundle in direct_bf16_64x64 direct_f16_128x64_rn; do
    for shape in "${shapes[@]}"; do
      set -- $shape
      log=$R/$tool-$bundle-$1x$2x$3.log
      timeout 120 "$sanitizer" --tool "$tool" --error-exitcode 9 \
        "$runner" .bundles/direct/$bundle.json --m "$1" --n "$2" --k "$3" --check > "$log" 2>&1
      code=$?
      echo "2. $tool $bundle $1x$2x$3: exit $code, $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log")" \
        | tee -a "$R/summary.txt"
      [ "$code" -eq 0 ] || status=1
    done
  done
done

# 3. The issue's problems beside cuBLASLt: the direct kernels, and the TMA
# kernel with its staging copies.
mkdir -p "$R/issue"
for name in sm90_bf16_64x32x64_direct_c1x1_rm_s8_st0 sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0 \
            sm90_bf16_128x64x64_direct_c1x1_rm_s8_st0 sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0; do
  timeout 120 "$runner" .bundles/fit/$name.json --shapes bench/shapes/direct-issue.txt --check \
    --bench --vs cublas --warmup 10 --iters 30 --json "$R/issue/$name.json" > "$R/issue/$name.log" 2>&1 \
    || { echo "3. $name: exit $?"; status=1; }
done
python3 - "$R/issue" <<'EOF' | tee -a "$R/summary.txt"
import json, os, sys
rows = {}
for name in sorted(os.listdir(sys.argv[1])):
    if not name.endswith(".json"):
        continue
    data = json.load(open(os.path.join(sys.argv[1], name)))
    for r in data.get("results", []):
        b = r.get("bench") or {}
        if "ours" in b:
            rows.setdefault((r["m"], r["n"], r["k"]), {})[name[len("sm90_bf16_"):-5]] = (
                b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] * 1e3)
names = sorted({n for v in rows.values() for n in v})
print("3. us per call (ratio to cuBLASLt): " + " | ".join(names))
for shape, v in rows.items():
    cublas = next(iter(v.values()))[1]
    cells = [f"{v[n][0]:.1f} ({v[n][1] / v[n][0]:.2f}x)" if n in v else "-" for n in names]
    print(f"   {shape[0]}x{shape[1]}x{shape[2]}: cublas {cublas:.1f} | " + " | ".join(cells))
EOF

# 4. The training matrix, for the refit, in what is left of BUDGET seconds
# (default 450: the whole call stays under 8 minutes;
# what is measured by then is collected).
budget=${BUDGET:-450}
left=$(( budget - SECONDS - 30 ))
[ "$left" -ge 60 ] || left=60
echo "4. fit measure: ${left} s left of ${budget} s" | tee -a "$R/summary.txt"
export PYTHONPATH=$root/python
PYTHONUNBUFFERED=1 timeout "$left" python3 -m gemm_bench.fit measure --plan .bundles/fit/plan.json \
  --runner "$runner" --bundles .bundles/fit --work "$R/fit" --warmup 5 --iters 15 > "$R/fit.log" 2>&1
echo "4. fit measure: exit $?, $(tail -1 "$R/fit.log")" | tee -a "$R/summary.txt"
python3 -m gemm_bench.fit collect "$R/fit" --out "$R/measurements.json" | tee -a "$R/summary.txt" \
  && rm -rf "$R/fit"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv >> "$R/gpu.txt"
cat "$R/gpu.txt"
tar -C "$OUT" -czf "$OUT/direct.tgz" direct
exit $status
