#!/usr/bin/env bash
# Block-wise fp8 against our per-tensor fp8 kernels and cuBLASLt on the H200
# (issue 18: block-wise at >= 0.9x of our per-tensor kernel), in one call of
# at most ~7 minutes: builds gemm-runner from source (CUDA only), checks the
# kernels of bench/kernels/sm90-blockfp8.mlir (block-wise 128x128, 64x128
# pingpong, 128x192, 128x64, a 2x1 cluster, stream-K and split-K; per-tensor promoted
# and fast) over bench/shapes/blockfp8-check.txt, checks the tiny
# low-precision problems (1x1x1, 8x16x32, 3x5x200) through the kernel
# library and the dispatcher, dumps the SASS of the block-wise mainloop, and
# times every block-wise and per-tensor kernel beside cuBLASLt (interleaved
# in each process) over the squares, 2048x28672x8192, 128x8192x8192 and the
# LLM sweep, in ROUNDS rounds of alternating kernel order; the report takes
# the median over the rounds. Writes README.md (the tables) and every
# gemm-runner --json file under RESULTS.
#
#   gemm-opt bench/kernels/sm90-blockfp8.mlir --gemm-to-ptx="output-dir=.bundles/blockfp8"  # here
#   rm -rf .bundles/library && cp -r build/kernels .bundles/library                      # here
#   bash bench/blockfp8-h200.sh RESULTS                                                  # there
#
# BUNDLES=DIR overrides .bundles/blockfp8, LIBRARY=DIR .bundles/library (absent:
# the tiny problems are skipped); GEMM_RUNNER=PATH skips the build; ROUNDS
# (default 3), ITERS (default 30); BUDGET_S (default 400) cuts later phases.
set -uo pipefail
results=${1:?results directory}
mkdir -p "$results"/{checks,library,bench,sass}
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=${BUNDLES:-$root/.bundles/blockfp8}
library=${LIBRARY:-$root/.bundles/library}
rounds=${ROUNDS:-3}
iters=${ITERS:-30}
budget=${BUDGET_S:-400}
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }

[ -f "$bundles/bf_block_128x128.json" ] ||
  { echo "no bundles in $bundles (see the header of $0)"; exit 2; }
source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || { tail -30 "$results/build.log"; exit 2; }
echo "gemm-runner built after $(elapsed) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"
status=0

echo "== correctness: every kernel over bench/shapes/blockfp8-check.txt"
for manifest in "$bundles"/*.json; do
  name=$(basename "$manifest" .json)
  timeout 120 "$runner" "$manifest" --shapes "$root/bench/shapes/blockfp8-check.txt" --check \
    --timeout-ms 20000 --json "$results/checks/$name.json" > "$results/checks/$name.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name: exit $rc; $(grep -c 'check PASS' "$results/checks/$name.log") PASS," \
       "$(grep -c 'check FAIL' "$results/checks/$name.log") FAIL"
  grep -E 'check FAIL|error' "$results/checks/$name.log" | head -3
done
echo "correctness done after $(elapsed) s"

if [ -f "$library/library.json" ]; then
  echo "== tiny low-precision problems through the dispatcher (--library)"
  # TYPE OUT QUANT: libraryLowPrecisionProblems() (lib/Dispatch/Dispatcher.cpp).
  for problem in "e4m3 bf16 tt" "e4m3 bf16 rc" "e4m3 bf16 bb" "s8 s32 -" "s8 bf16 rc" "f32 f32 -"; do
    read -r dtype out quant <<< "$problem"
    qarg=()
    [ "$quant" = - ] || qarg=(--quant "$quant")
    for shape in "1 1 1" "8 16 32" "3 5 200" "1 1 1 --layout row,col,col"; do
      read -r m n k extra <<< "$shape"
      # Block-wise scales have no transposed problem (docs/LowPrecision.md).
      [ "$quant" = bb ] && [ -n "$extra" ] && continue
      tag="$dtype-$out-$quant-${m}x${n}x${k}${extra:+-ccol}"
      timeout 60 "$runner" --library "$library" --dtype "$dtype" --out-dtype "$out" "${qarg[@]}" \
        --m "$m" --n "$n" --k "$k" ${extra:+$extra} --check --reference naive --timeout-ms 20000 \
        --json "$results/library/$tag.json" > "$results/library/$tag.log" 2>&1
      rc=$?
      [ $rc -eq 0 ] || status=1
      echo "$tag: exit $rc, $(sed -n 's/^library: \([^ ]*\) for.*/\1/p' "$results/library/$tag.log")," \
           "$(grep -oE 'check (PASS|FAIL)' "$results/library/$tag.log" | head -1)"
      [ $rc -eq 0 ] || grep -E 'error|FAIL' "$results/library/$tag.log" | head -2
    done
  done
  echo "library done after $(elapsed) s"
