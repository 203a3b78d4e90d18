# Call 2: issue 16's test set (220 shapes, bf16 and f16) through the suite,
# main's runtime and library (.device/kernels-edge.tar.xz), once per
# selection named on the command line, in that order:
# .bundles/remeasure/selection-NAME.json from `python -m gemm_bench.suite
# select --groups test --bundles build/kernels [--model M] --json ...`.
set -u
R=$OUT/call2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/edge && tar -C .device/edge -xJf .device/kernels-edge.tar.xz
i=0
for name in "$@"; do
  i=$((i + 1))
  MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=test SELECTION=.bundles/remeasure/selection-$name.json L2=warm \
    timeout 200 bash bench/suite.sh .device/edge/kernels /tmp/test-$i-$name > $R/test-$i-$name.log 2>&1
  echo "test $i $name exit $? ($SECONDS s)"
  rm -rf /tmp/test-$i-$name/runs
  tar -C /tmp -czf $R/test-$i-$name.tgz test-$i-$name
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
