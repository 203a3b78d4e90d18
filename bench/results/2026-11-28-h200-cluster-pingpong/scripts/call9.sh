# Session 10, call 9: a trial of 256-row tiles wider than 128 (256x144,
# 256x160, compiled with the accumulator cap raised to 160 for the trial,
# not kept): checks, then beside cuBLASLt on call 4's shapes.
set -u
R=$OUT/c9; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/s10w/sm90*.json) ($SECONDS s)"
for b in .bundles/s10w/sm90*.json; do
  n=$(basename $b .json)
  timeout 200 $runner $b --shapes bench/results/2026-11-28-h200-cluster-pingpong/scripts/cublas-shapes.txt --bench --vs cublas \
    --warmup 10 --iters 30 > $R/probe-$n.log 2>&1 || echo "probe $n exit $?"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
tar -C $OUT -czf $OUT/c9.tgz c9
