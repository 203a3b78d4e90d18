# Session 9, call D: the test set (and the training set) through the picks
# of the shipped model (HBM reads and MMAs combined as a fitted p-norm), and
# in the same call the test picks of the model without that term (call B's
# "new") and of the previous model (A/B/C), beside cuBLASLt. One kernel
# library (.device/kernels-full.tar.xz) holds every pick.
set -u
R=/tmp/s9d; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
SHAPE_GROUPS=test,train SELECTION=.bundles/s9d/selection.json L2=warm timeout 240 bash bench/suite.sh .device/kernels $R/new > $R/new.log 2>&1
echo "new suite exit $? ($SECONDS s)"
SHAPE_GROUPS=test SELECTION=.bundles/s9d/selection-b.json L2=warm timeout 150 bash bench/suite.sh .device/kernels $R/nomem > $R/nomem.log 2>&1
echo "no-memory-term suite exit $? ($SECONDS s)"
SHAPE_GROUPS=test SELECTION=.bundles/s9d/selection-old.json L2=warm timeout 150 bash bench/suite.sh .device/kernels $R/old > $R/old.log 2>&1
echo "old suite exit $? ($SECONDS s)"
rm -rf $R/new/runs $R/nomem/runs $R/old/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s9d.tgz s9d
