# Issue 16: gemm_bench.fit's split-K and stream-K candidates after the
# arrival change (c1578fa: one acq_rel atomic), on the H200: checked on the
# stream-K plans of bench/shapes/stream-k-check.txt and the split-K edge
# cases of ../../2026-12-07-h100-split-k-arrival/scripts/check.txt, then
# timed on both training sets' shapes where the dispatcher may pick them
# (`fit measure`, 3 warm-ups, 10 runs, GPU timing), one measurements file
# per set, which `fit fit` lets replace the runs of the old kernels.
# Carried: .bundles/skfit, written here by
#   python -m gemm_bench.fit configs --only-match '_(k[248]|sk)$' --out .bundles/skfit.mlir
#   build/bin/gemm-opt .bundles/skfit.mlir --gemm-to-ptx="output-dir=.bundles/skfit" -o /dev/null
#   python -m gemm_bench.fit plan --only-match '_(k[248]|sk)$' --json .bundles/skfit/plan-train.json
#   (and --shapes bench/shapes/train2.txt --json .bundles/skfit/plan-train2.json)
# and .device/nlohmann-json3-dev_3.11.2-2_all.deb.
set -u
R=$OUT/skfit; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/skfit-build.log > /dev/null || { tail -20 /tmp/skfit-build.log; exit 2; }
source bench/lib/check-bundles.sh
cat bench/shapes/stream-k-check.txt bench/results/2026-12-07-h100-split-k-arrival/scripts/check.txt > /tmp/skfit-check.txt
echo "checks: $(check_bundles $R/check.log /tmp/skfit-check.txt .bundles/skfit/sm90_*.json) ($SECONDS s)"
source bench/lib/fit-measure.sh
measure_plans $R .bundles/skfit train train2
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
