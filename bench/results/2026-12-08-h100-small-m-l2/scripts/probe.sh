# Issue 16: M <= 64 against a wide B (6x4608xK), where ours loses 1.3-2.6 us
# to cuBLASLt only while B fits in the L2 (../../2026-12-07-h100-small-m-k-sweep/).
# Three ways of timing the same kernels, to tell whether the warm L2 decides:
#   interleaved  gemm-runner --bench --vs cublas (ours and cuBLASLt run by run)
#   cold         the same with --cold-l2 (the L2 flushed before every run)
#   alone        gemm-runner --bench (ours back to back, its own L2 left warm)
# 10 warm-ups, 50 timed runs, GPU timing, medians. Carried:
# .device/kernels-new.tar.xz (the shipped library) and the nlohmann-json
# .deb. Prints one line per run.
set -u
mkdir -p /tmp/lib && tar -C /tmp/lib -xJf .device/kernels-new.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/b.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
L=/tmp/lib/kernels
for K in 1792 3584 7168; do
  for run in sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0:4608:6 \
             sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0:4608:6 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2:6:4608 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0:6:4608; do
    IFS=: read name m n <<< "$run"
    for mode in interleaved cold alone; do
      case $mode in
        interleaved) flags="--vs cublas" ;;
        cold) flags="--vs cublas --cold-l2" ;;
        alone) flags="--timing gpu" ;;
      esac
      echo "K=$K $mode $name $(timeout 60 $runner $L/$name.json --m $m --n $n --k $K --bench $flags 2>&1 | grep -o 'ours.*')"
    done
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
