# bf16 test-set losers (issue 16) that cuBLASLt runs in 2- and 4-CTA
# clusters (call 1): the transposed problem's 64-row pingpong tiles in
# clusters along its M (our N: the CTAs share our A, multicast), against the
# shipped library's pick, every run beside cuBLASLt, two rounds in
# alternating order. A transposed kernel runs the problem N x M x K with a
# column-major C (C^T = B A^T), which cuBLASLt computes as the same GEMM.
# Carried: .device/kernels-old.tar.xz and .bundles/bfc (scripts/bfc.mlir
# compiled). Writes $OUT/c3/.
set -u
D=bench/results/2026-12-06-h100-cublas-kernels
R=$OUT/c3; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/old && tar -C .device/old -xJf .device/kernels-old.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
printf '200 40 520\n1000 84 1000\n5120 84 5120\n' > /tmp/bfc-check.txt
for b in .bundles/bfc/*.json; do
  timeout 60 "$runner" $b --shapes /tmp/bfc-check.txt --check || echo "FAILED: $b"
done > $R/check.log 2>&1
echo "checks: $(grep -c 'check PASS' $R/check.log) passed, $(grep -c 'check FAIL\|FAILED' $R/check.log) failed ($SECONDS s)"
mkdir -p /tmp/c3
cases=("84 5120 5120: 64x96x64_pingpong_c1x1 64x96x64_pingpong_c2x1 64x96x64_pingpong_c4x1"
       "45 7168 2048: 64x64x64_pingpong_c1x1 64x64x64_pingpong_c2x1 64x64x64_pingpong_c4x1 64x32x64_pingpong_c1x1 64x32x64_pingpong_c2x1 64x32x64_pingpong_c4x1"
       "20 2048 7168: 64x32x64_pingpong_c1x1 64x32x64_pingpong_c2x1 64x32x64_pingpong_c4x1")
for round in 1 2; do
  for c in "${cases[@]}"; do
    set -- ${c%%:*}; m=$1 n=$2 k=$3
    order="pick ${c#*: }"; [ $round = 2 ] && order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
    for v in $order; do
      if [ $v = pick ]; then
        args=(--library .device/old/kernels --m $m --n $n --k $k)
      else
        args=(.bundles/bfc/sm90_bf16_akbkcc_${v}_rm_s8_st0.json --m $n --n $m --k $k)
      fi
      timeout 60 "$runner" "${args[@]}" --bench --vs cublas --warmup 10 --iters 50 \
        --json /tmp/c3/$v-r$round-${m}x${n}x${k}.json > /dev/null 2>&1
    done
  done
  echo "round $round done ($SECONDS s)"
done
python3 $D/scripts/ab.py /tmp/c3 > $R/ab.md
tar -C /tmp -czf $R/runs.tgz c3
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
