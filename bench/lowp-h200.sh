#!/usr/bin/env bash
# The low-precision SM90 kernels (issue 18) on the H200, in one call of about
# 8 minutes: builds gemm-runner from source (CUDA only, no MLIR), checks every
# kernel of bench/kernels/sm90-lowp.mlir (compiled on a machine with the
# compiler and carried in .bundles/lowp/) over squares, LLM, odd and long-K
# shapes with the derived tolerances, compares promoted and fast fp8
# accumulation at K up to 65536, times fp8 (per-tensor, row-wise,
# block-wise), int8 and tf32 kernels interleaved with cuBLASLt, runs
# compute-sanitizer on small problems, and writes a report (README.md with
# the tables) and every gemm-runner --json file to RESULTS.
#
#   gemm-opt bench/kernels/sm90-lowp.mlir --gemm-to-ptx="output-dir=.bundles/lowp"   # here
#   cp -r build/kernels .bundles/library                                             # here
#   bash bench/lowp-h200.sh RESULTS                                                  # there
#
# The kernel library (.bundles/library) is checked through the dispatcher:
# gemm-runner --library picks the bundle of each problem of the library's
# low-precision problems (split-K and stream-K ones included) and checks it.
#
# BUNDLES=DIR overrides .bundles/lowp, LIBRARY=DIR .bundles/library (absent:
# that phase is skipped); GEMM_RUNNER=PATH skips the build;
# SKIP_SANITIZE=1 skips compute-sanitizer. docs/LowPrecision.md describes the
# kernels and the tolerances.
#
# PART=sweep runs the library's low-precision problems through the
# dispatcher over the squares and the LLM sweep (bench/shapes/squares.txt,
# llm.txt: issue 18's speed targets are geomeans over those) beside
# cuBLASLt, and nothing else (about 6 minutes; no BUNDLES needed):
#
#   PART=sweep bash bench/lowp-h200.sh RESULTS                                       # there
set -uo pipefail
results=${1:?results directory}
mkdir -p "$results"/{checks,longk,bench,sanitize}
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=${BUNDLES:-$root/.bundles/lowp}
library=${LIBRARY:-$root/.bundles/library}
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
# Whole-call budget (seconds): later phases are cut short past it.
budget=${BUDGET_S:-470}

part=${PART:-all}
case "$part" in
  all) [ -f "$bundles/lp_e4m3_t_128x128.json" ] ||
         { echo "no bundles in $bundles (see the header of $0)"; exit 2; } ;;
  sweep) [ -f "$library/library.json" ] ||
           { echo "no kernel library in $library (see the header of $0)"; exit 2; } ;;
  *) echo "PART=$part: expected all or sweep"; exit 2 ;;
esac
source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2
echo "gemm-runner built after $(elapsed) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"

status=0
shapes=$root/bench/shapes
# TYPE OUT QUANT ('-': none) of libraryLowPrecisionProblems()
# (lib/Dispatch/Dispatcher.cpp): the kernel library's low-precision problems.
library_problems=("e4m3 bf16 tt" "e4m3 bf16 rc" "e4m3 bf16 bb" "s8 s32 -" "s8 bf16 rc" "f32 f32 -")

# The dispatcher's pick from the library for TYPE OUT QUANT ('-': none) at
# M x N x K, timed beside cuBLASLt into DIR/TAG.json and DIR/TAG.log.
library_bench() { # DIR TAG TYPE OUT QUANT M N K
  local dir=$1 tag=$2 qarg=()
  [ "$5" = - ] || qarg=(--quant "$5")
  timeout 90 "$runner" --library "$library" --dtype "$3" --out-dtype "$4" "${qarg[@]}" \
    --m "$6" --n "$7" --k "$8" --bench --vs cublas --warmup 10 --iters ${ITERS:-30} \
    --timeout-ms 20000 --json "$dir/$tag.json" > "$dir/$tag.log" 2>&1
}

# The report (README.md), the clocks after the run and the status.
finish() {
  python3 "$root/bench/lowp-report.py" "$results" > "$results/README.md" ||
    echo "the report failed (the JSON files are there)"
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
    --format=csv | tee -a "$results/gpu.txt"
  echo "done after $(elapsed) s; status $status; report: $results/README.md"
}

