# Issue 16, device call 6: the candidate matrix again on the training set,
# now with A and B realigned into 128-byte rows where gemm::runtime::
# realignPays says so (call 5), for refitting the model.
set -u
R=$OUT/c6; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
PYTHONUNBUFFERED=1 timeout 480 python3 -m gemm_bench.fit measure --plan .bundles/fit/plan.json \
  --runner $runner --bundles .bundles/fit --work $R/fit --warmup 5 --iters 15 > $R/fit.log 2>&1
echo "fit exit $?" >> $R/fit.log
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tail -2 $R/fit.log; cat $R/gpu.txt
python3 -m gemm_bench.fit collect $R/fit --out $R/measurements.json && rm -rf $R/fit
tar -C $OUT -czf $OUT/c6.tgz c6 && rm -rf $R
