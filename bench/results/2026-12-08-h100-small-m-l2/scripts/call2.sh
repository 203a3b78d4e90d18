# Issue 16, after probe.sh found the M <= 64 losers' gap only with a warm
# L2 (call 1):
#  1. the library's other kernels for 6x4608xK (more CTAs: split-K, stream-K,
#     narrower tiles) with the L2 warm, beside cuBLASLt: does pulling B from
#     the L2 with more SMs close the gap?
#  2. the whole test set (220 shapes, bf16 and f16) with the shipped
#     library's picks with the L2 flushed before every timed run
#     (suite.sh L2=cold), beside cuBLASLt (session 32 timed it warm on an
#     H100: ../../2026-12-07-h200-direct-split-k/h100-test-set/).
# Carried: .device/kernels-new.tar.xz (the shipped library),
# .bundles/ship/selection-shipped.json (`python -m gemm_bench.suite select
# --groups test --bundles build/kernels --json ...`) and the nlohmann-json
# .deb. Writes $OUT/more.txt and $OUT/test/.
set -u
mkdir -p /tmp/lib && tar -C /tmp/lib -xJf .device/kernels-new.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/b.log > /dev/null || exit 2
L=/tmp/lib/kernels
for K in 1792 3584; do
  for run in sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0_k2:4608:6 \
             sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0_k4:4608:6 \
             sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0_k2:4608:6 \
             sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0:6:4608 \
             sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0_k2:6:4608 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k4:6:4608 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_sk:6:4608; do
    IFS=: read name m n <<< "$run"
    echo "K=$K $name $(timeout 60 $runner $L/$name.json --m $m --n $n --k $K --bench --vs cublas 2>&1 | grep -o 'ours.*')"
  done
done > $OUT/more.txt
cat $OUT/more.txt
R=$OUT/test; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=test SELECTION=.bundles/ship/selection-shipped.json L2=cold \
  timeout 240 bash bench/suite.sh $L /tmp/test-cold > $R/suite.log 2>&1
echo "suite exit $? ($SECONDS s)"
rm -rf /tmp/test-cold/runs
cp /tmp/test-cold/results.md $R/ 2>/dev/null
xz -c /tmp/test-cold/results.json > $R/results.json.xz 2>/dev/null
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tail -12 $R/suite.log
