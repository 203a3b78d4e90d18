# Issue 16, call 1: (a) the split-K fixup through global memory (our
# kernels' protocol) against an exchange through a cluster's distributed
# shared memory, measured by bench/probes/split-k-fixup.cu; (b) Nsight
# Compute of the two worst test problems whose picks are not split-K M <= 64
# ones (7269x272x2904 and 516x1488x5376, bf16, the dispatcher's pick from
# the library, and cuBLASLt's kernel), to say why they lose. Nothing is
# tuned on them. Output goes to $OUT as it is written.
set -u
R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
nvcc -arch=sm_90a -O3 -o /tmp/split-k-fixup bench/probes/split-k-fixup.cu > $R/probe-build.log 2>&1 || { cat $R/probe-build.log; exit 2; }
for work in 16 0; do
  /tmp/split-k-fixup $work 200 > $R/probe-work$work.txt 2>&1; echo "probe work $work exit $?"; cat $R/probe-work$work.txt
done
timeout 60 compute-sanitizer --tool memcheck /tmp/split-k-fixup 16 5 2>&1 | grep -E "check:|ERROR SUMMARY" > $R/probe-memcheck.txt
cat $R/probe-memcheck.txt
echo "probe done ($SECONDS s)"
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
for s in "7269 272 2904" "516 1488 5376"; do
  set -- $s
  n=$1x$2x$3
  timeout 60 $runner --library .device/full/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas \
    --warmup 10 --iters 30 > $R/time-$n.txt 2>&1; echo "time $n exit $?"
  grep -iE "pick|ms|ratio|staged" $R/time-$n.txt | head -8
  for who in ours cublas; do
    if [ $who = ours ]; then filter='regex:^sm90_'; else filter='regex:nvjet|cutlass|xmma|splitK|reduce'; fi
    timeout 90 ncu --clock-control none --kernel-name "$filter" --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
      --section LaunchStats --section Occupancy \
      $runner --library .device/full/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas \
      --warmup 2 --iters 2 > $R/ncu-$who-$n.txt 2>&1
    echo "ncu $who $n exit $? ($SECONDS s)"
  done
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
