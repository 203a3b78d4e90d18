# Call 4: issue 16's test set through the suite with the library of this
# change (.device/kernels-edge.tar.xz, a tarball of build/kernels; the
# shipped model, whose picks it leaves as they were:
# .bundles/edge/selection-test.json from `python -m gemm_bench.suite select
# --groups test --bundles build/kernels --json`), as
# bench/results/2026-11-29-h200-realign/scripts/call2.sh ran it.
set -u
R=$OUT/call4; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/edge && tar -C .device/edge -xJf .device/kernels-edge.tar.xz
MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=test SELECTION=.bundles/edge/selection-test.json L2=warm \
  timeout 420 bash bench/suite.sh .device/edge/kernels /tmp/test-edge > $R/test-edge.log 2>&1
echo "test exit $? ($SECONDS s)"
rm -rf /tmp/test-edge/runs
tar -C /tmp -czf $R/test-edge.tgz test-edge
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
