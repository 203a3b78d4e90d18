# Session 4, device call 4: the suite from the confirmed tuning cache.
set -u
R=$OUT/c4; mkdir -p $R
L2=warm bash bench/suite.sh .bundles/tune3 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
grep -A8 "| group" $R/suite/results.md
grep -E "^\| (4096|6144|8192) \| (4096|6144|8192) \| (4096|6144|8192) " $R/suite/results.md
tail -3 $R/suite.log
tar -C $OUT -czf $OUT/c4.tgz c4 && rm -rf $R