else
  echo "== no kernel library in $library: the tiny problems are skipped"
fi

echo "== SASS of the block-wise and per-tensor mainloops (cuobjdump)"
for name in bf_block_128x128 bf_t_128x128 bf_tfast_128x128; do
  cubin="$bundles/$name.cubin"
  [ -f "$cubin" ] || { ptxas -arch=sm_90a "$bundles/$name.ptx" -o "$results/sass/$name.cubin" &&
                       cubin="$results/sass/$name.cubin"; }
  cuobjdump -sass "$cubin" > "$results/sass/$name.sass" 2>&1
  echo "$name: $(grep -c 'QGMMA' "$results/sass/$name.sass") QGMMA," \
       "$(grep -c 'WARPGROUP.DEPBAR' "$results/sass/$name.sass") WARPGROUP.DEPBAR," \
       "$(grep -c 'WARPGROUP.ARRIVE' "$results/sass/$name.sass") WARPGROUP.ARRIVE," \
       "$(grep -cE 'LDG.*CONSTANT|LDG.E.CONSTANT' "$results/sass/$name.sass") LDG.CONSTANT"
done

echo "== benchmark beside cuBLASLt (interleaved per process, $rounds rounds, --iters $iters)"
main=("4096 4096 4096" "8192 8192 8192" "2048 28672 8192" "128 8192 8192")
printf '%s\n' "${main[@]}" > "$results/bench/main.shapes"
grep -vE '^#|^$' "$root/bench/shapes/llm.txt" > "$results/bench/llm.shapes"
timed=(bf_block_128x128 bf_t_128x128 bf_block_64x128_pp bf_t_64x128_pp bf_block_128x128_c2x1
       bf_tfast_128x256 bf_block_128x192 bf_t_128x192 bf_block_128x64 bf_tfast_128x128)
bench() { # ROUND SET KERNEL
  local tag="$2-$3-r$1"
  if [ "$(elapsed)" -gt $((budget - 30)) ]; then
    echo "skipped $tag (time budget)"
    return
  fi
  timeout 150 "$runner" "$bundles/$3.json" --shapes "$results/bench/$2.shapes" --bench --vs cublas \
    --warmup 10 --iters "$iters" --timeout-ms 20000 --json "$results/bench/$tag.json" \
    > "$results/bench/$tag.log" 2>&1 || status=1
}
for round in $(seq 1 "$rounds"); do
  order=("${timed[@]}")
  # Alternate the order between rounds (clock and thermal drift).
  if [ $((round % 2)) -eq 0 ]; then
    order=()
    for ((i = ${#timed[@]} - 1; i >= 0; i--)); do order+=("${timed[i]}"); done
  fi
  for name in "${order[@]}"; do
    bench "$round" main "$name"
    # The LLM sweep: the block-wise kernels and the per-tensor ones of the
    # same tiles, and the fastest per-tensor one.
    case $name in
      bf_block_128x128|bf_t_128x128|bf_block_64x128_pp|bf_t_64x128_pp|bf_block_128x192|\
      bf_t_128x192|bf_tfast_128x256)
        bench "$round" llm "$name" ;;
    esac
  done
  echo "round $round done after $(elapsed) s"
done

if [ -f "$library/library.json" ]; then
  echo "== the dispatcher's block-wise and per-tensor picks from the library, timed"
  mkdir -p "$results/libbench"
  for quant in bb tt; do
    for shape in "${main[@]}"; do
      read -r m n k <<< "$shape"
      tag="$quant-${m}x${n}x${k}"
      [ "$(elapsed)" -gt $((budget - 10)) ] && { echo "skipped $tag (time budget)"; continue; }
      timeout 60 "$runner" --library "$library" --dtype e4m3 --out-dtype bf16 --quant "$quant" \
        --m "$m" --n "$n" --k "$k" --bench --vs cublas --warmup 10 --iters "$iters" \
        --timeout-ms 20000 --json "$results/libbench/$tag.json" > "$results/libbench/$tag.log" 2>&1 ||
        status=1
      echo "  $tag: $(sed -n 's/^library: \([^ ]*\) for.*/\1/p' "$results/libbench/$tag.log")"
    done
  done
fi

python3 "$root/bench/blockfp8-report.py" "$results" > "$results/README.md" ||
  echo "the report failed (the JSON files are there)"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee -a "$results/gpu.txt"
echo "done after $(elapsed) s; status $status; report: $results/README.md"
sed -n '/^## Block-wise against/,$p' "$results/README.md" | head -60
exit $status
