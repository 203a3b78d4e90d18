# Issue 18, call 7: narrow tiles with scales (the compiler of this commit:
# tensor, row and column scales cover a narrower last epilogue sub-tile's
# own columns). First every kernel of bench/kernels/sm90-narrow.mlir
# (carried built in .bundles/narrow-scaled) checked over
# bench/shapes/narrow-check.txt, as test/GPU/sm90-narrow.test does; then a
# probe: fp8 per tensor on the transposed problem's narrow tiles
# (scripts/probe-fp8.mlir in .bundles/tnarrow-fp8) against the library's
# pick (.device/kernels-tn.tar.xz, gemm-runner --library), our times only
# (10 warm-ups, 30 runs, GPU timing), on the training set's problems with M
# <= 64 whose N and K are multiples of 16, and beside cuBLASLt on the
# squares and LLM sweep's fp8 problems with M <= 64.
set -u
R=$OUT/call7; mkdir -p $R
L=/tmp/c7; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/tn && tar -C .device/tn -xJf .device/kernels-tn.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $L/build.log > /dev/null || exit 2
for b in .bundles/narrow-scaled/*.json; do
  timeout 120 $runner $b --shapes bench/shapes/narrow-check.txt --check > $L/check.log 2>&1
  echo "check $(basename $b .json): exit $?, $(grep -c PASS $L/check.log) passed, $(grep -c FAIL $L/check.log) failed"
done | tee $R/checks.txt
awk '!/^#/ && NF >= 3 && $1 <= 64 && $2 % 16 == 0 && $3 % 16 == 0 {print $1, $2, $3}' bench/shapes/train.txt > $L/train.shapes
for m in 16 64; do echo "$m 8192 8192"; echo "$m 8192 28672"; echo "$m 28672 8192"; done > $L/sweep.shapes
for set in train sweep; do
  vs=(); [ $set = sweep ] && vs=(--vs cublas)
  awk '{print $2, $1, $3}' $L/$set.shapes > $L/$set.t.shapes
  for b in .bundles/tnarrow-fp8/*.json; do
    timeout 150 $runner $b --shapes $L/$set.t.shapes --bench "${vs[@]}" --warmup 10 --iters 30 \
      --timeout-ms 20000 --json $L/$set-$(basename $b .json).json > $L/$set-$(basename $b .json).log 2>&1
    echo "$set $(basename $b .json): exit $?"
  done
  while read -r m n k; do
    timeout 60 $runner --library .device/tn/kernels --dtype e4m3 --out-dtype bf16 --quant tt --m $m --n $n --k $k \
      --bench "${vs[@]}" --warmup 10 --iters 30 --timeout-ms 20000 --json $L/$set-pick-${m}x${n}x${k}.json \
      > $L/$set-pick-${m}x${n}x${k}.log 2>&1 || echo "pick $m $n $k failed"
  done < $L/$set.shapes
done
python3 bench/results/2026-11-29-h200-transposed-narrow/scripts/probe-table.py $L > $R/probe.md
cat $R/probe.md
rm -f $L/build.log
tar -C /tmp -cJf $R/runs.tar.xz c7
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
