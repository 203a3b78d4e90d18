# Session 8, call 2: the test set (and the training set) through the new model's picks, and the
# shipped model's test picks again in the same call (A/B), beside cuBLASLt.
set -u
R=/tmp/s8c2; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
SHAPE_GROUPS=test,train SELECTION=.bundles/s8/selection.json L2=warm timeout 280 bash bench/suite.sh .bundles/s8 $R/new > $R/new.log 2>&1
echo "new suite exit $? ($SECONDS s)"
grep -A8 "| group" $R/new/results.md | head -14
SHAPE_GROUPS=test SELECTION=.bundles/s8/selection-old.json L2=warm timeout 200 bash bench/suite.sh .device/kernels $R/old > $R/old.log 2>&1
echo "old suite exit $? ($SECONDS s)"
grep -A8 "| group" $R/old/results.md | head -14
rm -rf $R/new/runs $R/old/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s8c2.tgz s8c2
