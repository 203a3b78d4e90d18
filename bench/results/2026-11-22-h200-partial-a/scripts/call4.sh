# Device call 4 (session 3): the search and the suite with the committed
# compiler (64-row tiles past M in 16-row A boxes, peeled first k-block).
set -u
R=$OUT/d4; mkdir -p $R
DEADLINE_S=400 WORK=/tmp/gemm-tune bash bench/tune.sh .bundles/tune2 > $R/tune.log 2>&1
echo "tune exit $?" >> $R/tune.log
cp bench/tuning/sm90-h200.json bench/tuning/sm90-h200.md bench/tuning/sm90-h200-heuristic.md $R/
tar -C /tmp -czf $R/tune-runs.tgz gemm-tune
L2=warm bash bench/suite.sh .bundles/tune2 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
tar -C $OUT -czf $OUT/d4.tgz d4 && rm -rf $R
