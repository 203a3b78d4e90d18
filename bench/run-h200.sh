#!/usr/bin/env bash
# Builds gemm-runner from source on a GPU machine that has only CUDA (no MLIR,
# no package registry), then checks every bundle in BUNDLES over the SM90 shape
# list (its odd sizes through gemm-runner's staging of unaligned rows, the
# default), runs compute-sanitizer on two small problems (one staged), checks
# that sm_100a bundles (SM100_BUNDLES, or a relabelled SM90 one) are refused
# before any launch, and benchmarks against cuBLAS. Results go to RESULTS
# (logs and gemm-runner --json files).
#
#   bench/run-h200.sh BUNDLES RESULTS
#
# The bundles are made on a machine with the compiler:
#   gemm-opt bench/kernels/sm90.mlir --gemm-to-ptx="output-dir=.bundles"
# nlohmann-json comes from its Debian package, carried in .device/
# (bench/lib/build-runner.sh).
set -uo pipefail
bundles=${1:?bundle directory}
results=${2:?results directory}
mkdir -p "$results"
root=$(cd "$(dirname "$0")/.." && pwd)

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"

status=0
echo "== correctness: every bundle over bench/shapes/sm90-check.txt"
for manifest in "$bundles"/*.json; do
  name=$(basename "$manifest" .json)
  "$runner" "$manifest" --shapes "$root/bench/shapes/sm90-check.txt" --check \
    --json "$results/check-$name.json" > "$results/check-$name.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name: exit $rc; $(grep -c '^ *[0-9].* PASS ' "$results/check-$name.log") PASS, $(grep -c '^ *[0-9].* FAIL ' "$results/check-$name.log") FAIL"
  grep -E ' FAIL |error' "$results/check-$name.log" | head -5
done

if [ "${SANITIZE:-1}" = 1 ]; then
  echo "== compute-sanitizer on a small problem"
  # 300x521x203: rows of 406 and 1042 bytes, so A, B and C are staged.
  for shape in "300 520 200" "300 521 203"; do
    set -- $shape
    for tool in memcheck racecheck synccheck; do
      log="$results/sanitizer-$tool-$1x$2x$3.log"
      compute-sanitizer --tool $tool --error-exitcode 9 "$runner" \
        "$bundles/${SANITIZE_BUNDLE:-sm90_bf16_128x256_coop}.json" --m $1 --n $2 --k $3 --check \
        > "$log" 2>&1
      echo "$tool $1x$2x$3: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | head -1))"
    done
  done
fi

echo "== sm_100a bundles on this GPU must be refused before any launch (exit 4)"
if [ -n "${SM100_BUNDLES:-}" ]; then
  sm100=("$SM100_BUNDLES"/*.json)
else
  # No SM100 bundles given: an SM90 one relabelled sm_100a.
  first=$(ls "$bundles"/*.json | head -1)
  mkdir -p /tmp/arch-check && cp "${first%.json}".ptx /tmp/arch-check/ &&
    sed -e 's/"arch": *"sm_90a"/"arch": "sm_100a"/' -e '/"cubin"/d' "$first" > /tmp/arch-check/m.json
  sm100=(/tmp/arch-check/m.json)
fi
for manifest in "${sm100[@]}"; do
  log="$results/arch-mismatch-$(basename "$manifest" .json).log"
  "$runner" "$manifest" --m 256 --n 256 --k 128 > "$log" 2>&1
  rc=$?
  echo "$(basename "$manifest"): exit $rc: $(grep -m1 error "$log")"
  [ $rc -eq 4 ] || status=1
done

echo "== benchmark beside cuBLAS (interleaved, random normal inputs)"
for name in ${BENCH_BUNDLES:-sm90_bf16_128x256_coop}; do
  for size in ${BENCH_SIZES:-4096 6144 8192}; do
    "$runner" "$bundles/$name.json" --m $size --n $size --k $size --bench --vs cublas \
      --warmup 10 --iters ${ITERS:-30} --json "$results/bench-$name-$size.json" 2>&1 |
      tee "$results/bench-$name-$size.log" | tail -4
  done
done
tar -C "$results" -czf "$results.tar.gz" . && echo "results: $results.tar.gz"
exit $status
