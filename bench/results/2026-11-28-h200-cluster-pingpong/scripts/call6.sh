# Session 10, call 6: the 192-row tiles shipped. GPU-tier checks of
# bench/kernels/sm90-tall.mlir (what test/GPU/sm90-tall.test runs), the new
# library's 192-row picks in every layout and batched (gemm-runner
# --library --check), then the test set through the new model's picks
# beside the previous model's, one kernel library for both, interleaved
# with cuBLASLt.
set -u
R=/tmp/s10f; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
source bench/lib/check-bundles.sh
echo "tall checks: $(check_bundles $R/tall-check.log bench/shapes/narrow-check.txt .bundles/tall/*.json) ($SECONDS s)"
pass=0; fail=0
while read -r args; do
  [ -z "$args" ] && continue
  for dtype in bf16 f16; do
    if "$runner" --library .device/kernels --dtype $dtype $args --check >> $R/library-check.log 2>&1; then
      pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: --dtype $dtype $args" >> $R/library-check.log; fi
  done
done < bench/results/2026-11-28-h200-cluster-pingpong/scripts/library-checks.txt
grep "^library:" $R/library-check.log | sed 's/ (model.*//' > $R/library-picks.txt
echo "library checks: $pass passed, $fail failed ($SECONDS s)"
SHAPE_GROUPS=test SELECTION=.bundles/s10f/selection-new.json L2=warm timeout 200 bash bench/suite.sh .device/kernels $R/new > $R/new.log 2>&1
echo "new suite exit $? ($SECONDS s)"
SHAPE_GROUPS=test SELECTION=.bundles/s10f/selection-old.json L2=warm timeout 200 bash bench/suite.sh .device/kernels $R/old > $R/old.log 2>&1
echo "old suite exit $? ($SECONDS s)"
rm -rf $R/new/runs $R/old/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s10f.tgz s10f
