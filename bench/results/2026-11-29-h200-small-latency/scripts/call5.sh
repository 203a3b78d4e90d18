# Issue 16, fifth call: which kernels cuBLASLt launches for training-set
# problems with M <= 64 of 8-20 us, where our split-K picks lose, and for
# a small split-K problem: one timed run under Nsight Compute, cuBLASLt's
# launches only (name, grid, cluster, duration), so that a separate
# reduction kernel, a split-K suffix or a cluster shows. Output goes to
# $OUT as it is written (a first version profiled every launch, the
# runner's own included, ran past the call's limit and returned nothing).
set -u
R=$OUT/s5; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/build.log > /dev/null || exit 2
for s in "98 4608 3584" "4 7168 2048" "174 360 4816"; do
  set -- $s
  timeout 35 ncu --clock-control none --launch-count 3 --kernel-name 'regex:nvjet|splitK|reduce|cutlass|xmma|gemv' \
    --section LaunchStats --metrics gpu__time_duration.sum \
    $runner --library .device/full/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas \
    --warmup 0 --iters 1 > $R/ncu-$1x$2x$3.txt 2>&1
  echo "$1x$2x$3: exit $?"
  grep -E "^  [A-Za-z_].*\(|gpu__time|Grid Size|Cluster Size" $R/ncu-$1x$2x$3.txt | head -12
done
