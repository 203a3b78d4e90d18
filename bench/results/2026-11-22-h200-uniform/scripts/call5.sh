# Session 4, device call 5: the search with the confirmation stage and M
# classes split at 2048, then the suite from that cache.
set -u
R=$OUT/c5; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu-start.txt
DEADLINE_S=500 WORK=/tmp/gemm-tune5 bash bench/tune.sh .bundles/tune3 > $R/tune.log 2>&1
echo "tune exit $?" >> $R/tune.log
cp bench/tuning/sm90-h200.json bench/tuning/sm90-h200.md bench/tuning/sm90-h200-heuristic.md $R/
tar -C /tmp -czf $R/tune-runs.tgz gemm-tune5
L2=warm bash bench/suite.sh .bundles/tune3 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv > $R/gpu-end.txt
grep -E "heuristic within|tune exit|stopped" $R/tune.log | tail -3
grep -A8 "| group" $R/suite/results.md
grep -E "^\| (2048|4096|6144|8192) \| (2048|4096|6144|8192) \| (2048|4096|6144|8192) " $R/suite/results.md
tar -C $OUT -czf $OUT/c5.tgz c5 && rm -rf $R
