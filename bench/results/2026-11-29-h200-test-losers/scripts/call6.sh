# Issue 16, call 6: the control for call 5. Is it the grid's being a
# multiple of the row tiles of a column that speeds the 64-row tiles up, or
# only its having fewer CTAs? The trial runtime of call 5 (GEMM_EXP_GRID,
# scripts/trial-grid.patch),
# training problems, gemm-runner's GPU timing (no check: call 5 checked the
# trial grids), every grid of call6-runs.txt in turn, three rounds.
set -u
D=bench/results/2026-11-29-h200-test-losers
R=$OUT/c6; mkdir -p $R
L=/tmp/c6; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
[ -d .device/full/kernels ] || { mkdir -p .device/full && tar -C .device/full -xJf ${KERNELS_TAR:-.device/kernels-full.tar.xz}; }
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
K=.device/full/kernels
for round in 1 2 3; do
  grep -v '^#' $D/scripts/call6-runs.txt | while read config m n k grids; do
    for g in ${grids//,/ }; do
      GEMM_EXP_GRID=$g timeout 60 $runner $K/$config.json --m $m --n $n --k $k --bench --warmup 5 --iters 20 \
        --json $L/time-$config-${m}x${n}x${k}-g$g-r$round.json > $L/time-$config-${m}x${n}x${k}-g$g-r$round.log 2>&1
      echo "r$round $config ${m}x${n}x${k} grid $g rc=$? ($SECONDS s)" >> $R/progress.txt
    done
  done
  [ $SECONDS -gt 400 ] && break
done
python3 $D/scripts/grid-sweep.py $D/scripts/call6-runs.txt $L > $R/sweep.md 2> $R/sweep-errors.txt
tar -C /tmp -czf $R/logs.tgz c6
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
