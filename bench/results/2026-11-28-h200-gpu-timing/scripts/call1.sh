# Session 11, call 1: gemm-runner --timing gpu (each timed run queued
# behind a held stream, then released) beside --timing call (the method of
# every earlier figure: each run launched onto an idle stream). The tiny
# problems in both; the test set and the training set through the shipped
# model's picks (selections of session 10, call 6 and 8), one kernel
# library, interleaved with cuBLASLt.
set -u
R=/tmp/s11a; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || { tail -30 $R/build.log; exit 2; }
export GEMM_RUNNER=$runner
echo "built ($SECONDS s)"
# What test/Runtime/gpu.test's new lines run.
in=test/Runtime/Inputs/gemm_sm90_bf16_128x256x64.json
for t in gpu call; do
  $runner $in --m 256 --n 256 --k 256 --vs cublas --timing $t --warmup 0 --iters 3 --json $R/unit-$t.json
  $runner $in --m 1024 --n 1024 --k 1024 --vs cublas --cold-l2 --timing $t --warmup 2 --iters 5
  $runner $in --m 1023 --n 1025 --k 1027 --vs cublas --timing $t --warmup 2 --iters 5
done > $R/unit.log 2>&1
echo "unit exit $? ($SECONDS s)"; grep -h '"timing"' $R/unit-*.json
# Tiny problems, both timings, the library's pick, 50 warm-ups, 300 runs.
for t in gpu call; do
  for s in "1 1 1" "8 8 8" "64 64 64" "128 128 128" "16 4096 4096" "64 14336 4096"; do
    set -- $s
    $runner --library .device/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas \
      --timing $t --warmup 50 --iters 300 --json $R/tiny-$t-$1x$2x$3.json > /dev/null 2>&1
    python3 -c "import json,sys; b=json.load(open(sys.argv[1]))['results'][0]['bench']; print(sys.argv[2], sys.argv[3], 'ours %.2f us, cuBLAS %.2f us' % (b['ours']['median_ms']*1e3, b['cublas']['median_ms']*1e3))" $R/tiny-$t-$1x$2x$3.json $t $1x$2x$3
  done
done | tee $R/tiny.txt
echo "tiny ($SECONDS s)"
for t in gpu call; do
  TIMING=$t SHAPE_GROUPS=test SELECTION=.bundles/s10f/selection-new.json L2=warm timeout 200 bash bench/suite.sh .device/kernels $R/test-$t > $R/test-$t.log 2>&1
  echo "test $t suite exit $? ($SECONDS s)"
done
TIMING=gpu SHAPE_GROUPS=train SELECTION=.bundles/s10f/selection-train.json L2=warm timeout 150 bash bench/suite.sh .device/kernels $R/train-gpu > $R/train-gpu.log 2>&1
echo "train gpu suite exit $? ($SECONDS s)"
rm -rf $R/test-*/runs $R/train-*/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s11a.tgz s11a
