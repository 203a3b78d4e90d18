# Session 11, call 8: int8 stream-K (lp_s8_s32_sk of bench/kernels/sm90-lowp.mlir,
# 128x256x128, what the refitted model's library now picks for an s8 -> s32
# problem) through gemm-runner's check over the low-precision shape list,
# as test/GPU/sm90-lowp-correctness.test runs it, and under memcheck.
set -u
R=$OUT/c8; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
timeout 150 $runner .bundles/s11sk/lp_s8_s32_sk.json --shapes bench/shapes/sm90-lowp-check.txt --check > $R/check.log 2>&1
echo "check exit $?"; grep -c "check PASS" $R/check.log
timeout 100 compute-sanitizer --tool memcheck $runner .bundles/s11sk/lp_s8_s32_sk.json --m 777 --n 333 --k 1100 --check 2>&1 | grep -E "ERROR SUMMARY|check" > $R/memcheck.txt
cat $R/memcheck.txt
