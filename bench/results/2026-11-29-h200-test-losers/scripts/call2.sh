# Issue 16, call 2: one launch each of the dispatcher's pick (with the
# runtime's staging copies, if any) and of cuBLASLt's kernels for every test
# problem below 0.90x (profile-shapes.txt), under Nsight Compute: time,
# throughput of the SMs, tensor pipe, L2 and DRAM, bytes moved, how evenly the
# SMs were busy. The metrics the installed ncu does not know are left out
# (metrics.txt says which were collected). SHAPES, LIB (the library
# .device/kernels-LIB.tar.xz) and C (the results' folder) default to this
# study's; ../2026-11-29-h200-transposed-narrow/ sets its own.
set -u
D=bench/results/2026-11-29-h200-test-losers
SHAPES=${SHAPES:-$D/profile-shapes.txt} LIB=${LIB:-full} C=${C:-c2}
R=$OUT/$C; mkdir -p $R
L=/tmp/c2ncu; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
[ -d .device/$LIB/kernels ] || { mkdir -p .device/$LIB && tar -C .device/$LIB -xJf .device/kernels-$LIB.tar.xz; }
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
ncu --version | tail -1 > $R/metrics.txt
ncu --query-metrics > $L/query.txt 2>&1 || ncu --query-metrics --chip gh100 > $L/query.txt 2>&1
wanted="gpu__time_duration.sum sm__throughput.avg.pct_of_peak_sustained_elapsed
dram__throughput.avg.pct_of_peak_sustained_elapsed lts__throughput.avg.pct_of_peak_sustained_elapsed
dram__bytes_read.sum dram__bytes_write.sum lts__t_sector_hit_rate.pct sm__cycles_active.avg
sm__cycles_active.max gpc__cycles_elapsed.max launch__grid_size launch__block_size
launch__cluster_dim_x launch__cluster_dim_y launch__registers_per_thread
sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed
smsp__inst_executed.sum sm__warps_active.avg.pct_of_peak_sustained_active"
metrics=""
for w in $wanted; do
  base=${w%%.*}
  if grep -q "^$base " $L/query.txt; then metrics="$metrics${metrics:+,}$w"; else echo "not known: $w" >> $R/metrics.txt; fi
done
[ -n "$metrics" ] || metrics=gpu__time_duration.sum
echo "collected: $metrics" >> $R/metrics.txt
grep -o "^sm__pipe_tensor[a-z_]*" $L/query.txt | sort -u >> $R/metrics.txt
echo "metrics ($SECONDS s)"
grep -v '^#' $SHAPES | while read dtype m n k; do
  [ $SECONDS -gt 500 ] && { echo "time: stopped before $dtype ${m}x${n}x${k}" >> $R/progress.txt; break; }
  timeout 60 ncu --clock-control none --cache-control none --launch-count 14 --csv --page raw \
    --metrics "$metrics" $runner --library .device/$LIB/kernels --dtype $dtype --m $m --n $n --k $k \
    --bench --vs cublas --warmup 0 --iters 1 --timing call > $L/$dtype-${m}x${n}x${k}.csv 2> $L/$dtype-${m}x${n}x${k}.err
  echo "$dtype ${m}x${n}x${k} rc=$? ($SECONDS s)" >> $R/progress.txt
done
python3 $D/scripts/profile-table.py $SHAPES $L > $R/profile.md 2> $R/profile-errors.txt
tar -C /tmp -czf $R/ncu.tgz c2ncu
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
