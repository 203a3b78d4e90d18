# Session 9, call B: the test set (and the training set) through this
# model's picks, and the previous model's test picks in the same call (A/B),
# beside cuBLASLt. One kernel library (.device/kernels-full.tar.xz, built
# with this model) holds both models' picks.
set -u
R=/tmp/s9b; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
SHAPE_GROUPS=test,train SELECTION=.bundles/s9/selection.json L2=warm timeout 300 bash bench/suite.sh .device/kernels $R/new > $R/new.log 2>&1
echo "new suite exit $? ($SECONDS s)"
SHAPE_GROUPS=test SELECTION=.bundles/s9/selection-old.json L2=warm timeout 220 bash bench/suite.sh .device/kernels $R/old > $R/old.log 2>&1
echo "old suite exit $? ($SECONDS s)"
rm -rf $R/new/runs $R/old/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s9b.tgz s9b
