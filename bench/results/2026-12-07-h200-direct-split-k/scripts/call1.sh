# Issue 16: the direct kernel split along K (a CTA per k-range of a tile,
# the partial tiles reduced by the last to arrive), on the H200:
#  1. gemm-runner --check of every kernel of bench/kernels/direct.mlir (the
#     split-K ones included) over bench/shapes/direct-check.txt, nothing
#     staged; compute-sanitizer memcheck and racecheck of two split-K ones;
#  2. gemm_bench.fit's direct split-K candidates timed on both training
#     sets' shapes where the dispatcher may pick them (`fit measure`, 3
#     warm-ups, 10 runs, GPU timing), for `fit fit --base` of the shipped
#     model.
# Carried: .bundles/dsk, written here by
#   python -m gemm_bench.fit configs --only-match '_direct_.*_k[248]$' --out .bundles/dsk.mlir
#   build/bin/gemm-opt .bundles/dsk.mlir --gemm-to-ptx="output-dir=.bundles/dsk" -o /dev/null
#   python -m gemm_bench.fit plan --only-match '_direct_.*_k[248]$' --json .bundles/dsk/plan-train.json
#   (and --shapes bench/shapes/train2.txt --json .bundles/dsk/plan-train2.json)
#   build/bin/gemm-opt bench/kernels/direct.mlir --gemm-to-ptx="output-dir=.bundles/dsk/check" -o /dev/null
# and .device/nlohmann-json3-dev_3.11.2-2_all.deb.
set -u
R=$OUT/dsk; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/dsk-build.log > /dev/null || { tail -20 /tmp/dsk-build.log; exit 2; }
source bench/lib/check-bundles.sh
counts=$(check_bundles $R/check.log bench/shapes/direct-check.txt .bundles/dsk/check/*.json)
echo "checks: $counts, $(grep -c '(staged' $R/check.log) staged ($SECONDS s)"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for kernel in direct_bf16_64x64_k3 direct_f16_f32out_128x64_rn_k2; do
  for tool in memcheck racecheck; do
    $sanitizer --tool $tool --error-exitcode 9 $runner .bundles/dsk/check/$kernel.json \
      --m 67 --n 150 --k 1100 --check > $R/$tool-$kernel.txt 2>&1
    echo "$tool $kernel exit $? ($SECONDS s)"
  done
done
source bench/lib/fit-measure.sh
measure_plans $R .bundles/dsk train train2
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
