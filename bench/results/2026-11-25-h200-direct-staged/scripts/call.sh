# Issue 16: the direct kernels with staged C stores (H200, one call).
set -u
R=/tmp/c6; rm -rf $R; mkdir -p $R/ab $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
AB=.bundles/direct-ab
# 1. Correctness of every direct kernel of bench/kernels/direct.mlir.
for m in .bundles/direct-new/*.json; do
  timeout 120 "$runner" "$m" --shapes bench/shapes/direct-check.txt --check || echo "FAILED: $m (exit $?)"
done > $R/check.log 2>&1
echo "1. checks: $(grep -c 'check PASS' $R/check.log) passed, $(grep -c 'check FAIL\|FAILED\|error' $R/check.log) failed or errors, $(grep -c '(staged' $R/check.log) staged" | tee $R/summary.txt
# 2. Sanitizers.
for tool in memcheck racecheck; do
  for bundle in direct_bf16_64x64 direct_f16_128x64_rn; do
    log=$R/$tool-$bundle.log
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$runner" .bundles/direct-new/$bundle.json --m 44 --n 206 --k 46 --check > $log 2>&1
    echo "2. $tool $bundle 44x206x46: exit $?, $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' $log)" | tee -a $R/summary.txt
  done
done
# 3. Old (per-element stores) against new (staged) direct kernels beside cuBLASLt.
cat bench/shapes/direct-issue.txt $AB/direct-picks.txt > $R/ab-shapes.txt
for t in 64x32x64 64x64x64 128x128x64; do
  for v in old new; do
    n=sm90_bf16_${t}_direct_c1x1_rm_s8_st0
    timeout 150 "$runner" $AB/$v/$n.json --shapes $R/ab-shapes.txt --bench --vs cublas --warmup 5 --iters 20 \
      --json $R/ab/$v-$t.json > $R/ab/$v-$t.log 2>&1 || echo "3. $v $t exit $?"
  done
done
echo "3. done ($SECONDS s)"
# 4. The new direct candidates on the training sets, for the model.
export PYTHONPATH=$PWD/python
for set in train train2; do
  timeout 120 python3 -m gemm_bench.fit measure --plan $AB/plan-$set.json --runner "$runner" --bundles $AB/new \
    --work $R/fit-$set --warmup 5 --iters 15 > $R/fit-$set.log 2>&1
  python3 -m gemm_bench.fit collect $R/fit-$set --out $R/measurements-direct-$set.json | tail -1
  rm -rf $R/fit-$set
done
echo "4. done ($SECONDS s)"
# 5. The test set through the shipped dispatcher's picks (the library's kernels).
SHAPE_GROUPS=test SELECTION=$AB/selection-test.json L2=warm timeout 300 bash bench/suite.sh .device/kernels $R/suite > $R/suite.log 2>&1
echo "5. suite exit $? ($SECONDS s)"
grep -A8 "| group" $R/suite/results.md | head -20
rm -rf $R/suite/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/c6.tgz c6
