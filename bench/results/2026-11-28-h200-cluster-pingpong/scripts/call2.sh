# Session 10, call 2: is a 64-row tile's k-block waiting on its loads? The
# same kernels with shallower rings (stages 2-3 against the derived 4 of
# 64x256 and 128x256, 3 and 5 against 8 of 64x128), two rounds; then Nsight
# Compute's warp states of 64x256 pingpong at 193x8192x8192 (one tile per
# SM) and of 128x256 cooperative at 8192 cubed.
set -u
R=$OUT/c2; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c2.tgz c2; }
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
printf '193 8192 8192\n153 10240 8192\n8192 8192 8192\n' > /tmp/stages.txt
K=.device/kernels
for round in 1 2; do
  for b in $K/sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0.json .bundles/s10b/sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st{3,2}.json \
      $K/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json .bundles/s10b/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st{3,2}.json \
      $K/sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0.json .bundles/s10b/sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st{5,3}.json; do
    n=$(basename $b .json)
    timeout 100 $runner $b --shapes /tmp/stages.txt --bench --warmup 10 --iters 30 > $R/stages-$round-$n.log 2>&1 || echo "$n exit $?"
  done
done
grep -H "TFLOP" $R/stages-*.log | grep "^\S*:\[" > $R/stages.txt
rm -f $R/stages-*.log
echo "stages done ($SECONDS s)"; snap
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters --section ComputeWorkloadAnalysis"
timeout 150 ncu --clock-control none --kernel-name regex:sm90 --launch-skip 2 --launch-count 1 $S \
  $runner $K/sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0.json --m 193 --n 8192 --k 8192 --bench --warmup 2 --iters 2 > $R/ncu-64x256-pingpong-193x8192x8192.txt 2>&1 || echo "ncu 1 exit $?"
timeout 150 ncu --clock-control none --kernel-name regex:sm90 --launch-skip 2 --launch-count 1 $S \
  $runner $K/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json --m 8192 --n 8192 --k 8192 --bench --warmup 2 --iters 2 > $R/ncu-128x256-coop-8192.txt 2>&1 || echo "ncu 2 exit $?"
echo "ncu done ($SECONDS s)"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
snap
