# Issue 18, call 10: the sweep once more with the library as shipped at the
# end of the session (call 8's kernels in it too; .device/kernels-full.tar.xz
# is build/kernels), a third sample of the run-to-run noise of call 5's and
# call 7's figures.
set -u
R=$OUT/c10; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
PART=sweep LIBRARY=.device/full/kernels BUDGET_S=330 bash bench/lowp-h200.sh /tmp/sweep > $R/log.txt 2>&1
echo "sweep exit $? ($SECONDS s)"
cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $R/
tar -C /tmp -czf $R/sweep.tgz sweep/sweep
