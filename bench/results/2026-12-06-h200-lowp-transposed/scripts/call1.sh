# Issue 18, call 1: the low-precision kernels of the transposed problem's
# narrow tiles (M <= 64 along a 16-32-wide tile N) timed on the training
# shapes with M <= 128 (3 warm-ups, 10 runs, GPU timing; `fit measure`), one
# problem class after another (fp8 per tensor, fp8 per row and column, int8
# to s32, int8 to bf16 by row and column, tf32) until the call's time runs
# out; a class is kept only if all its kernels ran.
# Carried: .device/ (kernels-measure.tar.xz: the shipped library with
# those kernels; the nlohmann-json .deb) and .bundles/lowptn/plan-1..5.json
# (one per class, 8 kernels and about 320 runs each), both written by
# scripts/prepare.sh.
# First, gemm-runner --check of every kernel of bench/kernels/sm90-narrow.mlir
# over bench/shapes/narrow-check.txt (test/GPU/sm90-narrow.test without lit;
# carried as .bundles/narrow, compiled with
#   gemm-opt bench/kernels/sm90-narrow.mlir --gemm-to-ptx="output-dir=.bundles/narrow"
# ), the five kernels of the classes this measurement adds among them.
set -u
R=$OUT/call1; mkdir -p $R
L=/tmp/lt1; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/measure && tar -C .device/measure -xJf .device/kernels-measure.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $L/build.log > /dev/null || { tail -20 $L/build.log; exit 2; }
echo "runner built ($SECONDS s)"
source bench/lib/check-bundles.sh
echo "narrow checks: $(check_bundles $R/narrow-check.log bench/shapes/narrow-check.txt .bundles/narrow/*.json) ($SECONDS s)"
export PYTHONPATH=$PWD/python
for part in 1 2 3 4 5; do
  left=$(( ${LIMIT:-290} - SECONDS ))
  [ $left -gt 20 ] || break
  timeout $left python3 -m gemm_bench.fit measure --plan .bundles/lowptn/plan-$part.json --runner "$runner" \
    --bundles .device/measure/kernels --work $L/fit-$part --warmup 3 --iters 10 > $R/measure-$part.log 2>&1
  code=$?
  echo "measure part $part exit $code ($SECONDS s)"
  [ $code = 0 ] || break
  python3 -m gemm_bench.fit collect $L/fit-$part --out $R/measurements-lowp-tn-$part.json | tail -1
  xz -9 $R/measurements-lowp-tn-$part.json
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
