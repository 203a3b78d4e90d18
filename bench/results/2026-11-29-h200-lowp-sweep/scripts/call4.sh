# Issue 18, call 4: the two kernels the model of call 2's residuals added
# to the library (block-wise fp8 128x192 in a 2x1 cluster, tf32 128x208),
# which it estimated by the physics alone, timed on the training shapes as
# call 2 timed the others (`fit plan --lowp build/kernels --only-match
# 'qbb_128x192x128_coop_c2x1|f32_128x208x32' --json
# .bundles/lowpfit/plan-lowp2.json` here), from call 3's library.
set -u
R=$OUT/c4; mkdir -p $R
mkdir -p .device/lowp && tar -C .device/lowp -xJf .device/kernels-lowp.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
export PYTHONPATH=$PWD/python
timeout 300 python3 -m gemm_bench.fit measure --plan .bundles/lowpfit/plan-lowp2.json --runner "$runner" \
  --bundles .device/lowp/kernels --work /tmp/lowpfit2 --warmup 3 --iters 10 > $R/measure.log 2>&1
echo "measure exit $? ($SECONDS s)"
python3 -m gemm_bench.fit collect /tmp/lowpfit2 --out $R/measurements-lowp-train-2.json | tail -1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
