# Issue 16, device call 2 (same machine, right after call 1): the suite on
# the generated training and test sets (bench/shapes/{train,test}.txt) with
# the dispatcher as it was before this work (the classes of
# bench/tuning/sm90-h200.json, else its model), from the selection made on
# the compiler machine (suite select --groups train,test --json).
set -u
R=$OUT/c2; mkdir -p $R
SHAPE_GROUPS=train,test SELECTION=.bundles/gen/selection.json L2=warm \
  timeout 540 bash bench/suite.sh .bundles/gen $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
grep -A12 "| group" $R/suite/results.md
tail -3 $R/suite.log
tar -C $OUT -czf $OUT/c2.tgz c2 && rm -rf $R
