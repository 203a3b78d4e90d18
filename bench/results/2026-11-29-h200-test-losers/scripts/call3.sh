# Issue 16, call 3: where the L2 traffic of 64-row pingpong tiles goes, on
# training problems (mid-M against a large N, and large M), beside 128-row
# cooperative tiles on the same problems, and the oracle's better candidates
# on four test losers (call 1): one launch each under Nsight Compute, SM and
# tensor throughput, L2 throughput, L2 sectors by source (the SMs, the
# fabric between the L2's two partitions) and lookups (hits, misses), DRAM.
# Call 4 ran it with call4-runs.txt and only its kernels carried:
# `KERNELS_TAR=.device/kernels-call4.tar.xz call3.sh scripts/call4-runs.txt c4`.
set -u
D=bench/results/2026-11-29-h200-test-losers
RUNS=$D/${1:-scripts/call3-runs.txt}
NAME=${2:-c3}
R=$OUT/$NAME; mkdir -p $R
L=/tmp/${NAME}ncu; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
[ -d .device/full/kernels ] || { mkdir -p .device/full && tar -C .device/full -xJf ${KERNELS_TAR:-.device/kernels-full.tar.xz}; }
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
ncu --query-metrics > $L/query.txt 2>&1
wanted="gpu__time_duration.sum sm__throughput.avg.pct_of_peak_sustained_elapsed
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
lts__throughput.avg.pct_of_peak_sustained_elapsed dram__throughput.avg.pct_of_peak_sustained_elapsed
dram__bytes_read.sum lts__t_sectors.sum lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum
lts__t_sectors_srcunit_tex.sum lts__t_sectors_srcunit_ltcfabric.sum lts__t_sector_hit_rate.pct
lts__t_sectors_srcunit_tex_lookup_hit.sum lts__t_sectors_srcunit_tex_lookup_miss.sum
lts__ltcfabric2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"
metrics=""
for w in $wanted; do
  base=${w%%.*}
  if grep -q "^$base " $L/query.txt; then metrics="$metrics${metrics:+,}$w"; else echo "not known: $w" >> $R/metrics.txt; fi
done
echo "collected: $metrics" >> $R/metrics.txt
grep -o "^lts__[a-z_]*fabric[a-z_0-9]*" $L/query.txt | sort -u >> $R/metrics.txt
K=.device/full/kernels
while read config m n k; do
  [ $SECONDS -gt 400 ] && { echo "time: stopped before $config $m $n $k" >> $R/progress.txt; break; }
  timeout 60 ncu --clock-control none --cache-control none --launch-count 1 --kernel-name regex:sm90 --csv --page raw \
    --metrics "$metrics" $runner $K/$config.json --m $m --n $n --k $k --bench --warmup 0 --iters 1 --timing call \
    > $L/$config-${m}x${n}x${k}.csv 2> $L/$config-${m}x${n}x${k}.err
  echo "$config ${m}x${n}x${k} rc=$? ($SECONDS s)" >> $R/progress.txt
done < <(grep -v '^#' $RUNS)
python3 $D/scripts/l2-table.py $RUNS $L > $R/l2.md 2> $R/l2-errors.txt
tar -C /tmp -czf $R/ncu.tgz ${NAME}ncu
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
