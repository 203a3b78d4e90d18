# Issue 16, device call 7: the suite on the test and training sets and the
# old sweep (squares, llm, odd) with the model refitted on call 6's
# measurements (commit after 24675f7) and A/B realignment on, from the
# selection made on the compiler machine
# (bench/compile-bundles.sh best .bundles/gen3 --groups train,test,squares,llm,odd;
#  suite select --groups ... --json .bundles/gen3/selection.json).
set -u
R=$OUT/c7; mkdir -p $R
SHAPE_GROUPS=test,train,squares,llm,odd SELECTION=.bundles/gen3/selection.json L2=warm \
  timeout 560 bash bench/suite.sh .bundles/gen3 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
grep -A8 "| group" $R/suite/results.md
tail -2 $R/suite.log
rm -rf $R/suite/runs
tar -C $OUT -czf $OUT/c7.tgz c7 && rm -rf $R