if [ "$part" = sweep ]; then
  echo "== the dispatcher's picks over the squares and the LLM sweep, beside cuBLASLt"
  mkdir -p "$results/sweep"
  for problem in "${library_problems[@]}"; do
    read -r dtype out quant <<< "$problem"
    while read -r m n k; do
      tag="$dtype-$out-$quant-${m}x${n}x${k}"
      if [ "$(elapsed)" -gt $((budget - 30)) ]; then
        echo "skipped $tag (time budget)"
        continue
      fi
      library_bench "$results/sweep" "$tag" $problem "$m" "$n" "$k" || status=1
    done < <(grep -hv '^#' "$shapes/squares.txt" "$shapes/llm.txt")
    echo "$dtype $out $quant done after $(elapsed) s"
  done
  finish
  exit $status
fi
# Kernels checked over the whole list; the others over the short one.
full=" lp_e4m3_t_128x128 lp_e4m3_rc_128x128 lp_e4m3_block_128x128 lp_e4m3_out_e4m3
       lp_e4m3_tfast_128x256 lp_e4m3_e5m2_f16 lp_s8_s32_128x256 lp_s8_u8_bf16_rc
       lp_u8_u8_f16_t lp_tf32_128x256 "

echo "== correctness: every kernel (the whole list for: $full)"
for manifest in "$bundles"/*.json; do
  name=$(basename "$manifest" .json)
  list=$shapes/sm90-lowp-short.txt
  [[ "$full" == *" $name "* ]] && list=$shapes/sm90-lowp-check.txt
  # Batched kernels (issue 17's batches with low precision): M N K BATCH.
  [[ "$name" == *_batched* ]] && list=$shapes/sm90-lowp-batched.txt
  timeout 120 "$runner" "$manifest" --shapes "$list" --check --timeout-ms 20000 \
    --json "$results/checks/$name.json" > "$results/checks/$name.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name: exit $rc; $(grep -c 'check PASS' "$results/checks/$name.log") PASS," \
       "$(grep -c 'check FAIL' "$results/checks/$name.log") FAIL"
  grep -E 'check FAIL|error' "$results/checks/$name.log" | head -3
done
echo "correctness done after $(elapsed) s"

if [ -f "$library/library.json" ]; then
  echo "== the kernel library's low-precision problems through the dispatcher (--library)"
  mkdir -p "$results/library"
  for problem in "${library_problems[@]}"; do
    read -r dtype out quant <<< "$problem"
    qarg=()
    [ "$quant" = - ] || qarg=(--quant "$quant")
    for shape in "1 1 1" "777 333 1100" "128 8192 8192" "4096 4096 4096" "2048 28672 8192" \
                 "8192 8192 8192"; do
      read -r m n k <<< "$shape"
      tag="$dtype-$out-$quant-${m}x${n}x${k}"
      if [ "$(elapsed)" -gt $((budget - 240)) ]; then
        echo "skipped $tag (time budget)"
        continue
      fi
      timeout 60 "$runner" --library "$library" --dtype "$dtype" --out-dtype "$out" "${qarg[@]}" \
        --m "$m" --n "$n" --k "$k" --check --timeout-ms 20000 \
        --json "$results/library/$tag.json" > "$results/library/$tag.log" 2>&1
      rc=$?
      [ $rc -eq 0 ] || status=1
      echo "$tag: exit $rc, $(sed -n 's/^library: \([^ ]*\) for.*/\1/p' "$results/library/$tag.log")," \
           "$(grep -oE 'check (PASS|FAIL)' "$results/library/$tag.log" | head -1)"
    done
  done
  echo "library done after $(elapsed) s"
else
  echo "== no kernel library in $library: the dispatcher phase is skipped"
fi

echo "== long K: fp8 promoted every 128 and 512 of K, and fast, at K = 4096 .. 65536"
printf '256 256 4096\n256 256 16384\n256 256 65536\n1024 1024 65536\n' > "$results/longk/shapes.txt"
for name in lp_e4m3_t_128x128 lp_e4m3_t4_128x128 lp_e4m3_tfast_128x128; do
  timeout 90 "$runner" "$bundles/$name.json" --shapes "$results/longk/shapes.txt" --check \
    --reference cublas --json "$results/longk/$name.json" > "$results/longk/$name.log" 2>&1
  grep -E '^ *[0-9]+ +[0-9]+ +[0-9]+ ' "$results/longk/$name.log" | sed "s/^/$name /"
done

