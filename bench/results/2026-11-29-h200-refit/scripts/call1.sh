# Issue 16: the model fitted on both training sets (train and train2, 400
# shapes) against the shipped one (train only), on the test set: both
# models' picks (.bundles/refit/selection-test-{new,old}.json, from
# `python -m gemm_bench.suite select --groups test --bundles build/kernels
# --model ... --json`) through the suite in one call, new first, then old,
# then new again, with this commit's runtime and the shipped kernel library.
# Output goes to $OUT as it is written.
set -u
R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
for run in new1 old new2; do
  sel=${run%[0-9]}
  model=bench/tuning/sm90-h200-model.json; [ $sel = old ] && model=.bundles/refit/model-old.json
  MODEL=$model SHAPE_GROUPS=test SELECTION=.bundles/refit/selection-test-$sel.json L2=warm \
    timeout 200 bash bench/suite.sh .device/full/kernels /tmp/test-$run > $R/test-$run.log 2>&1
  echo "test $run exit $? ($SECONDS s)"
  rm -rf /tmp/test-$run/runs
  tar -C /tmp -czf $R/test-$run.tgz test-$run
  grep -E "^\| test \|" $R/test-$run.log | tail -2
done
# The one low-precision pick the refit changes: int8 4096x14336x4096
# (s8 x s8 -> s32), 128x208x128 (shipped) against 128x256x128 (refit).
for t in 128x208x128 128x256x128; do
  timeout 60 $runner .device/full/kernels/sm90_s8_cs32_${t}_coop_c1x1_rm_s8_st0.json --m 4096 --n 14336 --k 4096 \
    --check --bench --vs cublas --warmup 10 --iters 30 > $R/int8-$t.log 2>&1
  echo "int8 $t exit $?: $(grep -E '^\[1/1\]|^running' $R/int8-$t.log | tail -1 | grep -oE 'ours [0-9.]+ ms|cuBLAS [0-9.]+ ms|[0-9.]+x$' | tr '\n' ' ')"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
