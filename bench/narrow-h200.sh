#!/usr/bin/env bash
# Narrow tiles on an H200 (issue 16), in one device call of at most about
# 9 minutes:
#
#  1. correctness: gemm-runner --check of every kernel of
#     bench/kernels/sm90-narrow.mlir (tile N not a multiple of the 64-column
#     epilogue sub-tile, column-major or row-major C) over
#     bench/shapes/narrow-check.txt;
#  2. compute-sanitizer memcheck and racecheck (200x136x136) of the
#     column-major 128x72 cooperative and 64x104 pingpong kernels and the
#     row-major 128x144 cooperative and 64x88 pingpong ones (the last
#     sub-tile's stmatrix.x2, the packed sub-tile and its narrow TMA store);
#  3. the new candidates (a subset of gemm_bench.fit.CANDIDATES) on the
#     training shapes of the training set and of train2 (python -m
#     gemm_bench.fit measure over the plans of FIT_DIR), collected into
#     measurements-train.json and measurements-train2.json for
#     `gemm_bench.fit fit`.
#
# On the compiler machine first (bundles go to .bundles/, which the device
# call carries), e.g. for the candidates of transposed problems (session 8,
# FIT_DIR .bundles/fit8):
#   gemm-opt bench/kernels/sm90-narrow.mlir --gemm-to-ptx="output-dir=.bundles/narrow"
#   mkdir -p $FIT_DIR
#   PYTHONPATH=python build-venv/bin/python -m gemm_bench.fit configs --out $FIT_DIR/candidates.mlir
#   PYTHONPATH=python build-venv/bin/python -m gemm_bench.compile $FIT_DIR/candidates.mlir --out $FIT_DIR
#   for set in train train2; do
#     PYTHONPATH=python build-venv/bin/python -m gemm_bench.fit plan --shapes bench/shapes/$set.txt \
#       --only-layouts akbkcc --json $FIT_DIR/plan-$set.json
#   done
# (the row-major narrow tiles of session 9, FIT_DIR .bundles/fit9: `plan
# --only-match '^sm90_bf16_[0-9]+x(80|96|112|144|160|176|208)x64_'`, and
# only those candidates compiled). Then, on the GPU machine (writes
# $OUT/narrow/ and $OUT/narrow.tgz):
#   bash bench/narrow-h200.sh [FIT_DIR]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
: "${OUT:?set OUT to the directory results go to}"
fit_dir=${1:-.bundles/fit8}
R=$OUT/narrow
mkdir -p "$R"
for need in .bundles/narrow/sm90_bf16_akbkcc_128x72_coop.json $fit_dir/plan-train.json \
            $fit_dir/plan-train2.json; do
  [ -f "$need" ] || { echo "narrow-h200: $need is missing (see the top of this script)"; exit 2; }
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv > "$R/gpu.txt"
source bench/lib/build-runner.sh
build_gemm_runner "$R/build.log" || exit 2
status=0

# 1. Correctness.
source bench/lib/check-bundles.sh
counts=$(check_bundles "$R/check.log" bench/shapes/narrow-check.txt .bundles/narrow/*.json) || status=1
echo "1. checks: $counts" | tee "$R/summary.txt"

# 2. Sanitizers.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  for bundle in sm90_bf16_akbkcc_128x72_coop sm90_bf16_akbkcc_64x104_pingpong \
                sm90_bf16_akbkcr_128x144_coop sm90_bf16_akbkcr_64x88_pingpong; do
    log=$R/$tool-$bundle.log
    timeout 150 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$runner" .bundles/narrow/$bundle.json --m 200 --n 136 --k 136 --check > "$log" 2>&1
    code=$?
    echo "2. $tool $bundle 200x136x136: exit $code, $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log")" \
      | tee -a "$R/summary.txt"
    [ "$code" -eq 0 ] || status=1
  done
done

# 3. The new candidates on both training sets.
export PYTHONPATH=$root/python
for set in train train2; do
  timeout 300 python3 -m gemm_bench.fit measure --plan $fit_dir/plan-$set.json --runner "$runner" \
    --bundles $fit_dir --work "$R/fit-$set" --warmup 3 --iters 10 > "$R/fit-$set.log" 2>&1 \
    || { echo "3. fit measure $set failed (see fit-$set.log)" | tee -a "$R/summary.txt"; status=1; }
  python3 -m gemm_bench.fit collect "$R/fit-$set" --out "$R/measurements-$set.json" | tail -1 \
    | tee -a "$R/summary.txt"
  rm -rf "$R/fit-$set"
done
echo "3. done ($SECONDS s)" | tee -a "$R/summary.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> "$R/gpu.txt"
tar -C "$OUT" -czf "$OUT/narrow.tgz" narrow
exit $status
