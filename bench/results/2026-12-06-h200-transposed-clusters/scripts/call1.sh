# Issue 16, call 1: the transposed 64-row pingpong tiles 32, 64 and 96 wide
# in 4-CTA clusters (gemm_bench.fit's candidates with cluster 4x1;
# scripts/c4.mlir, compiled into .bundles/c4) checked on
# bench/shapes/narrow-check.txt, then timed on both training sets' shapes
# where the dispatcher may pick them (`fit measure`, 3 warm-ups, 10 runs,
# GPU timing), one measurements file per set.
# Carried: .bundles/c4 (the bundles and plan-train.json, plan-train2.json
# written by `fit plan --only-match c4x1 [--shapes bench/shapes/train2.txt]`)
# and .device/nlohmann-json3-dev_3.11.2-2_all.deb.
set -u
R=$OUT/call1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/c4-build.log > /dev/null || { tail -20 /tmp/c4-build.log; exit 2; }
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/c4/sm90_*.json) ($SECONDS s)"
source bench/lib/fit-measure.sh
measure_plans $R .bundles/c4 train train2
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
