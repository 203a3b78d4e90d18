# Session 10, call 8: the training set through the shipped model's picks
# (the report the issue asks for beside the test set's), interleaved with
# cuBLASLt, with the kernel library of call 6.
set -u
R=/tmp/s10h; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
SHAPE_GROUPS=train SELECTION=.bundles/s10f/selection-train.json L2=warm timeout 240 bash bench/suite.sh .device/kernels $R/train > $R/train.log 2>&1
echo "train suite exit $? ($SECONDS s)"
rm -rf $R/train/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s10h.tgz s10h
