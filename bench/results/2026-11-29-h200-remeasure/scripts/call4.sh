# Call 4: the library with the refitted model (.device/kernels-refit.tar.xz,
# a tarball of build/kernels) over issue 18's low-precision sweep
# (bench/lowp-h200.sh PART=sweep: the library's fp8, int8 and tf32 problems
# over the squares and the LLM sweep, the dispatcher's picks beside
# cuBLASLt), then the bf16/f16 sweep (squares, LLM, odd) through the suite
# with the refitted model's picks (.bundles/remeasure/selection-sweep.json,
# `python -m gemm_bench.suite select --bundles build/kernels --json ...`).
set -u
R=$OUT/call4; mkdir -p $R
mkdir -p .device/refit && tar -C .device/refit -xJf .device/kernels-refit.tar.xz
PART=sweep LIBRARY=.device/refit/kernels BUDGET_S=330 bash bench/lowp-h200.sh /tmp/lowp > $R/lowp.log 2>&1
echo "lowp sweep exit $? ($SECONDS s)"
cp /tmp/lowp/README.md $R/lowp-README.md; cp /tmp/lowp/gpu.txt $R/lowp-gpu.txt
tar -C /tmp -czf $R/lowp.tgz lowp
MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=squares,llm,odd SELECTION=.bundles/remeasure/selection-sweep.json L2=warm \
  timeout 180 bash bench/suite.sh .device/refit/kernels /tmp/sweep16 > $R/sweep16.log 2>&1
echo "bf16/f16 sweep exit $? ($SECONDS s)"
rm -rf /tmp/sweep16/runs
tar -C /tmp -czf $R/sweep16.tgz sweep16
echo "done $SECONDS s"
