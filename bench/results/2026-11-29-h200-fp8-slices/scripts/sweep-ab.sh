# Call 4: the library with the 192x128 promoted fp8 kernels (NEW=slices2,
# .device/kernels-slices2.tar.xz, a tarball of build/kernels) against the
# shipped one (.device/kernels-full.tar.xz) on the problems whose pick it
# changes (CHANGED=changed.txt: changed-sweep.txt, the squares and the LLM
# sweep, and changed-test.txt, issue 16's test shapes, both listed here by
# gemm._core.select with each library's model), two rounds in alternating
# order, beside cuBLASLt; C=call4 SWEEP=0. Call 6: the library as shipped
# (NEW=slices3, its model refitted with call 5), CHANGED=changed-final.txt
# (51), C=call6 SWEEP=0. (A copy of the lowp-sweep study's script with
# this directory's lists.)
set -u
D=bench/results/2026-11-29-h200-fp8-slices
NEW=${NEW:-lowp} CHANGED=${CHANGED:-changed.txt}
R=$OUT/${C:-c3}; mkdir -p $R
for v in full $NEW; do mkdir -p .device/$v && tar -C .device/$v -xJf .device/kernels-$v.tar.xz; done
if [ "${SWEEP:-1}" = 1 ]; then
  PART=sweep LIBRARY=.device/$NEW/kernels BUDGET_S=330 bash bench/lowp-h200.sh /tmp/sweep > $R/log.txt 2>&1
  echo "sweep exit $? ($SECONDS s)"
fi

source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
mkdir -p /tmp/ab
for round in 1 2; do
  order="full $NEW"; [ $round = 2 ] && order="$NEW full"
  while read -r dtype out quant m n k; do
    qarg=(); [ "$quant" = - ] || qarg=(--quant "$quant")
    for v in $order; do
      [ $SECONDS -gt 560 ] && break 3
      timeout 60 "$runner" --library .device/$v/kernels --dtype $dtype --out-dtype $out "${qarg[@]}" \
        --m $m --n $n --k $k --bench --vs cublas --warmup 10 --iters 30 --timeout-ms 20000 \
        --json /tmp/ab/$v-r$round-$dtype-$out-$quant-${m}x${n}x${k}.json > /dev/null 2>&1
    done
  done < $D/scripts/$CHANGED
  echo "round $round done ($SECONDS s)"
done
python3 bench/results/2026-11-29-h200-lowp-sweep/scripts/ab.py /tmp/ab > $R/ab.md
if [ "${SWEEP:-1}" = 1 ]; then
  cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $R/
  tar -C /tmp -czf $R/sweep.tgz sweep/sweep ab
else
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
  tar -C /tmp -czf $R/ab.tgz ab
fi
echo "done ($SECONDS s)"
