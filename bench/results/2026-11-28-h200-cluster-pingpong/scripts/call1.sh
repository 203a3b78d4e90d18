# Session 10, call 1: 64-row pingpong tiles in 2x1 and 4x1 clusters (B
# multicast to the cluster's M tiles) and 128-row tiles 144-208 wide in 2x1
# clusters: checks, sanitizers, the probe beside their 1x1 twins and
# cuBLASLt, an Nsight Compute profile of one pair, and both training sets.
set -u
D=bench/results/2026-11-28-h200-cluster-pingpong/scripts
R=$OUT/c1; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c1.tgz c1; }
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/s10/*.json) ($SECONDS s)"
grep -v '^#' $D/probe-shapes.txt > /tmp/probe.txt
for b in .bundles/s10/*.json .device/kernels/sm90_bf16_{64x128,64x144,64x160,64x192,64x256}x64_pingpong_c1x1_rm_s8_st0.json \
    .device/kernels/sm90_bf16_{128x144,128x160,128x208,128x256}x64_coop_c1x1_rm_s8_st0.json .device/kernels/sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0.json; do
  n=$(basename $b .json)
  timeout 200 $runner $b --shapes /tmp/probe.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/probe-$n.json > $R/probe-$n.log 2>&1 || echo "probe $n exit $?"
done
echo "probe done ($SECONDS s)"
snap
export PYTHONPATH=$PWD/python
for set in train train2; do
  timeout 200 python3 -m gemm_bench.fit measure --plan .bundles/s10/plan-$set.json --runner "$runner" --bundles .bundles/s10 --work $R/fit-$set --warmup 3 --iters 10 > $R/fit-$set.log 2>&1
  echo "measure $set exit $?"
  python3 -m gemm_bench.fit collect $R/fit-$set --out $R/measurements-$set.json | tail -1
  rm -rf $R/fit-$set
  snap
done
for k in 64x192x64_pingpong_c2x1 64x256x64_pingpong_c4x1 128x160x64_coop_c2x1; do
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool $runner .bundles/s10/sm90_bf16_${k}_rm_s8_st0.json \
      --m 200 --n 400 --k 136 --check 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|check" | sed "s/^/$k $tool: /"
  done
done > $R/sanitizers.txt
echo "sanitizers done ($SECONDS s)"
snap
for n in sm90_bf16_64x192x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_64x192x64_pingpong_c2x1_rm_s8_st0; do
  b=.device/kernels/$n.json; [ -f $b ] || b=.bundles/s10/$n.json
  timeout 120 ncu --clock-control none --kernel-name regex:sm90 --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    $runner $b --m 193 --n 8192 --k 8192 --bench --warmup 2 --iters 2 > $R/ncu-$n.txt 2>&1 || echo "ncu $n exit $?"
done
echo "ncu done ($SECONDS s)"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
snap
