# Issue 18, call 2: the kernel library's low-precision kernels timed on the
# training shapes (`gemm_bench.fit plan --lowp build/kernels --json
# .bundles/lowpfit/plan-lowp.json` here; `fit measure`, 3 warm-ups, 10
# runs, GPU timing), for `gemm_bench.fit lowp`: the model's residuals of
# these kernels, which it had none of.
set -u
R=$OUT/c2; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
export PYTHONPATH=$PWD/python
timeout 540 python3 -m gemm_bench.fit measure --plan .bundles/lowpfit/plan-lowp.json --runner "$runner" \
  --bundles .device/full/kernels --work /tmp/lowpfit --warmup 3 --iters 10 > $R/measure.log 2>&1
echo "measure exit $? ($SECONDS s)"
python3 -m gemm_bench.fit collect /tmp/lowpfit --out $R/measurements-lowp-train.json | tail -1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