echo "== benchmark beside cuBLASLt (interleaved, --warmup 10 --iters 30)"
bench() { # KIND KERNEL SHAPES...
  local kind=$1 name=$2
  shift 2
  printf '%s\n' "$@" > "$results/bench/$kind-$name.shapes"
  if [ "$(elapsed)" -gt $((budget - 120)) ]; then
    echo "skipped $kind $name (time budget)"
    return
  fi
  timeout 150 "$runner" "$bundles/$name.json" --shapes "$results/bench/$kind-$name.shapes" \
    --bench --vs cublas --warmup 10 --iters ${ITERS:-30} --timeout-ms 20000 \
    --json "$results/bench/$kind-$name.json" > "$results/bench/$kind-$name.log" 2>&1 || status=1
  grep -E 'cuBLAS baseline|TFLOP/s \|' "$results/bench/$kind-$name.log" | sed "s/^/  /" | head -6
}
fp8shapes=("4096 4096 4096" "8192 8192 8192" "2048 28672 8192" "128 8192 8192")
for name in lp_e4m3_t_128x128 lp_e4m3_t_128x192 lp_e4m3_t_128x128_c2x1 lp_e4m3_tfast_128x256; do
  echo "fp8 per-tensor: $name"; bench tensor $name "${fp8shapes[@]}"
done
echo "fp8 per-tensor, small M: lp_e4m3_t_64x128_pp"; bench tensor lp_e4m3_t_64x128_pp "128 8192 8192"
for name in lp_e4m3_rc_128x128 lp_e4m3_rc_128x192; do
  echo "fp8 row-wise: $name"; bench rowwise $name "${fp8shapes[@]}"
done
for name in lp_e4m3_block_128x128 lp_e4m3_block_128x128_c2x1; do
  echo "fp8 block-wise: $name"; bench block $name "${fp8shapes[@]}"
done
for name in lp_s8_s32_128x256 lp_s8_s32_128x256_c2x1 lp_s8_s32_256x128; do
  echo "int8: $name"; bench int8 $name "2048 2048 2048" "4096 4096 4096" "8192 8192 8192"
done
for name in lp_tf32_128x256 lp_tf32_128x256_c2x1; do
  echo "tf32: $name"; bench tf32 $name "4096 4096 4096" "8192 8192 8192"
done
if [ -f "$library/library.json" ]; then
  echo "== the dispatcher's picks from the kernel library, beside cuBLASLt"
  for problem in "e4m3 bf16 tt" "e4m3 bf16 bb" "s8 s32 -" "f32 f32 -"; do
    read -r dtype out quant <<< "$problem"
    for size in 4096 8192; do
      tag="library-$dtype-$out-$quant-$size"
      if [ "$(elapsed)" -gt $((budget - 120)) ]; then
        echo "skipped $tag (time budget)"
        continue
      fi
      library_bench "$results/bench" "$tag" $problem "$size" "$size" "$size" || status=1
      echo "  $tag: $(sed -n 's/^library: \([^ ]*\) for.*/\1/p' "$results/bench/$tag.log")"
      grep -E 'cuBLAS baseline|TFLOP/s \|' "$results/bench/$tag.log" | sed "s/^/  /" | head -4
    done
  done
fi
echo "benchmarks done after $(elapsed) s"

if [ "${SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== compute-sanitizer on small problems (300x520x200: fp8 rows of 200 bytes, staged)"
  sanitize() { # TOOL KERNEL M N K
    local log="$results/sanitize/$1-$2-$3x$4x$5.log"
    if [ "$(elapsed)" -gt $((budget - 20)) ]; then
      echo "$1 $2: skipped (time budget)"
      return
    fi
    timeout 90 compute-sanitizer --tool "$1" --error-exitcode 9 "$runner" "$bundles/$2.json" \
      --m "$3" --n "$4" --k "$5" --check --reference naive > "$log" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || status=1
    echo "$1 $2 $3x$4x$5: exit $rc ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | head -1))"
  }
  for name in lp_e4m3_block_128x128 lp_e4m3_out_e4m3 lp_s8_u8_bf16_rc lp_tf32_128x256 lp_e4m3_rt_sk \
              lp_s8_u8_s32_ccol lp_e4m3_block_ccol_c2x1; do
    sanitize memcheck $name 300 520 200
  done
  for tool in racecheck synccheck; do
    sanitize $tool lp_e4m3_block_128x128 300 520 256
    sanitize $tool lp_e4m3_out_e4m3 300 512 256
  done
fi

finish
cat "$results/README.md" | head -80
exit $status
