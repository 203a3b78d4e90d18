# Session 14, call 3: the test set (bench/shapes/test.txt, 220 shapes, bf16
# and f16) in GPU time, interleaved with cuBLASLt: the model refitted with
# the aligned stream-K measurements (its picks in .bundles/sk/selection-
# test-new.json) on the new kernel library, then session 13's model and
# library (selection-test-old.json, .device/kernels-old.tar.xz); the
# training set through the new model.
set -u
R=/tmp/s14c; rm -rf $R; mkdir -p $R $OUT
for v in full old; do mkdir -p .device/$v && tar -C .device/$v -xJf .device/kernels-$v.tar.xz; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
for v in new old; do
  lib=.device/full/kernels model=bench/tuning/sm90-h200-model.json
  [ $v = old ] && lib=.device/old/kernels model=.bundles/sk/model-old.json
  MODEL=$model SHAPE_GROUPS=test SELECTION=.bundles/sk/selection-test-$v.json L2=warm timeout 170 bash bench/suite.sh $lib $R/test-$v > $R/test-$v.log 2>&1
  echo "test $v exit $? ($SECONDS s)"
done
SHAPE_GROUPS=train SELECTION=.bundles/sk/selection-train-new.json L2=warm timeout 120 bash bench/suite.sh .device/full/kernels $R/train-new > $R/train-new.log 2>&1
echo "train new exit $? ($SECONDS s)"
rm -rf $R/*/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s14c.tgz s14c
