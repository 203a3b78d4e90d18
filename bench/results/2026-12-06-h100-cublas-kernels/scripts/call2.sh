# fp8 per tensor in clusters (what cuBLASLt runs at 128-1024 rows:
# call 1's kernels.md), against the shipped library's pick, beside
# cuBLASLt, two rounds in alternating order; each cluster kernel checked
# first. Carried: .device/kernels-old.tar.xz (the shipped build/kernels) and
# .bundles/fp8c (scripts/fp8c.mlir compiled: gemm-opt fp8c.mlir
# --gemm-to-ptx=output-dir=.bundles/fp8c). Writes $OUT/c2/.
set -u
D=bench/results/2026-12-06-h100-cublas-kernels
R=$OUT/c2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/old && tar -C .device/old -xJf .device/kernels-old.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
printf '200 136 520\n1000 1000 1000\n257 4096 384\n' > /tmp/fp8-check.txt
for b in .bundles/fp8c/*qtt*.json; do
  timeout 60 "$runner" $b --shapes /tmp/fp8-check.txt --check || echo "FAILED: $b"
done > $R/check.log 2>&1
echo "checks: $(grep -c 'check PASS' $R/check.log) passed, $(grep -c 'check FAIL\|FAILED' $R/check.log) failed ($SECONDS s)"
variants="pick $(cd .bundles/fp8c && ls *qtt*.json | sed 's/\.json$//' | tr '\n' ' ')"
mkdir -p /tmp/c2
for round in 1 2; do
  order=$variants; [ $round = 2 ] && order=$(echo $variants | tr ' ' '\n' | tac | tr '\n' ' ')
  for mnk in "128 8192 8192" "128 28672 8192" "128 8192 28672" "256 8192 8192" "256 28672 8192" \
             "256 8192 28672" "512 8192 8192" "512 28672 8192" "512 8192 28672" "1024 8192 8192" \
             "1024 28672 8192" "1024 8192 28672" "8192 8192 8192"; do
    set -- $mnk
    for v in $order; do
      [ $SECONDS -gt ${LIMIT:-400} ] && break 3
      if [ $v = pick ]; then
        src=(--library .device/old/kernels --dtype e4m3 --out-dtype bf16 --quant tt)
      else
        src=(.bundles/fp8c/$v.json)
      fi
      timeout 60 "$runner" "${src[@]}" --m $1 --n $2 --k $3 --bench --vs cublas --warmup 10 --iters 30 \
        --json /tmp/c2/$v-r$round-${1}x${2}x${3}.json > /dev/null 2>&1
    done
  done
  echo "round $round done ($SECONDS s)"
done
python3 $D/scripts/ab.py /tmp/c2 > $R/ab.md
tar -C /tmp -czf $R/runs.tgz c2
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
