# Issue 16: every gemm_bench.fit candidate timed on both training sets on an
# H100 (`fit measure`, 3 warm-ups, 10 runs, GPU timing), for a model of
# that GPU. Carried: .bundles/h100fit, written here by
#   python -m gemm_bench.fit configs --out .bundles/h100fit.mlir
#   build/bin/gemm-opt .bundles/h100fit.mlir --gemm-to-ptx="output-dir=.bundles/h100fit" -o /dev/null
#   python -m gemm_bench.fit plan --json .bundles/h100fit/plan-train.json
#   python -m gemm_bench.fit plan --shapes bench/shapes/train2.txt --json .bundles/h100fit/plan-train2.json
# and .device/nlohmann-json3-dev_3.11.2-2_all.deb.
set -u
R=$OUT/h100fit; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/h100fit-build.log > /dev/null || { tail -20 /tmp/h100fit-build.log; exit 2; }
echo "runner built ($SECONDS s)"
source bench/lib/fit-measure.sh
MEASURE_LIMIT_S=260 measure_plans $R .bundles/h100fit train train2
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
