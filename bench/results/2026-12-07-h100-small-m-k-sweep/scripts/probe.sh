# Issue 16: M <= 64 against a wide B, where the test set's 12-13 us
# problems (2 and 6x4608x3584, 45 and 64x3584x3584, 64x4096x4096) stay at
# 0.82-0.90x of cuBLASLt: how our time and cuBLASLt's grow with K at
# 6x4608xK, for the library's transposed 64x16 and 64x32 pingpong tiles
# (4608x6xK, a column-major C: 72 CTAs) and the 64x128 pingpong tile whole
# (36 CTAs) and split in two (72). gemm-runner BUNDLE --bench --vs cublas:
# 10 warm-ups, 50 timed runs, GPU timing, L2 warm (pass --cold-l2 as $1 to
# flush it before every run). Carried: .device/kernels-new.tar.xz (the
# shipped library) and the nlohmann-json .deb. Prints one line per run.
set -u
mkdir -p /tmp/lib && tar -C /tmp/lib -xJf .device/kernels-new.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/b.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,clocks.sm,power.limit --format=csv,noheader
L=/tmp/lib/kernels
for K in 896 1792 3584 7168 14336; do
  for run in sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0:4608:6 \
             sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0:4608:6 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2:6:4608 \
             sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0:6:4608; do
    IFS=: read name m n <<< "$run"
    echo "K=$K $name $(timeout 60 $runner $L/$name.json --m $m --n $n --k $K --bench --vs cublas ${1:-} 2>&1 | grep -o 'ours.*x$')"
  done
done
