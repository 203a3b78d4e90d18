# Issue 16, device call 3: the suite on the training and test sets with the
# fitted model's choices (bench/tuning/sm90-h200-model.json, commit 49c1977),
# from the selection made on the compiler machine
# (bench/compile-bundles.sh best .bundles/gen2 --groups train,test;
#  suite select --groups train,test --json .bundles/gen2/selection.json).
set -u
R=$OUT/c3; mkdir -p $R
SHAPE_GROUPS=train,test SELECTION=.bundles/gen2/selection.json L2=warm \
  timeout 540 bash bench/suite.sh .bundles/gen2 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
grep -A6 "| group" $R/suite/results.md
tail -2 $R/suite.log
rm -rf $R/suite/runs $R/suite/*.png
tar -C $OUT -czf $OUT/c3.tgz c3 && rm -rf $R
