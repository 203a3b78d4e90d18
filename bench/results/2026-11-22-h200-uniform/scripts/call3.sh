# Session 4, device call 3: the search with the confirmation stage.
set -u
R=$OUT/c3; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu-start.txt
DEADLINE_S=560 WORK=/tmp/gemm-tune bash bench/tune.sh .bundles/tune3 > $R/tune.log 2>&1
echo "tune exit $?" >> $R/tune.log
cp bench/tuning/sm90-h200.json bench/tuning/sm90-h200.md bench/tuning/sm90-h200-heuristic.md $R/
tar -C /tmp -czf $R/tune-runs.tgz gemm-tune
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv > $R/gpu-end.txt
tail -30 $R/tune.log
tar -C $OUT -czf $OUT/c3.tgz c3 && rm -rf $R
