# Issue 16, call 5: a trial. Do the 64-row tiles re-read B because the CTAs
# that share a B tile change from one wave of tiles to the next? With 132
# CTAs and P row tiles in a column (P not dividing 132), the partners of a
# column in wave w+1 finished their tiles of wave w at different times. A
# persistent grid of a multiple of P CTAs keeps the same P CTAs on one
# column in every wave. The runtime of this trial takes the grid's cap from
# GEMM_EXP_GRID (scripts/trial-grid.patch, not committed: apply it to run
# this). Training problems only: one launch each under Nsight Compute (call
# 3's metrics), then gemm-runner's GPU timing, the two grids alternating,
# three rounds.
# Call 9 ran it with call9-runs.txt: `call5.sh scripts/call9-runs.txt c9`.
set -u
D=bench/results/2026-11-29-h200-test-losers
RUNS=$D/${1:-scripts/call5-runs.txt}
NAME=${2:-c5}
R=$OUT/$NAME; mkdir -p $R
L=/tmp/$NAME; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
[ -d .device/full/kernels ] || { mkdir -p .device/full && tar -C .device/full -xJf ${KERNELS_TAR:-.device/kernels-full.tar.xz}; }
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
K=.device/full/kernels
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
runs() { grep -v '^#' $RUNS; }
runs | while read config m n k grid; do
  for g in 132 $grid; do
    GEMM_EXP_GRID=$g timeout 60 ncu --clock-control none --cache-control none --launch-count 1 --kernel-name regex:sm90 \
      --csv --page raw --metrics $metrics $runner $K/$config.json --m $m --n $n --k $k --bench --warmup 0 --iters 1 \
      --timing call > $L/ncu-$config-${m}x${n}x${k}-g$g.csv 2>&1
    echo "ncu $config ${m}x${n}x${k} grid $g rc=$? ($SECONDS s)" >> $R/progress.txt
  done
done
for round in 1 2 3; do
  runs | while read config m n k grid; do
    for g in 132 $grid; do
      GEMM_EXP_GRID=$g timeout 60 $runner $K/$config.json --m $m --n $n --k $k --check --bench --warmup 5 --iters 20 \
        --json $L/time-$config-${m}x${n}x${k}-g$g-r$round.json > $L/time-$config-${m}x${n}x${k}-g$g-r$round.log 2>&1
      echo "time r$round $config ${m}x${n}x${k} grid $g rc=$? ($SECONDS s)" >> $R/progress.txt
    done
  done
  [ $SECONDS -gt 450 ] && break
done
python3 $D/scripts/grid-table.py $RUNS $L > $R/grid.md 2> $R/grid-errors.txt
tar -C /tmp -czf $R/logs.tgz $NAME
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
