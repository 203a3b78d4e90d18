# Session 11, call 3: every candidate of the dispatcher on every shape of
# the second training set (bench/shapes/train2.txt; `gemm_bench.fit plan`),
# timed the GPU's way (--timing gpu), to judge a refit on GPU time on
# shapes it was not fitted on.
set -u
R=$OUT/c3; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c3.tgz c3; }
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
timeout 500 python3 -m gemm_bench.fit measure --plan .bundles/s11/plan-train2.json --runner "$runner" \
  --bundles .device/kernels --work $R/fit --warmup 3 --iters 10 > $R/fit.log 2>&1
echo "measure exit $? ($SECONDS s)"
python3 -m gemm_bench.fit collect $R/fit --out $R/measurements-train2.json | tail -1
rm -rf $R/fit
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"; snap
