# Issue 16, device call 8: the suite on the test and training sets and the
# old sweep (squares, llm, odd) with the direct kernels: model version 2,
# refitted on bench/direct-h200.sh's measurements of the training set
# (34 candidates), from the selection made on the compiler machine
# (bench/compile-bundles.sh best .bundles/gen4 --groups train,test,squares,llm,odd;
#  suite select --groups ... --json .bundles/gen4/selection.json).
set -u
R=$OUT/c8; mkdir -p $R
SHAPE_GROUPS=test,train,squares,llm,odd SELECTION=.bundles/gen4/selection.json L2=warm \
  timeout 560 bash bench/suite.sh .bundles/gen4 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
grep -A8 "| group" $R/suite/results.md
tail -2 $R/suite.log
rm -rf $R/suite/runs
tar -C $OUT -czf $OUT/c8.tgz c8 && rm -rf $R
