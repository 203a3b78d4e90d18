# Issue 18, calls 3, 5 and 7: a new library over the same sweep as call 1,
# then the problems whose pick it changes with the shipped library and the
# new one, two rounds in alternating order, beside cuBLASLt.
#   call 3: NEW=lowp (.device/kernels-lowp.tar.xz: built with the model
#           that has call 2's low-precision residuals: its model.json and
#           two more kernels its picks add), CHANGED=changed.txt (31), C=c3
#   call 5: NEW=final (.device/kernels-final.tar.xz: the measured kernels
#           only, with call 4's), CHANGED=changed-final.txt (22), C=c5
#   call 7: NEW=all (.device/kernels-all.tar.xz: every measured kernel,
#           with call 6's), CHANGED=changed-all.txt (3, against call 5's
#           library, here .device/kernels-full.tar.xz), C=c7 (call7.sh)
#   call 9: NEW=final2 (.device/kernels-final2.tar.xz: with call 8's
#           kernels), CHANGED=changed-8.txt (1, against call 7's library),
#           C=c9, SWEEP=0 (the A/B alone)
# LISTS: the results directory whose scripts/ holds CHANGED (this one by
# default; bench/results/2026-11-29-h200-fp8-slices and
# 2026-11-29-h200-remeasure reuse the script). OLD: the shipped library's
# tarball, .device/kernels-OLD.tar.xz (default full), still labelled full.
set -u
D=bench/results/2026-11-29-h200-lowp-sweep
LISTS=${LISTS:-$D}
NEW=${NEW:-lowp} CHANGED=${CHANGED:-changed.txt} OLD=${OLD:-full}
R=$OUT/${C:-c3}; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-$OLD.tar.xz
mkdir -p .device/$NEW && tar -C .device/$NEW -xJf .device/kernels-$NEW.tar.xz
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
      [ $SECONDS -gt ${LIMIT:-560} ] && break 3
      timeout 60 "$runner" --library .device/$v/kernels --dtype $dtype --out-dtype $out "${qarg[@]}" \
        --m $m --n $n --k $k --bench --vs cublas --warmup 10 --iters 30 --timeout-ms 20000 \
        --json /tmp/ab/$v-r$round-$dtype-$out-$quant-${m}x${n}x${k}.json > /dev/null 2>&1
    done
  done < $LISTS/scripts/$CHANGED
  echo "round $round done ($SECONDS s)"
done
python3 $D/scripts/ab.py /tmp/ab > $R/ab.md
if [ "${SWEEP:-1}" = 1 ]; then
  cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $R/
  tar -C /tmp -czf $R/sweep.tgz sweep/sweep ab
else
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
  tar -C /tmp -czf $R/ab.tgz ab
fi
echo "done ($SECONDS s)"
