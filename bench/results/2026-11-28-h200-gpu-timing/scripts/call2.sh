# Session 11, call 2: every candidate of the dispatcher on every training
# shape it applies to (bench/shapes/train.txt; `gemm_bench.fit plan`, split
# in two halves of equal estimated time), timed the GPU's way (gemm-runner's
# default --timing gpu), for a refit of the model on GPU time.
set -u
R=$OUT/c2; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c2.tgz c2; }
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
for part in 1 2; do
  timeout 285 python3 -m gemm_bench.fit measure --plan .bundles/s11/plan-train-$part.json --runner "$runner" \
    --bundles .device/kernels --work $R/fit-$part --warmup 3 --iters 10 > $R/fit-$part.log 2>&1
  echo "measure part $part exit $? ($SECONDS s)"
  python3 -m gemm_bench.fit collect $R/fit-$part --out $R/measurements-train-$part.json | tail -1
  rm -rf $R/fit-$part
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"; snap
