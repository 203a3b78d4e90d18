# Issue 16, call 7: the grid sized by the tile order (the runtime and kernel
# library of scripts/tile-order-grid.patch, not committed: manifests with
# grid.raster and grid.swizzle; .device/kernels-new.tar.xz was its library)
# against the grid of every slot (the same runtime with the previous library,
# whose manifests do not), in one process each, alternating:
# - training runs whose grid changes (call7-train.txt: a sample of the
#   train and train2 measurements' runs), gemm-runner BUNDLE --shapes;
# - the picks whose grid changes (call7-picks.txt: 5 test problems in bf16
#   and f16, 3 training problems), gemm-runner --library, beside cuBLASLt.
set -u
D=bench/results/2026-11-29-h200-test-losers
R=$OUT/c7; mkdir -p $R
L=/tmp/c7; mkdir -p $L/shapes
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/new .device/old
tar -C .device/new -xJf .device/kernels-new.tar.xz && tar -C .device/old -xJf .device/kernels-full.tar.xz || exit 2
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
grep -v '^#' $D/scripts/call7-train.txt | while read config m n k grid; do
  echo "$m $n $k" >> $L/shapes/$config.txt
done
for round in 1 2; do
  for f in $L/shapes/*.txt; do
    config=$(basename $f .txt)
    for lib in new old; do
      timeout 60 $runner .device/$lib/kernels/$config.json --shapes $f --bench --warmup 5 --iters 20 \
        --json $L/train-$lib-$config-r$round.json > $L/train-$lib-$config-r$round.log 2>&1
      echo "train r$round $lib $config rc=$? ($SECONDS s)" >> $R/progress.txt
    done
  done
  [ $SECONDS -gt 300 ] && break
done
for round in 1 2 3; do
  grep -v '^#' $D/scripts/call7-picks.txt | while read dtype m n k; do
    for lib in new old; do
      timeout 60 $runner --library .device/$lib/kernels --dtype $dtype --m $m --n $n --k $k --check --bench \
        --vs cublas --warmup 10 --iters 30 --json $L/pick-$lib-$dtype-${m}x${n}x${k}-r$round.json \
        > $L/pick-$lib-$dtype-${m}x${n}x${k}-r$round.log 2>&1
      echo "pick r$round $lib $dtype ${m}x${n}x${k} rc=$? ($SECONDS s)" >> $R/progress.txt
    done
  done
  [ $SECONDS -gt 480 ] && break
done
python3 $D/scripts/grid-compare.py $D/scripts/call7-train.txt $D/scripts/call7-picks.txt $L > $R/compare.md 2> $R/compare-errors.txt
tar -C /tmp -czf $R/logs.tgz c7
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
