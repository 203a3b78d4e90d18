# Issue 16, device call 1: the candidate matrix on the training set (every
# plausible candidate of gemm_bench.fit timed on every training shape), for
# fitting the dispatcher's model. Bundles: gemm_bench.fit configs, compiled
# by gemm_bench.compile into .bundles/fit.
set -u
R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
PYTHONUNBUFFERED=1 timeout 480 python3 -m gemm_bench.fit measure --runner $runner \
  --bundles .bundles/fit --work $R/fit --warmup 5 --iters 15 > $R/fit.log 2>&1
echo "fit exit $?" >> $R/fit.log
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tail -3 $R/fit.log; cat $R/gpu.txt
tar -C $OUT -czf $OUT/c1.tgz c1 && rm -rf $R
