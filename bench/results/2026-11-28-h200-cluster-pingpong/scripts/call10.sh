# Session 10, call 10: why our 2x1 clusters gain nothing where cuBLASLt's
# do: 128x256 cooperative, 1x1 and 2x1 (the B tile multicast to the two M tiles of a pair), at
# 8192 cubed and 3072 cubed, timed beside cuBLASLt, then Nsight Compute's
# speed of light, memory and warp states of one launch each.
set -u
R=$OUT/c10; mkdir -p $R
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
printf '8192 8192 8192\n3072 3072 3072\n' > /tmp/c10.txt
for c in c1x1 c2x1; do
  b=.device/kernels/sm90_bf16_128x256x64_coop_${c}_rm_s8_st0.json
  for round in 1 2; do
    timeout 100 $runner $b --shapes /tmp/c10.txt --bench --vs cublas --warmup 10 --iters 30 2>&1 | grep "^\[" | sed "s/^/$c $round /" >> $R/times.txt
  done
  for s in "8192 8192 8192" "3072 3072 3072"; do
    set -- $s
    timeout 120 ncu --clock-control none --kernel-name regex:sm90 --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      $runner $b --m $1 --n $2 --k $3 --bench --warmup 2 --iters 2 > $R/ncu-$c-$1.txt 2>&1 || echo "ncu $c $1 exit $?"
  done
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
tar -C $OUT -czf $OUT/c10.tgz c10
